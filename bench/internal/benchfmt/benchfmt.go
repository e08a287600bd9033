// Package benchfmt reads the result lines of `go test -bench` output, for
// the commands of bench/ that turn them into tables.
package benchfmt

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Line is one result line: the benchmark's name, without the GOMAXPROCS
// suffix, and its values by unit (ns/op, B/op, allocs/op, cpu-ns/op...).
type Line struct {
	Name   string
	Values map[string]float64
}

// lineRE matches a result line: name, iterations, then value-unit pairs.
var lineRE = regexp.MustCompile(`^(Benchmark\S*?)(?:-\d+)?\s+\d+\s+(.*)$`)

// Parse returns the result lines of r, in order; other lines are skipped.
func Parse(r io.Reader) ([]Line, error) {
	var out []Line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		m := lineRE.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		l := Line{Name: m[1], Values: map[string]float64{}}
		fields := strings.Fields(m[2])
		for i := 0; i+1 < len(fields); i += 2 {
			if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
				l.Values[fields[i+1]] = v
			}
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// Value returns the line's value in unit, NaN when it has none.
func (l Line) Value(unit string) float64 {
	if v, ok := l.Values[unit]; ok {
		return v
	}
	return math.NaN()
}

// Median returns the median of vs, ignoring NaNs; NaN if none is left.
func Median(vs []float64) float64 {
	vs = slices.DeleteFunc(slices.Clone(vs), math.IsNaN)
	if len(vs) == 0 {
		return math.NaN()
	}
	slices.Sort(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2]
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
}

// PairedRatios returns a[i]/b[i] for each run i, when a and b hold one
// value per run each (as many values); nil otherwise. Sample i of each
// coming from run i, a change of the machine's load between runs moves
// both sides of a ratio and leaves it be.
func PairedRatios(a, b []float64) []float64 {
	if len(a) == 0 || len(a) != len(b) {
		return nil
	}
	rs := make([]float64, len(a))
	for i := range a {
		rs[i] = a[i] / b[i]
	}
	return rs
}

// Exponent returns the growth exponent log(q) / log(n2/n1) of a time
// that grows by q from size n1 to size n2: 1 is linear, 2 quadratic.
func Exponent(q float64, n1, n2 int) float64 {
	return math.Log(q) / math.Log(float64(n2)/float64(n1))
}

// Duration formats nanoseconds with a unit and three significant digits;
// none, for NaN (no measurement).
func Duration(ns float64, none string) string {
	if ns < 1e3 && !math.IsNaN(ns) {
		return fmt.Sprintf("%.3g ns", ns)
	}
	return scaled(ns, none, []string{"s", "ms", "µs"})
}

// Count formats a count (of instructions, say) with three significant
// digits and G, M or K; none, for NaN.
func Count(v float64, none string) string {
	if v < 1e3 && !math.IsNaN(v) {
		return fmt.Sprintf("%.3g", v)
	}
	return scaled(v, none, []string{"G", "M", "K"})
}

// scaled writes v ≥ 1000 (or NaN: none) in thousands, millions or
// billions, with the names of those units (largest first).
func scaled(v float64, none string, units []string) string {
	switch {
	case math.IsNaN(v):
		return none
	case v >= 1e9:
		return fmt.Sprintf("%.3g %s", v/1e9, units[0])
	case v >= 1e6:
		return fmt.Sprintf("%.3g %s", v/1e6, units[1])
	}
	return fmt.Sprintf("%.3g %s", v/1e3, units[2])
}
