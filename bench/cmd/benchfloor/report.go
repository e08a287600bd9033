package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

// prefixes are the names the rows of the targets table start with; a
// row is named without them.
var prefixes = []string{"BenchmarkTargets/", "BenchmarkTargetsLargeLists/"}

// runs holds the passes' result lines by benchmark name, less its
// prefix; other benchmarks (smp's) by their whole name.
type runs map[string][]benchfmt.Line

func parseRuns(r io.Reader) (runs, error) {
	lines, err := benchfmt.Parse(r)
	if err != nil {
		return nil, err
	}
	rs := runs{}
	rs.add(lines)
	if len(rs) == 0 {
		return nil, fmt.Errorf("no %s results in the input", prefixes[0])
	}
	return rs, nil
}

// add files result lines under their row names.
func (rs runs) add(lines []benchfmt.Line) {
	for _, l := range lines {
		name := l.Name
		for _, p := range prefixes {
			if rest, ok := strings.CutPrefix(name, p); ok {
				name = rest
				break
			}
		}
		rs[name] = append(rs[name], l)
	}
}

// values returns name's values in unit, one per pass.
func (rs runs) values(name, unit string) []float64 {
	ls := rs[name]
	vs := make([]float64, len(ls))
	for i, l := range ls {
		vs[i] = l.Value(unit)
	}
	return vs
}

// median returns the median of name's values in unit, NaN without any.
func (rs runs) median(name, unit string) float64 {
	return benchfmt.Median(rs.values(name, unit))
}

// ratio returns t(a)/t(b) in unit: the median of the per-pass ratios
// when both were measured in every pass, otherwise the ratio of the
// medians.
func (rs runs) ratio(a, b, unit string) float64 {
	if len(rs[a]) == 0 || len(rs[b]) == 0 {
		return math.NaN()
	}
	if r := benchfmt.PairedRatios(rs.values(a, unit), rs.values(b, unit)); r != nil {
		return benchfmt.Median(r)
	}
	return rs.median(a, unit) / rs.median(b, unit)
}

// growth returns the growth exponent of row's implementation impl between
// sizes n1 and n2, from the ratio of their times; without impl, of the
// rows row/n=N themselves.
func (rs runs) growth(row, impl string, n1, n2 int, unit string) float64 {
	at := func(n int) string {
		if impl == "" {
			return fmt.Sprintf("%s/n=%d", row, n)
		}
		return fmt.Sprintf("%s/n=%d/%s", row, n, impl)
	}
	return benchfmt.Exponent(rs.ratio(at(n2), at(n1), unit), n1, n2)
}

// passes returns how many passes measured ours of the first row.
func (rs runs) passes() int {
	return len(rs[tableRows[0].name+"/ours"])
}
