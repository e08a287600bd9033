package smp_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// Growth benchmarks: each hostile shape of issue 14 at n = 10^4 and 10^5,
// the n=100000 row reporting the growth exponent
// log(t(10^5)/t(10^4)) / log(10) as growth-exp (1 is linear, 2
// quadratic). t is the process's CPU time per operation (cpu-ns/op, all
// threads, garbage collection included), which other load on a shared
// machine disturbs less than wall time; wall time where it is unknown.
// Run them with
//
//	go test ./smp/ -run XXX -bench Growth -benchmem -count 1

// growthSizes are the two sizes each shape is measured at.
var growthSizes = [2]int{10_000, 100_000}

// growthTimes holds each shape's time per operation at the smaller size.
var growthTimes sync.Map

// benchGrowth runs op, made by setup for each size, at both sizes; the
// larger reports the growth exponent. The setup is not timed.
func benchGrowth(b *testing.B, setup func(b *testing.B, n int) func() error) {
	for i, n := range growthSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			op := setup(b, n)
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
			small := strings.Replace(b.Name(), fmt.Sprintf("n=%d", n), fmt.Sprintf("n=%d", growthSizes[0]), 1)
			if t1, ok := growthTimes.Load(small); ok {
				b.ReportMetric(math.Log(per/t1.(float64))/math.Log(float64(n)/float64(growthSizes[0])), "growth-exp")
			}
		})
	}
}

func mustJSON(b *testing.B, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return data
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
	b.Run("json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			patch := mustJSON(b, labelsPatch(n))
			return func() error {
				_, err := smp.StrategicMergePatch([]byte(`{"metadata":{"name":"x"}}`), patch, &fixtures.ConfigMap{})
				return err
			}
		})
	})
	b.Run("typed", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			patch, err := smp.ParsePatch(mustJSON(b, labelsPatch(n)))
			if err != nil {
				b.Fatal(err)
			}
			cur := &fixtures.ConfigMap{}
			return func() error {
				_, err := smp.Apply(cur, patch)
				return err
			}
		})
	})
}

// portsDoc is a container whose n ports share containerPort 80 (the
// default key) and differ by protocol.
func portsDoc(n int, protocol string) *fixtures.Container {
	c := &fixtures.Container{Name: "app"}
	for i := range n {
		c.Ports = append(c.Ports, fixtures.ContainerPort{ContainerPort: 80, Protocol: fmt.Sprintf("%s%d", protocol, i)})
	}
	return c
}

