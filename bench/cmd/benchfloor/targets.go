package main

import (
	"fmt"
	"math"
)

// target is one performance target: a measure compared with a limit.
type target struct {
	text    string
	measure func(rs runs, unit string) float64
	limit   float64
	atLeast bool // the measure must reach the limit rather than stay under it
	unitFmt string
}

// met reports whether value meets the target.
func (t target) met(v float64) bool {
	if math.IsNaN(v) {
		return false
	}
	if t.atLeast {
		return v >= t.limit
	}
	return v <= t.limit
}

// vs is a target on t(a)/t(b) of one row.
func vs(text, row, a, b string, limit float64) target {
	return target{text: text, limit: limit, unitFmt: "%.2fx",
		measure: func(rs runs, unit string) float64 { return rs.ratio(row+"/"+a, row+"/"+b, unit) }}
}

// faster is a target on how many times faster ours is than impl.
func faster(text, row, impl string, limit float64) target {
	t := vs(text, row, impl, "ours", limit)
	t.atLeast, t.unitFmt = true, "%.1fx"
	return t
}

// growthTarget is a target on ours' growth exponent from 10,000 to 100,000.
func growthTarget(text, row string, limit float64) target {
	return target{text: text, limit: limit, unitFmt: "%.3f",
		measure: func(rs runs, unit string) float64 { return rs.growth(row, "ours", 10000, 100000, unit) }}
}

// targets are docs/benchmarks.md's, in its order.
var targets = []target{
	vs("typed Apply ≤ 1.5x its floor (DeepCopy + patch parse)", "typed-apply", "ours", "floor", 1.5),
	vs("typed Diff ≤ 0.5x one reflect.DeepEqual walk", "typed-diff", "ours", "floor", 0.5),
	faster("typed Diff ≥ 25x faster than Kubernetes", "typed-diff", "k8s", 25),
	vs("typed ThreeWay ≤ 1.0x its floor (two equality walks + marshal)", "typed-threeway", "ours", "floor", 1.0),
	faster("typed ThreeWay ≥ 12x faster than Kubernetes", "typed-threeway", "k8s", 12),
	vs("JSON apply ≤ 1.7x its floor (json.Valid + copy)", "json-apply", "ours", "floor", 1.7),
	vs("MapList apply, N = 10,000, ≤ 1.0x bare decode+encode", "maplist-apply/n=10000", "ours", "bare", 1.0),
	vs("MapList apply, N = 100,000, ≤ 1.0x bare decode+encode", "maplist-apply/n=100000", "ours", "bare", 1.0),
	vs("MapList two-way, N = 10,000, ≤ 1.0x bare decode+encode", "maplist-twoway/n=10000", "ours", "bare", 1.0),
	vs("MapList two-way, N = 100,000, ≤ 1.0x bare decode+encode", "maplist-twoway/n=100000", "ours", "bare", 1.0),
	vs("MapList two-way, N = 10,000, no slower than RFC 7386's CreateMergePatch", "maplist-twoway/n=10000", "ours", "rfc7386", 1.0),
	vs("MapList two-way, N = 100,000, no slower than RFC 7386's CreateMergePatch", "maplist-twoway/n=100000", "ours", "rfc7386", 1.0),
	growthTarget("MapList apply growth exponent 10,000 → 100,000 ≤ 1.05", "maplist-apply", 1.05),
	growthTarget("MapList two-way growth exponent 10,000 → 100,000 ≤ 1.05", "maplist-twoway", 1.05),
	faster("MapList apply, N = 10,000, ≥ 300x faster than Kubernetes", "maplist-apply/n=10000", "k8s", 300),
}

// targetLine is a target's line of the report: met or not, on wall time
// and CPU time.
func targetLine(t target, rs runs) string {
	wall, cpu := t.measure(rs, "ns/op"), t.measure(rs, "cpu-ns/op")
	return fmt.Sprintf("| %s | "+t.unitFmt+" | **%s** | "+t.unitFmt+" | %s |", t.text, wall, verdict(t.met(wall)), cpu, verdict(t.met(cpu)))
}

// verdict is "met" or "not met".
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "not met"
}
