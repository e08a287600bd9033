package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

// tableRow is a row of the ratio table: BenchmarkTargets/<name>/<impl>.
type tableRow struct{ name, label string }

var tableRows = []tableRow{
	{"typed-apply", "typed Apply (ParsePatch + Apply)"},
	{"typed-diff", "typed Diff (+ MarshalJSON)"},
	{"typed-threeway", "typed ThreeWay (+ MarshalJSON)"},
	{"json-apply", "JSON apply"},
	{"maplist-apply/n=10000", "MapList N=10,000 apply"},
	{"maplist-twoway/n=10000", "MapList N=10,000 two-way"},
	{"maplist-apply/n=100000", "MapList N=100,000 apply"},
	{"maplist-twoway/n=100000", "MapList N=100,000 two-way"},
}

// report writes the tables of one run: times and ratios on wall time and
// on CPU time, then the targets.
func report(w io.Writer, r io.Reader) error {
	rs, err := parseRuns(r)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Medians of %d interleaved passes; ratios are medians of the per-pass ratios.\n", rs.passes())
	for _, unit := range []struct{ unit, title string }{{"ns/op", "wall time"}, {"cpu-ns/op", "CPU time"}} {
		fmt.Fprintf(&b, "\n### Times (%s)\n\n", unit.title)
		writeTable(&b, rs, unit.unit)
	}
	b.WriteString("\n### Targets\n\n| target | wall | | CPU | |\n| --- | --: | --- | --: | --- |\n")
	met := 0
	for _, t := range targets {
		b.WriteString(targetLine(t, rs) + "\n")
		if t.met(t.measure(rs, "ns/op")) {
			met++
		}
	}
	fmt.Fprintf(&b, "\n%d of %d targets met on wall time.\n", met, len(targets))
	_, err = io.WriteString(w, b.String())
	return err
}

// writeTable writes one table of times and ratios in unit.
func writeTable(b *strings.Builder, rs runs, unit string) {
	b.WriteString("| operation | typedpatch | floor | ours / floor | bare | ours / bare | Kubernetes | k8s / ours | RFC 7386 | structured-merge-diff | ours allocs | floor allocs |\n")
	b.WriteString("| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |\n")
	for _, row := range tableRows {
		at := func(impl string) string { return row.name + "/" + impl }
		cells := []string{
			row.label,
			duration(rs.median(at("ours"), unit)),
			duration(rs.median(at("floor"), unit)),
			times(rs.ratio(at("ours"), at("floor"), unit)),
			duration(rs.median(at("bare"), unit)),
			times(rs.ratio(at("ours"), at("bare"), unit)),
			duration(rs.median(at("k8s"), unit)),
			times(rs.ratio(at("k8s"), at("ours"), unit)),
			duration(rs.median(at("rfc7386"), unit)),
			duration(rs.median(at("smd"), unit)),
			count(rs.median(at("ours"), "allocs/op")),
			count(rs.median(at("floor"), "allocs/op")),
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}

// duration formats nanoseconds: benchfmt.Duration.
func duration(ns float64) string { return benchfmt.Duration(ns, "–") }

// times prints a ratio, "–" when there is none.
func times(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "–"
	}
	return fmt.Sprintf("%.3gx", r)
}

// count prints an allocation count.
func count(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.0f", v)
}
