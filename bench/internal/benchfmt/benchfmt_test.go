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
