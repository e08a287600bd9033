package smp_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// Growth benchmarks: each hostile input shape at n = 10^4 and 10^5.
// t is the process's CPU time per operation (cpu-ns/op, all threads,
// garbage collection included), which other load on a shared machine
// disturbs less than wall time; wall time where it is unknown.
//
// The n=100000 row reports the growth exponent log(t(10^5)/t(10^4)) /
// log(10) as growth-exp (1 is linear, 2 quadratic). Unless the benchmark
// time is 1x (CI), t is there the least of growthRounds paired rounds,
// each timing ten operations at 10^4 and one at 10^5 back to back, so
// that a pause of the machine does not pass for growth. Each shape has a
// floor: work any implementation must do on the same input (decoding and
// encoding it; indexing n keys in a hash map), measured the same way, as
// floor-exp; excess-exp is growth-exp - floor-exp, the growth of ours
// that the machine does not explain (maps of 10^5 entries outgrow the
// caches: building one grows as n^1.3 or more on a 2-core VM). Run them
// with
//
//	go test ./smp/ -run XXX -bench Growth -benchmem -benchtime 0.3s -count 1
//
// In instructions (docs/benchmarks.md), the exponent is that of the two
// rows' instructions per operation; TYPEDPATCH_GROWTH=instructions leaves
// out the paired timing rounds, which only cost time under valgrind.

// growthSizes are the two sizes each shape is measured at.
var growthSizes = [2]int{10_000, 100_000}

// growthRounds is the number of paired rounds behind growth-exp.
const growthRounds = 3

// growthTimes holds each shape's time per operation at the smaller size.
var growthTimes sync.Map

// growthShape is an operation at size n and its floor; making them is
// not timed.
type growthShape struct {
	setup, floor sizeFunc
}

// benchGrowth runs the operation setup makes for each size at both
// sizes; the larger reports the growth exponents.
func benchGrowth(b *testing.B, setup, floor sizeFunc) {
	sh := growthShape{setup: setup, floor: floor}
	for i, n := range growthSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			op := sh.setup(b, n)
			if err := op(); err != nil { // also checks the shape is accepted
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			cpu0, cpuOK := processCPU()
			for range b.N {
				if err := op(); err != nil {
					b.Fatal(err)
				}
			}
			per := float64(time.Since(start)) / float64(b.N)
			if cpu1, ok := processCPU(); ok && cpuOK {
				per = float64(cpu1-cpu0) / float64(b.N)
				b.ReportMetric(per, "cpu-ns/op")
			}
			if i == 0 {
				growthTimes.Store(b.Name(), per)
				return
			}
			b.StopTimer()
			if oneIteration() || os.Getenv("TYPEDPATCH_GROWTH") == "instructions" {
				small := strings.Replace(b.Name(), fmt.Sprintf("n=%d", n), fmt.Sprintf("n=%d", growthSizes[0]), 1)
				if t1, ok := growthTimes.Load(small); ok {
					b.ReportMetric(growthExp(t1.(float64), per), "growth-exp")
				}
				return
			}
			exp := pairedGrowth(b, sh.setup(b, growthSizes[0]), op)
			b.ReportMetric(exp, "growth-exp")
			if sh.floor != nil {
				fexp := pairedGrowth(b, sh.floor(b, growthSizes[0]), sh.floor(b, n))
				b.ReportMetric(fexp, "floor-exp")
				b.ReportMetric(exp-fexp, "excess-exp")
			}
		})
	}
}

// oneIteration reports whether the benchmarks run once each (-benchtime
// 1x), as CI runs them.
func oneIteration() bool {
	f := flag.Lookup("test.benchtime")
	return f != nil && f.Value.String() == "1x"
}

// growthExp is the exponent of growth from t1 at 10^4 to t2 at 10^5.
func growthExp(t1, t2 float64) float64 {
	return math.Log(t2/t1) / math.Log(float64(growthSizes[1])/float64(growthSizes[0]))
}

