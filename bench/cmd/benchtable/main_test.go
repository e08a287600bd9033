package main

import (
	"math"
	"strings"
	"testing"
)

const input = `goos: linux
goarch: amd64
pkg: github.com/typedpatch/typedpatch/bench
cpu: Intel(R) Xeon(R) Processor
BenchmarkDeployment/containers=10/twoway/json/ours-2   	    1000	    100000 ns/op	   2000 B/op	      50 allocs/op
BenchmarkDeployment/containers=10/twoway/json/ours-2   	    1000	    300000 ns/op	   2000 B/op	      50 allocs/op
BenchmarkDeployment/containers=10/twoway/json/ours-2   	    1000	    120000 ns/op	   2000 B/op	      50 allocs/op
BenchmarkDeployment/containers=10/twoway/json/k8s-2    	     500	    400000 ns/op	   8000 B/op	     200 allocs/op
BenchmarkDeployment/containers=10/twoway/typed/ours-2  	    5000	     20000 ns/op	    500 B/op	      10 allocs/op
BenchmarkDeployment/containers=10/twoway/bare-2        	    1000	    200000 ns/op	   4000 B/op	     100 allocs/op
BenchmarkMapList/apply/n=1000/ours-2                   	     100	   1000000 ns/op	      0 B/op	    1000 allocs/op
BenchmarkMapList/apply/n=1000/k8s-2                    	      10	  10000000 ns/op	      0 B/op	    1000 allocs/op
BenchmarkMapList/apply/n=1000/bare-2                   	     100	    500000 ns/op	      0 B/op	    1000 allocs/op
BenchmarkMapList/apply/n=10000/ours-2                  	      10	  10000000 ns/op	      0 B/op	   10000 allocs/op
BenchmarkMapList/apply/n=10000/k8s-2                   	       1	1000000000 ns/op	      0 B/op	   10000 allocs/op
BenchmarkMapList/apply/n=10000/bare-2                  	      10	   5000000 ns/op	      0 B/op	   10000 allocs/op
BenchmarkUnpaired-2                                    	      10	       100 ns/op
--- FAIL: something unrelated
PASS
ok  	github.com/typedpatch/typedpatch/bench	12.3s
`

func TestParseMedian(t *testing.T) {
	r, err := parse(strings.NewReader(input), "ns/op")
	if err != nil {
		t.Fatal(err)
	}
	s, n, ok := r.median("BenchmarkDeployment/containers=10/twoway/json/ours")
	if !ok || n != 3 {
		t.Fatalf("median: ok %v, %d runs; want 3", ok, n)
	}
	if s.ns != 120000 || s.allocs != 50 || s.bytes != 2000 {
		t.Errorf("median = %+v, want 120000 ns, 2000 B, 50 allocs", s)
	}
	if _, ok := r.samples["BenchmarkUnpaired"]; !ok {
		t.Error("a line without -benchmem columns was dropped")
	}
	if len(r.order) != 11 {
		t.Errorf("%d names, want 11: %q", len(r.order), r.order)
	}
}

func TestRows(t *testing.T) {
	r, _ := parse(strings.NewReader(input), "ns/op")
	rows := r.rows()
	want := []string{
		"BenchmarkDeployment/containers=10/twoway/json",
		"BenchmarkDeployment/containers=10/twoway/typed",
		"BenchmarkMapList/apply/n=1000",
		"BenchmarkMapList/apply/n=10000",
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, w := range want {
		if rows[i].key != w {
			t.Errorf("row %d = %s, want %s", i, rows[i].key, w)
		}
	}
	// The typed row has no k8s counterpart but shares the bare row one
	// level up.
	if typed := rows[1]; typed.hasK8s || !typed.hasBare || typed.bare.ns != 200000 {
		t.Errorf("typed row: %+v", typed)
	}
}

func TestPairedRatio(t *testing.T) {
	const in = `
BenchmarkX/op/ours-2   1   100 ns/op
BenchmarkX/op/bare-2   1   100 ns/op
BenchmarkX/op/ours-2   1   200 ns/op
BenchmarkX/op/bare-2   1   100 ns/op
BenchmarkX/op/ours-2   1   400 ns/op
BenchmarkX/op/bare-2   1   400 ns/op
`
	r, _ := parse(strings.NewReader(in), "ns/op")
	// Per run: 1, 2, 1. The ratio of the medians would say 2.
	if got := r.timeRatio("BenchmarkX/op/ours", "BenchmarkX/op/bare"); got != (span{1, 1, 2}) {
		t.Errorf("paired ratio = %+v, want 1 in [1, 2]", got)
	}
	rows := r.rows()
	if len(rows) != 1 || rows[0].bareTime.mid != 1 || rows[0].ours.ns != 200 {
		t.Errorf("rows = %+v", rows)
	}
	var b strings.Builder
	if err := write(&b, r, options{n1: 1000, n2: 10000, spread: true}); err != nil {
		t.Fatal(err)
	}
	if want := "| BenchmarkX/op | 200 ns | – | 100 ns | – | 1.00x (1.00–2.00x) |"; !strings.Contains(b.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, b.String())
	}
}

