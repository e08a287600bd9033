// Command benchtable reads `go test -bench` output on standard input and
// prints markdown tables comparing typedpatch with Kubernetes'
// strategicpatch and with a bare decode+encode of the same documents.
//
// It expects the naming scheme of the benchmarks in bench/: the last
// element of a name says who ran it,
//
//	.../ours  typedpatch
//	.../k8s   Kubernetes' strategicpatch, same inputs and work
//	.../bare  json.Unmarshal of the inputs into map[string]any and
//	          json.Marshal of the output
//
// Rows pair .../X/ours with .../X/k8s, and with the bare row at .../X or
// at the nearest enclosing level (…/twoway/bare serves …/twoway/json/ours
// and …/twoway/typed/ours). Each figure is the median of the runs of that
// name. Time ratios pair the runs: when two rows have as many samples,
// sample i of each is taken to come from run i, and the ratio is the
// median of the per-run ratios. Go's -count repeats each benchmark back
// to back, so on a machine whose load changes, repeat whole runs instead
// (second example below) to put the two sides of a ratio close together
// in time. A second table gives, for the benchmarks measured at two list
// sizes (n=1000 and n=10000 by default, see -growth), the growth exponent
// log(t(n₂)/t(n₁)) / log(n₂/n₁): 1 is linear, 2 quadratic.
//
// -metric cpu-ns/op compares the CPU time the benchmarks of bench/ report
// besides wall time, steadier on a shared machine. -spread follows each
// paired ratio with the lowest and highest per-run ratio.
//
// Usage, from bench/:
//
//	go test -run XXX -bench . -benchmem -count 5 | go run ./cmd/benchtable
//
//	go test -c -o /tmp/bench.test . &&
//	for i in 1 2 3 4 5; do /tmp/bench.test -test.run XXX -test.bench . -test.benchmem; done |
//		go run ./cmd/benchtable
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

func main() {
	growth := flag.String("growth", "1000,10000", "the two list sizes `n1,n2` the growth exponent compares")
	spread := flag.Bool("spread", false, "follow each paired time ratio with the range of its per-run ratios")
	metric := flag.String("metric", "ns/op", "the time `unit` to compare: ns/op (wall) or cpu-ns/op (process CPU time)")
	flag.Parse()
	n1, n2, err := parseGrowth(*growth)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(2)
	}
	results, err := parse(os.Stdin, *metric)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	if len(results.order) == 0 {
		fmt.Fprintln(os.Stderr, "benchtable: no benchmark results on standard input")
		os.Exit(1)
	}
	if err := write(os.Stdout, results, options{n1: n1, n2: n2, spread: *spread, metric: *metric}); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func parseGrowth(s string) (n1, n2 int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if ok {
		n1, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			n2, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || n1 <= 0 || n2 <= n1 {
		return 0, 0, fmt.Errorf("-growth %q: want two sizes n1,n2 with 0 < n1 < n2", s)
	}
	return n1, n2, nil
}

// sample is one result line's measurements; a missing metric is NaN. ns
// is the time metric chosen (-metric).
type sample struct {
	ns, bytes, allocs float64
}

// results holds every sample by benchmark name (without the GOMAXPROCS
// suffix), and the names in the order they first appeared.
type results struct {
	samples map[string][]sample
	order   []string
}

// parse reads `go test -bench` output, taking the time from the metric
// named timeUnit; lines that are not results, or lack that metric, are
// skipped.
func parse(r io.Reader, timeUnit string) (*results, error) {
	lines, err := benchfmt.Parse(r)
	res := &results{samples: map[string][]sample{}}
	for _, l := range lines {
		s := sample{ns: l.Value(timeUnit), bytes: l.Value("B/op"), allocs: l.Value("allocs/op")}
		if math.IsNaN(s.ns) {
			continue
		}
		if _, seen := res.samples[l.Name]; !seen {
			res.order = append(res.order, l.Name)
		}
		res.samples[l.Name] = append(res.samples[l.Name], s)
	}
	return res, err
}

// medianOf returns the median of vs, ignoring NaNs; NaN if none is left.
func medianOf(vs []float64) float64 { return benchfmt.Median(vs) }

// span is a ratio and, when it pairs runs, the lowest and highest of the
// per-run ratios (NaN otherwise).
type span struct{ mid, lo, hi float64 }

// timeRatio returns t(a)/t(b). When both names have the same number of
// samples, sample i of each comes from run i (see the package comment)
// and the ratio is the median of the per-run ratios, which a change of
// the machine's load between runs does not skew; otherwise it is the
// ratio of the medians.
func (r *results) timeRatio(a, b string) span {
	nan := math.NaN()
	sa, sb := r.samples[a], r.samples[b]
	if len(sa) == 0 || len(sb) == 0 {
		return span{nan, nan, nan}
	}
	if rs := benchfmt.PairedRatios(times(sa), times(sb)); rs != nil {
		return span{medianOf(rs), slices.Min(rs), slices.Max(rs)}
	}
	ma, _, _ := r.median(a)
	mb, _, _ := r.median(b)
	return span{ma.ns / mb.ns, nan, nan}
}

// times returns the samples' times.
func times(ss []sample) []float64 {
	ts := make([]float64, len(ss))
	for i, s := range ss {
		ts[i] = s.ns
	}
	return ts
}

// median returns the median of each metric over a name's samples.
func (r *results) median(name string) (sample, int, bool) {
	ss := r.samples[name]
	if len(ss) == 0 {
		return sample{}, 0, false
	}
	pick := func(f func(sample) float64) float64 {
		vs := make([]float64, len(ss))
		for i, s := range ss {
			vs[i] = f(s)
		}
		return medianOf(vs)
	}
	return sample{
		ns:     pick(func(s sample) float64 { return s.ns }),
		bytes:  pick(func(s sample) float64 { return s.bytes }),
		allocs: pick(func(s sample) float64 { return s.allocs }),
	}, len(ss), true
}

// split returns a name's key (without the implementation) and its
// implementation, or ok false when the last element names none.
func split(name string) (key, impl string, ok bool) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return "", "", false
	}
	switch impl = name[i+1:]; impl {
	case "ours", "k8s", "bare":
		return name[:i], impl, true
	}
	return "", "", false
}

// bareFor returns the name of the bare row serving key: at key or at the
// nearest enclosing level.
func (r *results) bareFor(key string) (string, bool) {
	for k := key; ; {
		if _, ok := r.samples[k+"/bare"]; ok {
			return k + "/bare", true
		}
		i := strings.LastIndexByte(k, '/')
		if i < 0 {
			return "", false
		}
		k = k[:i]
	}
}

// sizeRE finds the list-size element of a name.
var sizeRE = regexp.MustCompile(`(^|/)n=(\d+)(/|$)`)
