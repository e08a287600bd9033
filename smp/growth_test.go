package smp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// Issue 14, section 4: no input shape may make an operation superlinear.
// Each test checks a hostile shape's result, then that 16 times the input
// costs well under the 256 times a quadratic operation would.

// requireLinear times op (made by setup, untimed) at n and 16n, best of
// three on the process's CPU clock, and fails above 100 times: room for
// n log n and caches, none for n².
func requireLinear(t *testing.T, n int, setup func(n int) func() error) {
	t.Helper()
	if testing.Short() {
		t.Skip("timing: not in -short")
	}
	best := func(n int) time.Duration {
		op := setup(n)
		d := time.Duration(1<<63 - 1)
		for range 3 {
			cpu0, ok := processCPU()
			start := time.Now()
			require.NoError(t, op())
			el := time.Since(start)
			if cpu1, ok1 := processCPU(); ok && ok1 {
				el = cpu1 - cpu0
			}
			d = min(d, max(el, time.Microsecond))
		}
		return d
	}
	small, large := best(n), best(16*n)
	if r := float64(large) / float64(small); r > 100 {
		t.Fatalf("n=%d took %v, n=%d took %v: %.0f times (quadratic: 256)", n, small, 16*n, large, r)
	}
}

func TestGrowthPatchKeys(t *testing.T) {
	const n = 3000
	patch, err := json.Marshal(labelsPatch(n))
	require.NoError(t, err)
	out, err := smp.ApplyJSON([]byte(`{"metadata":{"name":"x","labels":{"kept":"1"}}}`), patch, &exampletypes.ConfigMap{})
	require.NoError(t, err)
	var cm exampletypes.ConfigMap
	require.NoError(t, json.Unmarshal(out, &cm))
	require.Len(t, cm.Labels, n+1)
	require.Equal(t, "1", cm.Labels["kept"])
	require.Equal(t, fmt.Sprint(n-1), cm.Labels[fmt.Sprintf("example.com/label-%d", n-1)])
	// A list named by its field and by both of its directives is merged
	// once.
	out, err = smp.ApplyJSON([]byte(`{"metadata":{"finalizers":["a","b","c"]}}`),
		[]byte(`{"metadata":{"finalizers":["d"],"$setElementOrder/finalizers":["d","c","a"],"$deleteFromPrimitiveList/finalizers":["b"]}}`), &exampletypes.ConfigMap{})

	require.NoError(t, err)
	require.JSONEq(t, `{"metadata":{"finalizers":["d","c","a"]}}`, string(out))

	requireLinear(t, 2000, func(n int) func() error {
		data, _ := json.Marshal(map[string]any{"data": labelsPatch(n)["metadata"].(map[string]any)["labels"]})
		patch, err := smp.ParsePatch(data)
		require.NoError(t, err)
		return func() error {
			cm, err := smp.Apply(&exampletypes.ConfigMap{}, patch)
			if err == nil && len(cm.Data) != n {
				err = fmt.Errorf("%d data keys, want %d", len(cm.Data), n)
			}
			return err
		}
	})
}

// containerWithPorts is a container holding, for each count, that many
// ports of containerPort 8000+i and distinct protocols.
func containerWithPorts(counts ...int) *exampletypes.Container {
	c := &exampletypes.Container{Name: "app"}
	for i, k := range counts {
		for j := range k {
			c.Ports = append(c.Ports, exampletypes.ContainerPort{ContainerPort: int32(8000 + i), Protocol: fmt.Sprintf("P%d", j)})
		}
	}
	return c
}