// pairedGrowth times small (ten runs) and large (one run) back to back,
// growthRounds times, and returns the growth exponent of the least time
// of each.
func pairedGrowth(b *testing.B, small, large func() error) float64 {
	reps := growthSizes[1] / growthSizes[0]
	best := [2]float64{math.Inf(1), math.Inf(1)}
	for range growthRounds {
		for j, run := range [2]struct {
			op func() error
			n  int
		}{{small, reps}, {large, 1}} {
			runtime.GC()
			start := time.Now()
			cpu0, cpuOK := processCPU()
			for range run.n {
				if err := run.op(); err != nil {
					b.Fatal(err)
				}
			}
			t := float64(time.Since(start))
			if cpu1, ok := processCPU(); ok && cpuOK {
				t = float64(cpu1 - cpu0)
			}
			best[j] = min(best[j], t/float64(run.n))
		}
	}
	return growthExp(best[0], best[1])
}

func mustJSON(tb testing.TB, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// sizeFunc makes a shape's operation, or its floor, at size n.
type sizeFunc = func(b *testing.B, n int) func() error

// floorJSON is the floor of an operation on the JSON documents docs(n)
// makes: decoding each with encoding/json and encoding the first.
func floorJSON(docs func(b *testing.B, n int) [][]byte) sizeFunc {
	return func(b *testing.B, n int) func() error {
		in := docs(b, n)
		return func() error {
			var first any
			for i, d := range in {
				var v any
				if err := json.Unmarshal(d, &v); err != nil {
					return err
				}
				if i == 0 {
					first = v
				}
			}
			_, err := json.Marshal(first)
			return err
		}
	}
}

// floorKeys is the floor of an operation on maps or keyed lists of n in
// each of inputs values: indexing each one's n keys in a hash map.
func floorKeys(inputs int) sizeFunc {
	return func(b *testing.B, n int) func() error {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("example.com/key-%d", i)
		}
		return func() error {
			for range inputs {
				m := make(map[string]int, len(keys))
				for i, k := range keys {
					m[k] = i
				}
				if len(m) != len(keys) {
					return fmt.Errorf("%d keys indexed, want %d", len(m), len(keys))
				}
			}
			return nil
		}
	}
}

// floorBoth is the floor of doing both floors' work.
func floorBoth(f, g sizeFunc) sizeFunc {
	return func(b *testing.B, n int) func() error {
		x, y := f(b, n), g(b, n)
		return func() error {
			if err := x(); err != nil {
				return err
			}
			return y()
		}
	}
}

// labelsPatch is a patch object of n keys.
func labelsPatch(n int) map[string]any {
	labels := make(map[string]any, n)
	for i := range n {
		labels[fmt.Sprintf("example.com/label-%d", i)] = fmt.Sprint(i)
	}
	return map[string]any{"metadata": map[string]any{"labels": labels}}
}

// BenchmarkGrowthPatchKeys: one patch object with n keys.
func BenchmarkGrowthPatchKeys(b *testing.B) {
	docs := func(b *testing.B, n int) [][]byte { return [][]byte{mustJSON(b, labelsPatch(n))} }
	b.Run("json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			patch := docs(b, n)[0]
			return func() error {
				_, err := smp.ApplyJSON([]byte(`{"metadata":{"name":"x"}}`), patch, &exampletypes.ConfigMap{})
				return err
			}
		}, floorJSON(docs))
	})
	b.Run("typed", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			patch, err := smp.ParsePatch(docs(b, n)[0])
			if err != nil {
				b.Fatal(err)
			}
			cur := &exampletypes.ConfigMap{}
			return func() error {
				_, err := smp.Apply(cur, patch)
				return err
			}
		}, floorCopy)
	})
}

// floorCopy is the floor of PatchKeys/typed: reading the decoded patch's
// n labels and building the result's map of them.
func floorCopy(b *testing.B, n int) func() error {
	labels := labelsPatch(n)["metadata"].(map[string]any)["labels"].(map[string]any)
	return func() error {
		out := make(map[string]string, len(labels))
		for k, v := range labels {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("label %q is %T", k, v)
			}
			out[k] = s
		}
		return nil
	}
}

