package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTSV writes an instr-bench results file of name → instructions/op.
func writeTSV(t *testing.T, rows [][2]any) string {
	t.Helper()
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s\t%v\t0.1000%%\t2\t7\t100\t3\t9\t%v\t1000\n", r[0], r[1], r[1])
	}
	f := filepath.Join(t.TempDir(), "r.tsv")
	if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestInstrReport(t *testing.T) {
	targetsRun := writeTSV(t, [][2]any{
		{"BenchmarkTargets/typed-apply/ours", 260000}, // 1.30x: met
		{"BenchmarkTargets/typed-apply/floor", 200000},
		{"BenchmarkTargets/typed-apply/inplace", 120000}, // 0.6x: not met
		{"BenchmarkTargets/typed-diff/ours", 100000},
		{"BenchmarkTargets/typed-diff/k8s", 2400000}, // 24x: not met
		{"BenchmarkTargets/maplist-apply/n=10000/ours", 150e6},
		{"BenchmarkTargetsLargeLists/maplist-apply/n=100000/ours", 150e7 * math.Pow(10, 0.05)}, // 1.05: met
	})
	smpRun := writeTSV(t, [][2]any{
		{"BenchmarkApplyInPlaceLarge/inplace", 1000},
		{"BenchmarkApplyInPlaceLarge/apply", 100000}, // exactly 1%: not met
		{"BenchmarkGrowthA/json/n=10000", 1e6},
		{"BenchmarkGrowthA/json/n=100000", 1e7 * math.Pow(10, 0.02)},
		{"BenchmarkGrowthB/typed/n=10000", 1e6},
		{"BenchmarkGrowthB/typed/n=100000", 1e7 * math.Pow(10, 0.08)}, // the largest: 1.08
		{"BenchmarkGrowthC/json/n=10000", 1e6},                        // no 10^5 row: left out
	})
	rs, err := readInstr([]string{targetsRun, smpRun})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := instrReport(&out, rs, nil); err != nil {
		t.Fatal(err)
	}
	hasLines(t, out.String(),
		"| target | instructions/op | measured | verdict |\n",
		"| typed Apply ≤ 1.3x its floor (DeepCopy + ParsePatch) | 260 K / 200 K | 1.30x | **met** |",
		"| typed Diff: Kubernetes ≥ 25x ours | 2.4 M / 100 K | 24.0x | **not met** |",
		"| ApplyInPlace on the Deployment ≤ 0.5x the copying floor | 120 K / 200 K | 0.60x | **not met** |",
		"| one-field ApplyInPlace, 100,000 map entries and list elements, < 1% of Apply | 1 K / 100 K | 1% | **not met** |",
		"| growth exponent of every hostile shape, 10,000 → 100,000, ≤ 1.1 | largest of 2 shapes: B/typed | 1.080 | **met** |",
		"| MapList apply growth exponent, 10,000 → 100,000, ≤ 1.05 | 150 M → 1.68 G | 1.050 | **met** |",
		"| JSON apply ≤ 1.5x its floor (json.Valid + copy) | – / – | – | **not measured** |",
		"3 of 13 targets met in instructions per operation; 7 not measured.",
	)
	if strings.Contains(out.String(), "wall time") {
		t.Error("a wall-time column without a wall-time run")
	}

	// With a saved run, its wall time stands beside each target.
	var b strings.Builder
	pass(&b, map[string]float64{"typed-apply/ours": 300, "typed-apply/floor": 100})
	wall, err := parseRuns(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := instrReport(&out, rs, wall); err != nil {
		t.Fatal(err)
	}
	hasLines(t, out.String(), "| 260 K / 200 K | 1.30x | **met** | 3.00x |")
}

func TestReadInstrErrors(t *testing.T) {
	if _, err := readInstr(nil); err == nil {
		t.Error("no files: no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.tsv")
	if err := os.WriteFile(bad, []byte("BenchmarkTargets/x/ours 12 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readInstr([]string{bad}); err == nil || !strings.Contains(err.Error(), "bad.tsv") {
		t.Errorf("go test output as an instr-bench file: error %v, want one naming the file", err)
	}
}
