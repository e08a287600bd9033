package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// pass writes one pass's lines: name → ns/op (cpu-ns/op is half of it).
func pass(b *strings.Builder, times map[string]float64) {
	for name, ns := range times {
		fmt.Fprintf(b, "BenchmarkTargets/%s-2  10  %g ns/op  %g cpu-ns/op  100 B/op  3 allocs/op\n", name, ns, ns/2)
	}
}

func TestRatioPairsPasses(t *testing.T) {
	var b strings.Builder
	// The load doubles in the second pass: per-pass ratios stay 2.
	pass(&b, map[string]float64{"typed-apply/ours": 200, "typed-apply/floor": 100})
	pass(&b, map[string]float64{"typed-apply/ours": 400, "typed-apply/floor": 200})
	pass(&b, map[string]float64{"typed-apply/ours": 800, "typed-apply/floor": 400})
	rs, err := parseRuns(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if got := rs.ratio("typed-apply/ours", "typed-apply/floor", "ns/op"); got != 2 {
		t.Errorf("ratio = %v, want 2", got)
	}
	if got := rs.median("typed-apply/ours", "cpu-ns/op"); got != 200 {
		t.Errorf("median CPU time = %v, want 200", got)
	}
	if rs.passes() != 3 {
		t.Errorf("passes = %d, want 3", rs.passes())
	}
	if !math.IsNaN(rs.ratio("typed-apply/ours", "typed-apply/k8s", "ns/op")) {
		t.Error("a ratio to a row never measured is not NaN")
	}
}

func TestGrowth(t *testing.T) {
	var b strings.Builder
	pass(&b, map[string]float64{"maplist-apply/n=10000/ours": 1e6, "maplist-apply/n=100000/ours": 1e7 * math.Pow(10, 0.1)})
	rs, err := parseRuns(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if got := rs.growth("maplist-apply", "ours", 10000, 100000, "ns/op"); math.Abs(got-1.1) > 1e-9 {
		t.Errorf("growth = %v, want 1.1", got)
	}
}

func TestTargets(t *testing.T) {
	atMost := vs("x", "r", "ours", "floor", 1.5)
	if !atMost.met(1.5) || atMost.met(1.51) || atMost.met(math.NaN()) {
		t.Error("an at-most target judges wrongly")
	}
	atLeast := faster("y", "r", "k8s", 25)
	if !atLeast.met(25) || atLeast.met(24.9) {
		t.Error("an at-least target judges wrongly")
	}
	under := onePercent(vs("z", "r", "inplace", "apply", 0.01))
	if under.met(1) || !under.met(0.99) {
		t.Error("a strict target judges wrongly")
	}
}

func TestReport(t *testing.T) {
	var b strings.Builder
	pass(&b, map[string]float64{
		"typed-apply/ours": 130, "typed-apply/floor": 100, // met: 1.3x
		"typed-diff/ours": 60, "typed-diff/floor": 100, "typed-diff/k8s": 6000, // 0.6x not met; 100x met
	})
	var out strings.Builder
	if err := report(&out, strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	hasLines(t, out.String(),
		"| typed Apply ≤ 1.3x its floor (DeepCopy + ParsePatch) | 1.30x | **met** | 1.30x | met |",
		"| typed Diff ≤ 0.5x one reflect.DeepEqual walk | 0.60x | **not met** |",
		"| typed Diff: Kubernetes ≥ 25x ours | 100.0x | **met** |",
		"| JSON apply ≤ 1.5x its floor (json.Valid + copy) | – | **not measured** |",
		"| typed Apply (ParsePatch + Apply) | 130 ns | 100 ns | 1.3x | – |",
		"2 of 13 targets met on wall time.",
	)
}

// hasLines fails t for each of wants that out lacks.
func hasLines(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

func TestNoResults(t *testing.T) {
	if err := report(&strings.Builder{}, strings.NewReader("PASS\n")); err == nil {
		t.Error("a report of no results did not fail")
	}
}