// portsDoc is a container whose n ports share containerPort 80 (the
// default key) and differ by protocol.
func portsDoc(n int, protocol string) *exampletypes.Container {
	c := &exampletypes.Container{Name: "app"}
	for i := range n {
		c.Ports = append(c.Ports, exampletypes.ContainerPort{ContainerPort: 80, Protocol: fmt.Sprintf("%s%d", protocol, i)})
	}
	return c
}

// BenchmarkGrowthDeleteMany: one deletion matching every element of a
// list, by a duplicated merge key and by a partial $patchMergeKey.
func BenchmarkGrowthDeleteMany(b *testing.B) {
	dupDocs := func(b *testing.B, n int) [][]byte {
		items := make([]map[string]any, n)
		for i := range items {
			items[i] = map[string]any{"name": "dup", "value": fmt.Sprint(i)}
		}
		return [][]byte{
			mustJSON(b, map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"volumes": items}}}}),
			[]byte(`{"spec":{"template":{"spec":{"volumes":[{"name":"dup","$patch":"delete"}]}}}}`),
		}
	}
	b.Run("duplicates/json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			in := dupDocs(b, n)
			return func() error {
				_, err := smp.ApplyJSON(in[0], in[1], &exampletypes.Deployment{})
				return err
			}
		}, floorBoth(floorJSON(dupDocs), floorKeys(1)))
	})
	const partial = `{"ports":[{"$patch":"delete","$patchMergeKey":["containerPort"],"containerPort":80}]}`
	partialDocs := func(b *testing.B, n int) [][]byte { return [][]byte{mustJSON(b, portsDoc(n, "p")), []byte(partial)} }
	b.Run("partial/json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			in := partialDocs(b, n)
			return func() error {
				_, err := smp.ApplyJSON(in[0], in[1], &exampletypes.Container{})
				return err
			}
		}, floorBoth(floorJSON(partialDocs), floorKeys(1)))
	})
	b.Run("partial/typed", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			cur := portsDoc(n, "p")
			patch, err := smp.ParsePatch([]byte(partial))
			if err != nil {
				b.Fatal(err)
			}
			return func() error {
				_, err := smp.Apply(cur, patch)
				return err
			}
		}, floorKeys(1))
	})
}

// BenchmarkGrowthThreeWayPairing: three-way patches of lists with
// recommended keys whose n elements share one default key. pairing:
// modified's elements against current's (pairElements); rename: the
// original's as well (liveRename); skewsafe: unique default keys under
// WithSkewSafe (survivorShares).
func BenchmarkGrowthThreeWayPairing(b *testing.B) {
	shapes := []struct {
		name   string
		docs   func(n int) (o, m, c *exampletypes.Container)
		skewed bool
	}{
		{"pairing", func(n int) (o, m, c *exampletypes.Container) {
			return &exampletypes.Container{Name: "app"}, portsDoc(n, "m"), portsDoc(n, "c")
		}, false},
		{"rename", func(n int) (o, m, c *exampletypes.Container) {
			return portsDoc(n, "o"), portsDoc(n, "m"), portsDoc(n, "c")
		}, false},
		{"skewsafe", func(n int) (o, m, c *exampletypes.Container) {
			o, m, c = &exampletypes.Container{Name: "app"}, &exampletypes.Container{Name: "app"}, &exampletypes.Container{Name: "app"}
			for i := range n {
				o.Ports = append(o.Ports, exampletypes.ContainerPort{ContainerPort: int32(i + 1), Protocol: "UDP"})
				m.Ports = append(m.Ports, exampletypes.ContainerPort{ContainerPort: int32(i + 1), Protocol: "SCTP"})
				c.Ports = append(c.Ports, exampletypes.ContainerPort{ContainerPort: int32(i + 1), Protocol: "TCP"})
			}
			return o, m, c
		}, true},
	}
	for _, sh := range shapes {
		// The element-by-element form with $patchMergeKey, which the
		// differ writes on request only: pairing is what is timed.
		opts := []smp.Option{smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(false)}
		if sh.skewed {
			opts = append(opts, smp.WithSkewSafe(true), smp.WithOverwrite(true))
		}
		// The floor decodes modified (the patch's size), then the others.
		docs := func(b *testing.B, n int) [][]byte {
			o, m, c := sh.docs(n)
			return [][]byte{mustJSON(b, m), mustJSON(b, o), mustJSON(b, c)}
		}
		b.Run(sh.name+"/json", func(b *testing.B) {
			benchGrowth(b, func(b *testing.B, n int) func() error {
				in := docs(b, n)
				return func() error {
					_, err := smp.ThreeWayJSON(in[1], in[0], in[2], &exampletypes.Container{}, opts...)
					return err
				}
			}, floorBoth(floorJSON(docs), floorKeys(3)))
		})
		b.Run(sh.name+"/typed", func(b *testing.B) {
			benchGrowth(b, func(b *testing.B, n int) func() error {
				o, m, c := sh.docs(n)
				return func() error {
					_, err := smp.ThreeWay(o, m, c, opts...)
					return err
				}
			}, floorKeys(3))
		})
	}
}

