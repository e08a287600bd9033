package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

// Writing the tables: rows, growth exponents, and how numbers print.

// row is one line of the ratio table.
type row struct {
	key              string
	ours, k8s, bare  sample
	hasK8s, hasBare  bool
	k8sTime          span // t(ours)/t(k8s), see timeRatio
	bareTime         span // t(ours)/t(bare)
	minRuns, maxRuns int
}

func (r *results) rows() []row {
	var out []row
	for _, name := range r.order {
		key, impl, ok := split(name)
		if !ok || impl != "ours" {
			continue
		}
		w := row{key: key}
		var n int
		w.ours, n, _ = r.median(name)
		w.minRuns, w.maxRuns = n, n
		note := func(n int) {
			w.minRuns, w.maxRuns = min(w.minRuns, n), max(w.maxRuns, n)
		}
		if w.k8s, n, w.hasK8s = r.median(key + "/k8s"); w.hasK8s {
			w.k8sTime = r.timeRatio(name, key+"/k8s")
			note(n)
		}
		if b, ok := r.bareFor(key); ok {
			w.bare, n, w.hasBare = r.median(b)
			w.bareTime = r.timeRatio(name, b)
			note(n)
		}
		out = append(out, w)
	}
	return out
}

// growthRow is one line of the growth table.
type growthRow struct {
	key string // the name without the size and the implementation
	exp map[string]float64
}

// growth returns the exponents for every name measured at n1 and n2.
func (r *results) growth(n1, n2 int) []growthRow {
	var out []growthRow
	seen := map[string]int{}
	for _, name := range r.order {
		key, impl, ok := split(name)
		if !ok {
			continue
		}
		loc := sizeRE.FindStringSubmatchIndex(key)
		if loc == nil || key[loc[4]:loc[5]] != strconv.Itoa(n2) {
			continue
		}
		small := key[:loc[4]] + strconv.Itoa(n1) + key[loc[5]:]
		q := r.timeRatio(name, small+"/"+impl).mid
		if math.IsNaN(q) || q <= 0 {
			continue
		}
		i, ok := seen[key]
		if !ok {
			i = len(out)
			seen[key] = i
			out = append(out, growthRow{key: withoutSize(key), exp: map[string]float64{}})
		}
		out[i].exp[impl] = benchfmt.Exponent(q, n1, n2)
	}
	return out
}

// withoutSize drops the n=N element of a name.
func withoutSize(key string) string {
	parts := strings.Split(key, "/")
	parts = slices.DeleteFunc(parts, func(p string) bool { return sizeRE.MatchString(p) })
	return strings.Join(parts, "/")
}

// options are the command's flags.
type options struct {
	n1, n2 int    // the sizes of the growth exponent
	spread bool   // print the range of paired ratios
	metric string // the time unit, for the legend
}

// write prints both tables.
func write(w io.Writer, r *results, o options) error {
	n1, n2 := o.n1, o.n2
	spanText := func(s span) string {
		t := ratioText(s.mid)
		if o.spread && !math.IsNaN(s.lo) {
			t += " (" + strings.TrimSuffix(ratioText(s.lo), "x") + "–" + ratioText(s.hi) + ")"
		}
		return t
	}
	bw := bufio.NewWriter(w)
	rows := r.rows()
	fmt.Fprintln(bw, "| benchmark | ours | k8s | bare | ours/k8s time | ours/bare time | ours allocs | ours/k8s allocs | ours/bare allocs |")
	fmt.Fprintln(bw, "|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	minRuns, maxRuns := math.MaxInt, 0
	for _, x := range rows {
		k8sT, k8sTR, k8sAR := "–", "–", "–"
		if x.hasK8s {
			k8sT, k8sTR, k8sAR = duration(x.k8s.ns), spanText(x.k8sTime), ratio(x.ours.allocs, x.k8s.allocs)
		}
		bareT, bareTR, bareAR := "–", "–", "–"
		if x.hasBare {
			bareT, bareTR, bareAR = duration(x.bare.ns), spanText(x.bareTime), ratio(x.ours.allocs, x.bare.allocs)
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			x.key, duration(x.ours.ns), k8sT, bareT, k8sTR, bareTR, count(x.ours.allocs), k8sAR, bareAR)
		minRuns, maxRuns = min(minRuns, x.minRuns), max(maxRuns, x.maxRuns)
	}
	if len(rows) > 0 {
		runs := strconv.Itoa(minRuns)
		if maxRuns != minRuns {
			runs = fmt.Sprintf("%d to %d", minRuns, maxRuns)
		}
		fmt.Fprintf(bw, "\nTimes (%s) are medians per operation over %s runs of each benchmark; time ratios are medians of the per-run ratios when both rows have as many runs. A ratio below 1 means ours is faster or allocates less.\n", o.metric, runs)
	}

	if g := r.growth(n1, n2); len(g) > 0 {
		fmt.Fprintf(bw, "\nGrowth exponent log(t(%d)/t(%d)) / log(%d/%d): 1 is linear, 2 quadratic.\n\n", n2, n1, n2, n1)
		fmt.Fprintln(bw, "| benchmark | ours | k8s | bare |")
		fmt.Fprintln(bw, "|---|--:|--:|--:|")
		for _, x := range g {
			cell := func(impl string) string {
				if e, ok := x.exp[impl]; ok {
					return strconv.FormatFloat(e, 'f', 2, 64)
				}
				return "–"
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", x.key, cell("ours"), cell("k8s"), cell("bare"))
		}
	}
	return bw.Flush()
}

// duration formats nanoseconds: benchfmt.Duration.
func duration(ns float64) string { return benchfmt.Duration(ns, "?") }

// ratio formats a/b as a factor, e.g. 0.52x.
func ratio(a, b float64) string {
	if b == 0 {
		return "?"
	}
	return ratioText(a / b)
}

// ratioText formats a factor: 0.52x.
func ratioText(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "?"
	}
	if r >= 10 {
		return fmt.Sprintf("%.0fx", r)
	}
	if r >= 0.1 {
		return fmt.Sprintf("%.2fx", r)
	}
	return fmt.Sprintf("%.2gx", r)
}

// count formats an allocation count.
func count(v float64) string {
	if math.IsNaN(v) {
		return "?"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