func TestMetric(t *testing.T) {
	const in = `
BenchmarkX/op/ours-2   10   300 ns/op   100 cpu-ns/op   5 B/op   1 allocs/op
BenchmarkX/op/k8s-2    10   900 ns/op   400 cpu-ns/op   5 B/op   2 allocs/op
BenchmarkY/op/ours-2   10   300 ns/op
`
	r, _ := parse(strings.NewReader(in), "cpu-ns/op")
	if got := r.timeRatio("BenchmarkX/op/ours", "BenchmarkX/op/k8s").mid; got != 0.25 {
		t.Errorf("cpu ratio = %v, want 0.25", got)
	}
	if _, ok := r.samples["BenchmarkY/op/ours"]; ok {
		t.Error("a line without the metric was kept")
	}
}

func TestGrowth(t *testing.T) {
	r, _ := parse(strings.NewReader(input), "ns/op")
	g := r.growth(1000, 10000)
	if len(g) != 1 || g[0].key != "BenchmarkMapList/apply" {
		t.Fatalf("growth rows: %+v", g)
	}
	for impl, want := range map[string]float64{"ours": 1, "k8s": 2, "bare": 1} {
		if got := g[0].exp[impl]; math.Abs(got-want) > 1e-9 {
			t.Errorf("%s exponent = %v, want %v", impl, got, want)
		}
	}
}

func TestWrite(t *testing.T) {
	r, _ := parse(strings.NewReader(input), "ns/op")
	var b strings.Builder
	if err := write(&b, r, options{n1: 1000, n2: 10000}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, line := range []string{
		"| BenchmarkDeployment/containers=10/twoway/json | 120 µs | 400 µs | 200 µs | 0.30x | 0.60x | 50 | 0.25x | 0.50x |",
		"| BenchmarkDeployment/containers=10/twoway/typed | 20 µs | – | 200 µs | – | 0.10x | 10 | – | 0.10x |",
		"| BenchmarkMapList/apply/n=10000 | 10 ms | 1 s | 5 ms | 0.01x | 2.00x | 10000 | 1.00x | 1.00x |",
		"| BenchmarkMapList/apply/n=1000 | 1 ms | 10 ms | 500 µs | 0.10x | 2.00x | 1000 | 1.00x | 1.00x |",
		"over 1 to 3 runs",
		"| BenchmarkMapList/apply | 1.00 | 2.00 | 1.00 |",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{ratio(1, 480), "0.0021x"},
		{ratio(1, 104), "0.0096x"},
		{ratio(1, 10), "0.10x"},
		{ratio(3, 2), "1.50x"},
		{ratio(250, 2), "125x"},
		{ratio(1, 0), "?"},
		{duration(1234), "1.23 µs"},
		{duration(3.46e9), "3.46 s"},
		{duration(999), "999 ns"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if _, _, err := parseGrowth("10000,1000"); err == nil {
		t.Error("parseGrowth accepted n2 < n1")
	}
	if a, b, err := parseGrowth("100, 1000"); err != nil || a != 100 || b != 1000 {
		t.Errorf("parseGrowth = %d, %d, %v", a, b, err)
	}
}