// BenchmarkGrowthDeleteMany: one deletion matching every element of a
// list, by a duplicated merge key and by a partial $patchMergeKey.
func BenchmarkGrowthDeleteMany(b *testing.B) {
	b.Run("duplicates/json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			items := make([]map[string]any, n)
			for i := range items {
				items[i] = map[string]any{"name": "dup", "value": fmt.Sprint(i)}
			}
			orig := mustJSON(b, map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"volumes": items}}}})
			patch := []byte(`{"spec":{"template":{"spec":{"volumes":[{"name":"dup","$patch":"delete"}]}}}}`)
			return func() error {
				_, err := smp.ApplyJSON(orig, patch, &fixtures.Deployment{})
				return err
			}
		})
	})
	const partial = `{"ports":[{"$patch":"delete","$patchMergeKey":["containerPort"],"containerPort":80}]}`
	b.Run("partial/json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			orig := mustJSON(b, portsDoc(n, "p"))
			return func() error {
				_, err := smp.ApplyJSON(orig, []byte(partial), &fixtures.Container{})
				return err
			}
		})
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
		})
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
		docs   func(n int) (o, m, c *fixtures.Container)
		skewed bool
	}{
		{"pairing", func(n int) (o, m, c *fixtures.Container) {
			return &fixtures.Container{Name: "app"}, portsDoc(n, "m"), portsDoc(n, "c")
		}, false},
		{"rename", func(n int) (o, m, c *fixtures.Container) {
			return portsDoc(n, "o"), portsDoc(n, "m"), portsDoc(n, "c")
		}, false},
		{"skewsafe", func(n int) (o, m, c *fixtures.Container) {
			o, m, c = &fixtures.Container{Name: "app"}, &fixtures.Container{Name: "app"}, &fixtures.Container{Name: "app"}
			for i := range n {
				o.Ports = append(o.Ports, fixtures.ContainerPort{ContainerPort: int32(i + 1), Protocol: "UDP"})
				m.Ports = append(m.Ports, fixtures.ContainerPort{ContainerPort: int32(i + 1), Protocol: "SCTP"})
				c.Ports = append(c.Ports, fixtures.ContainerPort{ContainerPort: int32(i + 1), Protocol: "TCP"})
			}
			return o, m, c
		}, true},
	}
	for _, sh := range shapes {
		var opts []smp.Option
		if sh.skewed {
			opts = append(opts, smp.WithSkewSafe(true), smp.WithOverwrite(true))
		}
		b.Run(sh.name+"/json", func(b *testing.B) {
			benchGrowth(b, func(b *testing.B, n int) func() error {
				o, m, c := sh.docs(n)
				ob, mb, cb := mustJSON(b, o), mustJSON(b, m), mustJSON(b, c)
				return func() error {
					_, err := smp.ThreeWayJSON(ob, mb, cb, &fixtures.Container{}, opts...)
					return err
				}
			})
		})
		b.Run(sh.name+"/typed", func(b *testing.B) {
			benchGrowth(b, func(b *testing.B, n int) func() error {
				o, m, c := sh.docs(n)
				return func() error {
					_, err := smp.ThreeWay(o, m, c, opts...)
					return err
				}
			})
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
		b.Run(shape.name+"/json", func(b *testing.B) {
			benchGrowth(b, func(b *testing.B, n int) func() error {
				orig, patch := deepDoc(shape.depth(n), n, stringList), deepPatch(shape.depth(n))
				return func() error {
					_, err := smp.ApplyJSON(orig, patch, &growthDeep{}, smp.WithLimits(limits))
					return err
				}
			})
		})
	}
}

// BenchmarkGrowthBare is the floor of PatchKeys: json.Unmarshal of its
// patch into a map and json.Marshal of the map. Its exponent is the
// machine's for maps outgrowing the caches, with no algorithm of ours.
func BenchmarkGrowthBare(b *testing.B) {
	b.Run("json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			patch := mustJSON(b, labelsPatch(n))
			return func() error {
				var m map[string]any
				if err := json.Unmarshal(patch, &m); err != nil {
					return err
				}
				_, err := json.Marshal(m)
				return err
			}
		})
	})
}

// envContainer is a container with n environment variables (a merge list
// keyed by name) whose values end in suffix.
func envContainer(n int, suffix string) *fixtures.Container {
	c := &fixtures.Container{Name: "app"}
	for i := range n {
		c.Env = append(c.Env, fixtures.EnvVar{Name: fmt.Sprintf("VAR_%d", i), Value: fmt.Sprint(i, suffix)})
	}
	return c
}

// BenchmarkGrowthThreeWayKeyed: a three-way patch changing every element
// of a keyed list of n, each diffed against its original element.
func BenchmarkGrowthThreeWayKeyed(b *testing.B) {
	b.Run("json", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			ob, mb := mustJSON(b, envContainer(n, "a")), mustJSON(b, envContainer(n, "b"))
			return func() error {
				_, err := smp.ThreeWayJSON(ob, mb, ob, &fixtures.Container{})
				return err
			}
		})
	})
	b.Run("typed", func(b *testing.B) {
		benchGrowth(b, func(b *testing.B, n int) func() error {
			o, m, c := envContainer(n, "a"), envContainer(n, "b"), envContainer(n, "a")
			return func() error {
				_, err := smp.ThreeWay(o, m, c)
				return err
			}
		})
	})
}