func TestGrowthDeleteMany(t *testing.T) {
	// Duplicate merge keys: one deletion removes every element of the key,
	// through the JSON, map and typed APIs.
	const n = 2000
	vols := make([]any, 0, 2*n)
	for i := range n {
		vols = append(vols, map[string]any{"name": "dup", "hostPath": map[string]any{"path": fmt.Sprint(i)}}, map[string]any{"name": fmt.Sprintf("v%d", i)})
	}
	orig := map[string]any{"spec": map[string]any{"volumes": vols}}
	origJSON, _ := json.Marshal(orig)
	patch := `{"spec":{"volumes":[{"name":"dup","$patch":"delete"},{"name":"v7","emptyDir":{}}]}}`
	check := func(vols []exampletypes.Volume) {
		t.Helper()
		require.Len(t, vols, n)
		for i, v := range vols {
			require.Equal(t, fmt.Sprintf("v%d", i), v.Name)
		}
		require.NotNil(t, vols[7].EmptyDir)
	}
	for name, apply := range map[string]func() ([]byte, error){
		"ApplyJSON": func() ([]byte, error) { return smp.ApplyJSON(origJSON, []byte(patch), &exampletypes.Pod{}) },
		"map": func() ([]byte, error) {
			var pm smp.JSONMap
			require.NoError(t, json.Unmarshal([]byte(patch), &pm))
			res, err := smp.ApplyMap(orig, pm, &exampletypes.Pod{})
			if err != nil {
				return nil, err
			}
			return json.Marshal(res)
		},
	} {
		out, err := apply()
		require.NoError(t, err, name)
		var got exampletypes.Pod
		require.NoError(t, json.Unmarshal(out, &got), name)
		check(got.Spec.Volumes)
	}
	var cur exampletypes.Pod
	require.NoError(t, json.Unmarshal(origJSON, &cur))
	p, err := smp.ParsePatch([]byte(patch))
	require.NoError(t, err)
	got, err := smp.Apply(&cur, p)
	require.NoError(t, err)
	check(got.Spec.Volumes)

	// A partial $patchMergeKey deletes every port of containerPort 8001,
	// and only those.
	partial := `{"ports":[{"$patch":"delete","$patchMergeKey":["containerPort"],"containerPort":8001}]}`
	c := containerWithPorts(3, n, 2)
	cb, _ := json.Marshal(c)
	out, err := smp.ApplyJSON(cb, []byte(partial), &exampletypes.Container{})
	require.NoError(t, err)
	var gotC exampletypes.Container
	require.NoError(t, json.Unmarshal(out, &gotC))
	want := append(containerWithPorts(3).Ports, containerWithPorts(0, 0, 2).Ports...)
	require.Equal(t, want, gotC.Ports)
	p, err = smp.ParsePatch([]byte(partial))
	require.NoError(t, err)
	typed, err := smp.Apply(c, p)
	require.NoError(t, err)
	require.Equal(t, want, typed.Ports)

	requireLinear(t, 1500, func(n int) func() error {
		cb, _ := json.Marshal(containerWithPorts(1, n))
		return func() error {
			_, err := smp.ApplyJSON(cb, []byte(partial), &exampletypes.Container{})
			return err
		}
	})
	requireLinear(t, 1500, func(n int) func() error {
		c := containerWithPorts(n, 1)
		return func() error {
			_, err := smp.Apply(c, p)
			return err
		}
	})
}

func TestGrowthThreeWayPairing(t *testing.T) {
	// modified's and current's ports share containerPort 8000 and differ
	// by protocol: with $patchMergeKey nothing pairs, and the patch makes
	// current hold modified's ports. Skew-safe mode would write the list
	// whole and never pair; pairing is what is timed.
	pairing := []smp.Option{smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(false)}
	mk := func(prefix string, n int) *exampletypes.Container {
		c := &exampletypes.Container{Name: "app"}
		for i := range n {
			c.Ports = append(c.Ports, exampletypes.ContainerPort{ContainerPort: 8000, Protocol: fmt.Sprintf("%s%d", prefix, i)})
		}
		return c
	}
	const n = 300
	o, m, c := mk("o", n), mk("m", n), mk("c", n)
	ob, _ := json.Marshal(o)
	mb, _ := json.Marshal(m)
	cb, _ := json.Marshal(c)
	jp, err := smp.ThreeWayJSON(ob, mb, cb, &exampletypes.Container{}, append(pairing, smp.WithOverwrite(true))...)
	require.NoError(t, err)
	tp, err := smp.ThreeWay(o, m, c, pairing...)
	require.NoError(t, err)
	tpb, err := tp.MarshalJSON()
	require.NoError(t, err)
	for name, patch := range map[string][]byte{"json": jp, "typed": tpb} {
		out, err := smp.ApplyJSON(cb, patch, &exampletypes.Container{})
		require.NoError(t, err, name)
		var got exampletypes.Container
		require.NoError(t, json.Unmarshal(out, &got), name)
		have := map[string]bool{}
		for _, p := range got.Ports {
			have[p.Protocol] = true
		}
		for i := range n {
			require.True(t, have[fmt.Sprintf("m%d", i)], "%s: port m%d missing", name, i)
			require.False(t, have[fmt.Sprintf("o%d", i)], "%s: deleted port o%d kept", name, i)
		}
	}

	requireLinear(t, 300, func(n int) func() error {
		ob, _ := json.Marshal(mk("o", n))
		mb, _ := json.Marshal(mk("m", n))
		cb, _ := json.Marshal(mk("c", n))
		return func() error {
			_, err := smp.ThreeWayJSON(ob, mb, cb, &exampletypes.Container{}, pairing...)
			return err
		}
	})
	requireLinear(t, 300, func(n int) func() error {
		o, m, c := mk("o", n), mk("m", n), mk("c", n)
		return func() error {
			_, err := smp.ThreeWay(o, m, c, pairing...)
			return err
		}
	})
}

