package benchfmt

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Instructions is the unit of instr-bench's measure: instructions per
// operation under valgrind's cachegrind.
const Instructions = "instructions/op"

// ParseInstr returns the results of an instr-bench results file (its
// `measure -o` TSV: name, instructions/op, spread, A, B, B/op,
// allocs/op, seconds, ...), in order, each with its values in
// Instructions, "B/op" and "allocs/op". Blank lines are skipped; any
// other line that is not a result is an error naming it.
func ParseInstr(r io.Reader) ([]Line, error) {
	var out []Line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) < 7 || !strings.HasPrefix(f[0], "Benchmark") {
			return nil, fmt.Errorf("line %d: not an instr-bench result: %.80q", n, text)
		}
		l := Line{Name: f[0], Values: map[string]float64{}}
		for _, c := range []struct {
			i    int
			unit string
		}{{1, Instructions}, {5, "B/op"}, {6, "allocs/op"}} {
			i, unit := c.i, c.unit
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d (%s): %s %q is not a number", n, f[0], unit, f[i])
			}
			l.Values[unit] = v
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// IsInstr reports whether data looks like an instr-bench results file
// rather than `go test -bench` output: its first line that is not blank
// has a name, a tab, and a number of instructions.
func IsInstr(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 7 || !strings.HasPrefix(f[0], "Benchmark") {
			return false
		}
		_, err := strconv.ParseFloat(f[1], 64)
		return err == nil
	}
	return false
}
