package benchfmt

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in := `goos: linux
BenchmarkX/a/ours-2   	    1000	      2500 ns/op	      1800 cpu-ns/op	     512 B/op	       7 allocs/op
BenchmarkX/a/k8s      	      10	    900000 ns/op
PASS
`
	lines, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2", len(lines))
	}
	if l := lines[0]; l.Name != "BenchmarkX/a/ours" || l.Value("ns/op") != 2500 || l.Value("cpu-ns/op") != 1800 || l.Value("allocs/op") != 7 {
		t.Errorf("first line: %+v", l)
	}
	if l := lines[1]; l.Name != "BenchmarkX/a/k8s" || !math.IsNaN(l.Value("allocs/op")) {
		t.Errorf("second line: %+v", l)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{math.NaN(), 5}, 5},
	} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if !math.IsNaN(Median([]float64{math.NaN()})) {
		t.Error("Median of no number is not NaN")
	}
}

func TestPairedRatios(t *testing.T) {
	if got := PairedRatios([]float64{2, 9}, []float64{1, 3}); len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("PairedRatios = %v, want [2 3]", got)
	}
	if got := PairedRatios([]float64{2, 9}, []float64{1}); got != nil {
		t.Errorf("PairedRatios of unequal counts = %v, want nil", got)
	}
	if got := Exponent(100, 1000, 10000); got != 2 {
		t.Errorf("Exponent(100, 1000, 10000) = %v, want 2", got)
	}
}

func TestDuration(t *testing.T) {
	for ns, want := range map[float64]string{12: "12 ns", 4567: "4.57 µs", 2.5e6: "2.5 ms", 7.81e9: "7.81 s", math.NaN(): "–"} {
		if got := Duration(ns, "–"); got != want {
			t.Errorf("Duration(%v) = %q, want %q", ns, got, want)
		}
	}
}

func ExampleParse() {
	lines, _ := Parse(strings.NewReader("BenchmarkA/ours-2  100  2500 ns/op  7 allocs/op\n"))
	fmt.Println(lines[0].Name, lines[0].Value("ns/op"), lines[0].Value("allocs/op"))
	// Output: BenchmarkA/ours 2500 7
}

func TestParseInstr(t *testing.T) {
	in := "BenchmarkTargets/typed-apply/ours\t610132\t4.1906%\t2\t32\t66992\t451\t19\t597348.3,622916.6\t1240448713\n\n" +
		"BenchmarkMapList/apply/n=10/k8s\t12345.5\t0.0000%\t2\t7\t100\t3\t4\t12345.5\t99\n"
	lines, err := ParseInstr(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2", len(lines))
	}
	if l := lines[0]; l.Name != "BenchmarkTargets/typed-apply/ours" || l.Value(Instructions) != 610132 ||
		l.Value("B/op") != 66992 || l.Value("allocs/op") != 451 || !math.IsNaN(l.Value("ns/op")) {
		t.Errorf("first line: %+v", l)
	}
	if l := lines[1]; l.Name != "BenchmarkMapList/apply/n=10/k8s" || l.Value(Instructions) != 12345.5 {
		t.Errorf("second line: %+v", l)
	}
	if !IsInstr([]byte(in)) {
		t.Error("IsInstr does not recognise an instr-bench file")
	}
	goTest := "goos: linux\nBenchmarkX/a/ours-2   \t    1000\t      2500 ns/op\n"
	if IsInstr([]byte(goTest)) {
		t.Error("IsInstr takes go test output for an instr-bench file")
	}
	for _, bad := range []string{
		"BenchmarkX\t12\t0%\n",                 // too few fields
		"BenchmarkX\tmany\t0%\t2\t7\t100\t3\n", // not a number
		"goos: linux\n",                        // go test output
	} {
		if _, err := ParseInstr(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseInstr(%q) did not fail", bad)
		}
	}
}

func TestCount(t *testing.T) {
	for v, want := range map[float64]string{12: "12", 610132: "610 K", 1.565e9: "1.56 G", 2.4e6: "2.4 M", math.NaN(): "–"} {
		if got := Count(v, "–"); got != want {
			t.Errorf("Count(%v) = %q, want %q", v, got, want)
		}
	}
}
