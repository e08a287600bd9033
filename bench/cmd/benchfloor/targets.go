package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

// target is one performance target: a measure compared with a limit.
type target struct {
	text    string
	measure func(rs runs, unit string) float64
	// detail says what the measure was computed from, e.g. "610 K / 135 K".
	detail  func(rs runs, unit string) string
	limit   float64
	atLeast bool // the measure must reach the limit rather than stay under it
	strict  bool // the measure must stay strictly under the limit
	unitFmt string
}

// met reports whether value meets the target.
func (t target) met(v float64) bool {
	switch {
	case math.IsNaN(v):
		return false
	case t.atLeast:
		return v >= t.limit
	case t.strict:
		return v < t.limit
	}
	return v <= t.limit
}

// vs is a target on t(a)/t(b) of one row.
func vs(text, row, a, b string, limit float64) target {
	return target{text: text, limit: limit, unitFmt: "%.2fx",
		measure: func(rs runs, unit string) float64 { return rs.ratio(row+"/"+a, row+"/"+b, unit) },
		detail: func(rs runs, unit string) string {
			return amount(rs.median(row+"/"+a, unit), unit) + " / " + amount(rs.median(row+"/"+b, unit), unit)
		}}
}

// faster is a target on how many times faster ours is than impl.
func faster(text, row, impl string, limit float64) target {
	t := vs(text, row, impl, "ours", limit)
	t.atLeast, t.unitFmt = true, "%.1fx"
	return t
}

// growthTarget is a target on ours' growth exponent from 10,000 to 100,000.
func growthTarget(text, row string, limit float64) target {
	at := func(n int) string { return fmt.Sprintf("%s/n=%d/ours", row, n) }
	return target{text: text, limit: limit, unitFmt: "%.3f",
		measure: func(rs runs, unit string) float64 { return rs.growth(row, "ours", 10000, 100000, unit) },
		detail: func(rs runs, unit string) string {
			return amount(rs.median(at(10000), unit), unit) + " → " + amount(rs.median(at(100000), unit), unit)
		}}
}

// hostileGrowth is a target on the largest growth exponent, 10,000 to
// 100,000, of smp's growth benchmarks (BenchmarkGrowth<shape>/n=N).
func hostileGrowth(text string, limit float64) target {
	worst := func(rs runs, unit string) (float64, string, int) {
		var shapes []string
		for name := range rs {
			if shape, ok := strings.CutSuffix(name, "/n=10000"); ok && strings.HasPrefix(name, "BenchmarkGrowth") {
				shapes = append(shapes, shape)
			}
		}
		sort.Strings(shapes)
		max, which, n := math.NaN(), "", 0
		for _, s := range shapes {
			e := rs.growth(s, "", 10000, 100000, unit)
			if math.IsNaN(e) {
				continue
			}
			n++
			if math.IsNaN(max) || e > max {
				max, which = e, strings.TrimPrefix(s, "BenchmarkGrowth")
			}
		}
		return max, which, n
	}
	return target{text: text, limit: limit, unitFmt: "%.3f",
		measure: func(rs runs, unit string) float64 { v, _, _ := worst(rs, unit); return v },
		detail: func(rs runs, unit string) string {
			if _, which, n := worst(rs, unit); n > 0 {
				return fmt.Sprintf("largest of %d shapes: %s", n, which)
			}
			return "–"
		}}
}

// targets are docs/benchmarks.md's, in its order. The rows of
// BenchmarkTargets and BenchmarkTargetsLargeLists are named without
// that prefix; others (package smp's) by their whole name.
var targets = []target{
	vs("typed Apply ≤ 1.3x its floor (DeepCopy + ParsePatch)", "typed-apply", "ours", "floor", 1.3),
	vs("typed Diff ≤ 0.5x one reflect.DeepEqual walk", "typed-diff", "ours", "floor", 0.5),
	faster("typed Diff: Kubernetes ≥ 25x ours", "typed-diff", "k8s", 25),
	vs("typed ThreeWay ≤ 0.8x its floor (two equality walks + marshal)", "typed-threeway", "ours", "floor", 0.8),
	faster("typed ThreeWay: Kubernetes ≥ 12x ours", "typed-threeway", "k8s", 12),
	vs("JSON apply ≤ 1.5x its floor (json.Valid + copy)", "json-apply", "ours", "floor", 1.5),
	vs("MapList apply, N = 10,000, ≤ 0.9x bare decode+encode", "maplist-apply/n=10000", "ours", "bare", 0.9),
	vs("MapList two-way, N = 10,000, ≤ 1.0x bare decode+encode", "maplist-twoway/n=10000", "ours", "bare", 1.0),
	vs("ApplyInPlace on the Deployment ≤ 0.5x the copying floor", "typed-apply", "inplace", "floor", 0.5),
	onePercent(vs("one-field ApplyInPlace, 100,000 map entries and list elements, < 1% of Apply",
		"BenchmarkApplyInPlaceLarge", "inplace", "apply", 0.01)),
	hostileGrowth("growth exponent of every hostile shape, 10,000 → 100,000, ≤ 1.1", 1.1),
	growthTarget("MapList apply growth exponent, 10,000 → 100,000, ≤ 1.05", "maplist-apply", 1.05),
	growthTarget("MapList two-way growth exponent, 10,000 → 100,000, ≤ 1.05", "maplist-twoway", 1.05),
}

// onePercent makes t strict and prints its measure as a percentage.
func onePercent(t target) target {
	m := t.measure
	t.strict, t.limit, t.unitFmt = true, 1, "%.3g%%"
	t.measure = func(rs runs, unit string) float64 { return 100 * m(rs, unit) }
	return t
}

// targetLine is a target's line of the report: met or not, on wall time
// and CPU time.
func targetLine(t target, rs runs) string {
	wall, cpu := t.measure(rs, "ns/op"), t.measure(rs, "cpu-ns/op")
	return fmt.Sprintf("| %s | %s | **%s** | %s | %s |", t.text, t.format(wall), verdict(t, wall), t.format(cpu), verdict(t, cpu))
}

// format prints a measure, "–" when there is none.
func (t target) format(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return fmt.Sprintf(t.unitFmt, v)
}

// verdict is "met", "not met", or "not measured".
func verdict(t target, v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "not measured"
	case t.met(v):
		return "met"
	}
	return "not met"
}

// amount prints a median: a duration in ns/op, a count otherwise.
func amount(v float64, unit string) string {
	if unit == "ns/op" || unit == "cpu-ns/op" {
		return duration(v)
	}
	return benchfmt.Count(v, "–")
}