// growthDeep is a document of untyped nested objects.
type growthDeep struct {
	A any `json:"a"`
}

// deepDoc nests depth objects under "a" and puts a list of n strings at
// the bottom, next to "x"; deepPatch sets "x" at the bottom.
func deepDoc(depth, n int, list func(n int) string) []byte {
	return []byte(strings.Repeat(`{"a":`, depth) + `{"x":1,"data":` + list(n) + `}` + strings.Repeat("}", depth))
}

func deepPatch(depth int) []byte {
	return []byte(strings.Repeat(`{"a":`, depth) + `{"x":2}` + strings.Repeat("}", depth))
}

// stringList is a JSON list of n strings.
func stringList(n int) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"value-%d"`, i)
	}
	sb.WriteByte(']')
	return sb.String()
}

// BenchmarkGrowthDeepApply: n strings under n/100 levels of objects that
// the patch descends, so depth and size grow together; ApplyJSON must not
// rescan the data at every level. flat is the same data at the top.
func BenchmarkGrowthDeepApply(b *testing.B) {
	limits := smp.DefaultLimits()
	limits.MaxDepth = 2000
	for _, shape := range []struct {
		name  string
		depth func(n int) int
	}{{"deep", func(n int) int { return n / 100 }}, {"flat", func(int) int { return 0 }}} {
		docs := func(b *testing.B, n int) [][]byte {
			return [][]byte{deepDoc(shape.depth(n), n, stringList), deepPatch(shape.depth(n))}
		}
		b.Run(shape.name+"/json", func(b *testing.B) {
			benchGrowth(b, func(b *testing.B, n int) func() error {
				in := docs(b, n)
				return func() error {
					_, err := smp.ApplyJSON(in[0], in[1], &growthDeep{}, smp.WithLimits(limits))
					return err
				}
			}, floorJSON(docs))
		})
	}
}

// envContainer is a container with n environment variables (a merge list
// keyed by name) whose values end in suffix.
func envContainer(n int, suffix string) *exampletypes.Container {
	c := &exampletypes.Container{Name: "app"}
	for i := range n {
		c.Env = append(c.Env, exampletypes.EnvVar{Name: fmt.Sprintf("VAR_%d", i), Value: fmt.Sprint(i, suffix)})
	}
	return c
}

// BenchmarkGrowthThreeWayKeyed: a three-way patch changing every element
// of a keyed list of n, each diffed against its original element.
func BenchmarkGrowthThreeWayKeyed(b *testing.B) {
	docs := func(b *testing.B, n int) [][]byte {
		return [][]byte{mustJSON(b, envContainer(n, "b")), mustJSON(b, envContainer(n, "a")), mustJSON(b, envContainer(n, "a"))}
	}
	b.Run("json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			in := docs(b, n)
			return func() error {
				_, err := smp.ThreeWayJSON(in[1], in[0], in[2], &exampletypes.Container{})
				return err
			}
		}, floorBoth(floorJSON(docs), floorKeys(3)))
	})
	b.Run("typed", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			o, m, c := envContainer(n, "a"), envContainer(n, "b"), envContainer(n, "a")
			return func() error {
				_, err := smp.ThreeWay(o, m, c)
				return err
			}
		}, floorKeys(3))
	})
}
