package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

// prefix is the name every row of BenchmarkTargets starts with.
const prefix = "BenchmarkTargets/"

// runs holds the passes' result lines by benchmark name, less prefix.
type runs map[string][]benchfmt.Line

func parseRuns(r io.Reader) (runs, error) {
	lines, err := benchfmt.Parse(r)
	if err != nil {
		return nil, err
	}
	rs := runs{}
	for _, l := range lines {
		if name, ok := strings.CutPrefix(l.Name, prefix); ok {
			rs[name] = append(rs[name], l)
		}
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("no %s results in the input", prefix)
	}
	return rs, nil
}

// median returns the median of name's values in unit, NaN without any.
func (rs runs) median(name, unit string) float64 {
	ls := rs[name]
	vs := make([]float64, len(ls))
	for i, l := range ls {
		vs[i] = l.Value(unit)
	}
	return benchfmt.Median(vs)
}

// ratio returns t(a)/t(b) in unit: the median of the per-pass ratios
// when both were measured in every pass (pass i's lines pair up),
// otherwise the ratio of the medians.
func (rs runs) ratio(a, b, unit string) float64 {
	la, lb := rs[a], rs[b]
	if len(la) == 0 || len(lb) == 0 {
		return math.NaN()
	}
	if len(la) != len(lb) {
		return rs.median(a, unit) / rs.median(b, unit)
	}
	vs := make([]float64, len(la))
	for i := range la {
		vs[i] = la[i].Value(unit) / lb[i].Value(unit)
	}
	return benchfmt.Median(vs)
}

// growth returns the exponent log(t(n2)/t(n1)) / log(n2/n1) of row's
// implementation impl between sizes n1 and n2.
func (rs runs) growth(row, impl string, n1, n2 int, unit string) float64 {
	t1 := rs.median(fmt.Sprintf("%s/n=%d/%s", row, n1, impl), unit)
	t2 := rs.median(fmt.Sprintf("%s/n=%d/%s", row, n2, impl), unit)
	return math.Log(t2/t1) / math.Log(float64(n2)/float64(n1))
}

// passes returns how many passes measured ours of the first row.
func (rs runs) passes() int {
	return len(rs[tableRows[0].name+"/ours"])
}