func TestGrowthDeepApply(t *testing.T) {
	// ApplyJSON on a deep document whose data the patch passes by equals
	// the map API's result, which decodes everything.
	doc := deepDoc(300, 5000, stringList)
	patch := deepPatch(300)
	out, err := smp.ApplyJSON(doc, patch, &growthDeep{})
	require.NoError(t, err)
	var om, pm smp.JSONMap
	require.NoError(t, json.Unmarshal(doc, &om))
	require.NoError(t, json.Unmarshal(patch, &pm))
	want, err := smp.ApplyMap(om, pm, &growthDeep{})
	require.NoError(t, err)
	wb, _ := json.Marshal(want)
	require.JSONEq(t, string(wb), string(out))
	require.True(t, strings.HasSuffix(string(out), strings.Repeat("}", 301)))

	limits := smp.DefaultLimits()
	limits.MaxDepth = 2000
	requireLinear(t, 6000, func(n int) func() error {
		doc, patch := deepDoc(n/100, n, stringList), deepPatch(n/100)
		return func() error {
			_, err := smp.ApplyJSON(doc, patch, &growthDeep{}, smp.WithLimits(limits))
			return err
		}
	})
}

func TestGrowthThreeWayKeyed(t *testing.T) {
	// Every variable of a keyed list changed, current as the original:
	// the typed and JSON patches both set every new value, and each
	// element finds its base without scanning the list.
	const n = 500
	o, m := envContainer(n, "a"), envContainer(n, "b")
	ob, _ := json.Marshal(o)
	tp, err := smp.ThreeWay(o, m, envContainer(n, "a"))
	require.NoError(t, err)
	tpb, err := tp.MarshalJSON()
	require.NoError(t, err)
	jp, err := smp.ThreeWayJSON(ob, mustMarshal(m), ob, &exampletypes.Container{})
	require.NoError(t, err)
	for name, patch := range map[string][]byte{"typed": tpb, "json": jp} {
		out, err := smp.ApplyJSON(ob, patch, &exampletypes.Container{})
		require.NoError(t, err, name)
		var got exampletypes.Container
		require.NoError(t, json.Unmarshal(out, &got), name)
		require.Equal(t, m.Env, got.Env, name)
	}
	requireLinear(t, 600, func(n int) func() error {
		o, m, c := envContainer(n, "a"), envContainer(n, "b"), envContainer(n, "a")
		return func() error {
			_, err := smp.ThreeWay(o, m, c)
			return err
		}
	})
}

// TestDeepApplyConcurrent: calls on the same document bytes at once share
// its recorded container ends and release them, while calls on other
// documents reuse the memory of released scans; run under -race.
func TestDeepApplyConcurrent(t *testing.T) {
	docs := [][]byte{deepDoc(50, 3000, stringList), deepDoc(40, 2000, stringList)}
	patch := deepPatch(50)
	var wants [2][]byte
	for d, doc := range docs {
		want, err := smp.ApplyJSON(doc, patch, &growthDeep{})
		require.NoError(t, err)
		wants[d] = want
	}
	errs := make(chan error, 16)
	for g := range 16 {
		go func() {
			var err error
			for range 4 {
				d := g % 2
				got, aerr := smp.ApplyJSON(docs[d], patch, &growthDeep{})
				if err = aerr; err == nil && string(got) != string(wants[d]) {
					err = fmt.Errorf("document %d: got %d bytes, want %d", d, len(got), len(wants[d]))
				}
				if err != nil {
					break
				}
			}
			errs <- err
		}()
	}
	for range 16 {
		require.NoError(t, <-errs)
	}
}
