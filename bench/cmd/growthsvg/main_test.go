package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

var update = flag.Bool("update", false, "rewrite the golden SVG under testdata/")

var applyRows = config{bench: "BenchmarkMapList", op: "apply", unit: "ns/op"}

// TestGolden draws testdata/small.tsv and compares the picture with the
// reviewed one; go test -run Golden -update rewrites it.
func TestGolden(t *testing.T) {
	in, err := os.ReadFile("testdata/small.tsv")
	if err != nil {
		t.Fatal(err)
	}
	c := applyRows
	c.note = "Kubernetes <at n = 100> & RFC 7386"
	var got bytes.Buffer
	if err := draw(&got, c, [][]byte{in}); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := draw(&again, c, [][]byte{in}); err != nil || !bytes.Equal(got.Bytes(), again.Bytes()) {
		t.Fatalf("two drawings of the same input differ (err %v)", err)
	}
	if *update {
		if err := os.WriteFile("testdata/small.svg", got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/small.svg")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("the picture differs from testdata/small.svg (go test -run Golden -update after checking it):\n%s", got.String())
	}
	for _, want := range []string{
		"Kubernetes &lt;at n = 100&gt; &amp; RFC 7386", // the note, escaped
		">instructions/op</text>",                      // the unit of an instr-bench file
		">typedpatch</text>", ">Kubernetes strategicpatch</text>", ">RFC 7386 (evanphx/json-patch)</text>", ">bare decode + encode (floor)</text>",
	} {
		if !strings.Contains(got.String(), want) {
			t.Errorf("the picture lacks %q", want)
		}
	}
	if n := strings.Count(got.String(), "<polyline"); n != 4 {
		t.Errorf("%d polylines, want one per implementation: 4 (the twoway row is not drawn)", n)
	}
}

func TestCollectInstr(t *testing.T) {
	m := smallRun(t)
	if m.unit != benchfmt.Instructions {
		t.Errorf("unit %q, want %q", m.unit, benchfmt.Instructions)
	}
	var order []string
	for _, s := range m.series {
		order = append(order, s.impl)
	}
	if got := strings.Join(order, " "); got != "ours k8s rfc7386 bare" {
		t.Errorf("series %q, want the legend's order: ours k8s rfc7386 bare", got)
	}
	if k8s := m.series[1].points; len(k8s) != 2 || k8s[0] != (point{10, 20000}) || k8s[1] != (point{100, 2000000}) {
		t.Errorf("k8s points %v", k8s)
	}
}

func TestCollectGoTest(t *testing.T) {
	// Three runs of two sizes, printed out of order; the median counts.
	in := `goos: linux
BenchmarkMapList/apply/n=100/ours-2   	 100	 9000 ns/op	 8000 cpu-ns/op
BenchmarkMapList/apply/n=10/ours-2    	1000	 1200 ns/op	 1000 cpu-ns/op
BenchmarkMapList/apply/n=100/ours-2   	 100	11000 ns/op	 9000 cpu-ns/op
BenchmarkMapList/apply/n=10/ours-2    	1000	  900 ns/op	 1100 cpu-ns/op
BenchmarkMapList/apply/n=10/ours-2    	1000	 1000 ns/op	 1200 cpu-ns/op
BenchmarkMapList/apply/n=100/ours-2   	 100	10000 ns/op	10000 cpu-ns/op
BenchmarkMapList/applyorder/n=10/ours-2	1000	 5000 ns/op
PASS
`
	for unit, want := range map[string][]point{
		"ns/op":     {{10, 1000}, {100, 10000}},
		"cpu-ns/op": {{10, 1100}, {100, 9000}},
	} {
		c := applyRows
		c.unit = unit
		m, err := collect(c, [][]byte{[]byte(in)})
		if err != nil {
			t.Fatal(err)
		}
		if m.unit != unit || len(m.series) != 1 || len(m.series[0].points) != 2 ||
			m.series[0].points[0] != want[0] || m.series[0].points[1] != want[1] {
			t.Errorf("%s: got %+v, want ours at %v", unit, m, want)
		}
	}
}

func TestCollectErrors(t *testing.T) {
	instr := []byte("BenchmarkMapList/apply/n=10/ours\t100\t0%\t2\t7\t1\t1\t1\t1\t1\n")
	goTest := []byte("BenchmarkMapList/apply/n=10/ours-2 10 100 ns/op\n")
	for name, inputs := range map[string][][]byte{
		"no rows":        {[]byte("BenchmarkOther/apply/n=10/ours\t100\t0%\t2\t7\t1\t1\t1\t1\t1\n")},
		"units mixed":    {instr, goTest},
		"bad TSV":        {[]byte("BenchmarkMapList/apply/n=10/ours\tmany\t0%\t2\t7\t1\t1\t1\t1\t1\n")},
		"no cost in ns":  {[]byte("BenchmarkMapList/apply/n=10/ours-2 10 100 B/op\n")},
		"zero on a log":  {[]byte("BenchmarkMapList/apply/n=10/ours\t0\t0%\t2\t7\t1\t1\t1\t1\t1\n")},
		"nothing at all": {nil},
	} {
		if _, err := collect(applyRows, inputs); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestAxis(t *testing.T) {
	// Four decades over 400 pixels: 100 a decade.
	x := logAxis{lo: 10, hi: 1e5, p0: 100, p1: 500}
	for v, want := range map[float64]float64{10: 100, 100: 200, 1e5: 500, 1000 * math.Sqrt(10): 350} {
		if got := x.pos(v); math.Abs(got-want) > 1e-9 {
			t.Errorf("pos(%g) = %g, want %g", v, got, want)
		}
	}
	// A y axis runs upwards: larger values, smaller pixels.
	y := logAxis{lo: 1e3, hi: 1e6, p0: 400, p1: 100}
	if got := y.pos(1e4); math.Abs(got-300) > 1e-9 {
		t.Errorf("y.pos(1e4) = %g, want 300", got)
	}
	if got := y.perDecade(); got != -100 {
		t.Errorf("perDecade = %g, want -100", got)
	}
	if got := (logAxis{lo: 5, hi: 2e4}).decades(); len(got) != 4 || got[0] != 10 || got[3] != 1e4 {
		t.Errorf("decades of [5, 2e4] = %v, want 10 … 1e4", got)
	}
	lo, hi := span(10, 1e4, 0.15)
	if math.Abs(math.Log10(lo)-0.85) > 1e-9 || math.Abs(math.Log10(hi)-4.15) > 1e-9 {
		t.Errorf("span(10, 1e4) = %g, %g: want 0.15 decades of room", lo, hi)
	}
	if lo, _ := span(20, 50, 0.1); lo != 10 {
		t.Errorf("span(20, 50) starts at %g, want 10: an axis needs a power of ten", lo)
	}
	for v, want := range map[float64]string{1: "1", 10: "10", 1000: "1k", 1e5: "100k", 1e9: "1G", 1e15: "1e15"} {
		if got := decadeLabel(v); got != want {
			t.Errorf("decadeLabel(%g) = %q, want %q", v, got, want)
		}
	}
}

func TestKnownPointLands(t *testing.T) {
	ch := smallChart(t)
	// ours at n = 100 costs 300,000: its marker is where the axes,
	// computed here from the layout, put it.
	decadesX := math.Log10(ch.x.hi) - math.Log10(ch.x.lo)
	decadesY := math.Log10(ch.y.hi) - math.Log10(ch.y.lo)
	wantX := plotLeft + (2-math.Log10(ch.x.lo))/decadesX*(plotRight-plotLeft)
	wantY := plotBottom - (math.Log10(300000)-math.Log10(ch.y.lo))/decadesY*(plotBottom-plotTop)
	var svg bytes.Buffer
	if err := writeSVG(&svg, ch); err != nil {
		t.Fatal(err)
	}
	marker := `<circle cx="` + format1(wantX) + `" cy="` + format1(wantY) + `"`
	if !strings.Contains(svg.String(), marker) {
		t.Errorf("no marker %s… in\n%s", marker, svg.String())
	}
	// Every point lies inside the plot.
	for _, s := range ch.series {
		for _, p := range s.points {
			if x, y := ch.x.pos(p.n), ch.y.pos(p.cost); x < plotLeft || x > plotRight || y < plotTop || y > plotBottom {
				t.Errorf("%s at n = %g lands outside the plot: (%g, %g)", s.impl, p.n, x, y)
			}
		}
	}
}

func TestSlopes(t *testing.T) {
	ch := smallChart(t)
	if len(ch.slopes) != 2 {
		t.Fatalf("%d reference lines, want 2", len(ch.slopes))
	}
	for i, s := range ch.slopes {
		k := float64(i + 1)
		// In values: the line grows as n^k.
		if got := math.Log10(s.c1/s.c0) / math.Log10(s.n1/s.n0); math.Abs(got-k) > 1e-9 {
			t.Errorf("line %d grows as n^%g", i+1, got)
		}
		// In pixels: its slope is k times the ratio of the axes' decades.
		dx, dy := ch.x.pos(s.n1)-ch.x.pos(s.n0), ch.y.pos(s.c1)-ch.y.pos(s.c0)
		if want := k * ch.y.perDecade() / ch.x.perDecade(); math.Abs(dy/dx-want) > 1e-9 {
			t.Errorf("line %d: pixel slope %g, want %g", i+1, dy/dx, want)
		}
		// It starts at the shortest list, a quarter below the cheapest
		// cost there (bare, 15,000), and ends on the plot's edge.
		if s.n0 != 10 || math.Abs(s.c0-15000/referenceBelow) > 1e-9 {
			t.Errorf("line %d starts at (%g, %g)", i+1, s.n0, s.c0)
		}
		if !(math.Abs(s.n1-ch.x.hi) < 1e-9*s.n1 || math.Abs(s.c1-ch.y.hi) < 1e-9*s.c1) {
			t.Errorf("line %d ends at (%g, %g), inside the plot (%g, %g)", i+1, s.n1, s.c1, ch.x.hi, ch.y.hi)
		}
		if s.n1 > ch.x.hi*(1+1e-9) || s.c1 > ch.y.hi*(1+1e-9) {
			t.Errorf("line %d leaves the plot: ends at (%g, %g)", i+1, s.n1, s.c1)
		}
	}
}

// format1 prints a number as the picture does.
func format1(v float64) string { return fmt.Sprintf("%.1f", v) }

// smallRun is testdata/small.tsv's apply rows.
func smallRun(t *testing.T) measured {
	t.Helper()
	in, err := os.ReadFile("testdata/small.tsv")
	if err != nil {
		t.Fatal(err)
	}
	m, err := collect(applyRows, [][]byte{in})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// smallChart is the chart of smallRun.
func smallChart(t *testing.T) chart {
	t.Helper()
	return newChart(applyRows, smallRun(t))
}
