package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// checkInPlace applies p to v with ApplyInPlace and with Apply: both fail
// with the same kind of error, leaving the value as it was, or both
// succeed with the same JSON; v, and anything it reaches, is unchanged
// either way (ApplyInPlace works on a shallow copy of it).
func checkInPlace[T any](t require.TestingT, v T, p smp.Patch, opts ...smp.Option) {
	before := typedClone(v)
	got := v
	err := smp.ApplyInPlace(&got, p, opts...)
	want, werr := smp.Apply(v, p, opts...)
	if werr != nil {
		require.Error(t, err, "Apply failed with %v", werr)
		require.Equal(t, smp.KindOf(werr), smp.KindOf(err), "Apply: %v\nApplyInPlace: %v", werr, err)
		require.Empty(t, cmp.Diff(before, got), "a failed ApplyInPlace changed the value")
	} else {
		require.NoError(t, err, "Apply succeeded")
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		require.JSONEq(t, string(wj), string(gj), "patch %s", p)
	}
	require.Empty(t, cmp.Diff(before, v), "ApplyInPlace changed what the old value reaches")
}

// TestApplyInPlaceProperties: on random values and the patches between
// them, and the same patches spoiled deep inside, ApplyInPlace gives
// Apply's result or fails leaving the value unchanged.
func TestApplyInPlaceProperties(t *testing.T) {
	t.Run("Deployment", func(t *testing.T) { inPlaceProperty(t, typedGenDeployment) })
	t.Run("Pod", func(t *testing.T) { inPlaceProperty(t, typedGenPod) })
	t.Run("Gateway", func(t *testing.T) { inPlaceProperty(t, typedGenGateway) })
}

func inPlaceProperty[T any](t *testing.T, gen func(*rapid.T) T) {
	rapid.Check(t, func(rt *rapid.T) {
		a, b, c := gen(rt), gen(rt), gen(rt)
		opts := drawTypedOptions(rt)
		p, err := smp.Diff(a, b, opts...)
		require.NoError(rt, err)
		checkInPlace(rt, a, p, opts...)
		checkInPlace(rt, c, p, opts...)
		// The same patch with a wrong value at its deepest object, so
		// that the merge fails after merging what comes before it.
		m := p.Map()
		if spoil(m) {
			data, _ := json.Marshal(m)
			bad, err := smp.ParsePatch(data)
			require.NoError(rt, err)
			checkInPlace(rt, c, bad, opts...)
		}
	})
}

// spoil puts a list where the deepest object of m reached through its
// last keys expects an object or a scalar; it reports whether it did.
func spoil(m map[string]any) bool {
	var last string
	for k := range m {
		if k > last && k[0] != '$' {
			last = k
		}
	}
	if last == "" {
		return false
	}
	if sub, ok := m[last].(map[string]any); ok && spoil(sub) {
		return true
	}
	m[last] = []any{[]any{"spoiled"}}
	return true
}

// FuzzApplyInPlace checks ApplyInPlace against Apply on fuzzed documents
// and patches of the fixtures' types: the same result, or a failure that
// leaves the value exactly as it was.
func FuzzApplyInPlace(f *testing.F) {
	typedSeeds(f, func(which uint8, d ...[]byte) { f.Add(which, uint8(0), d[0], d[1]) })
	f.Add(uint8(0), uint8(0), mustMarshal(sample("Deployment")), []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"x"},{"$patch":"bogus","name":"b"}]}}}}`))
	f.Fuzz(func(t *testing.T, which, opts uint8, doc, patch []byte) {
		typedFuzzers[int(which)%len(typedFuzzers)].inPlace(t, opts, doc, patch)
	})
}

func fuzzInPlace[T any](t *testing.T, opts byte, doc, patch []byte) {
	v, ok := fuzzDecode[T](doc)
	if !ok {
		return
	}
	p, err := smp.ParsePatch(patch)
	if err != nil {
		return
	}
	checkInPlace(t, v, p, fuzzOptions(opts)...)
}

// TestApplyInPlaceKeeps: what the patch does not reach stays the same
// memory, as it was (unexported fields too); what it reaches is new.
func TestApplyInPlaceKeeps(t *testing.T) {
	d := sample("Deployment").(*exampletypes.Deployment)
	containers := d.Spec.Template.Spec.Containers
	labels := d.ObjectMeta.Labels
	p, err := smp.ParsePatch([]byte(`{"spec":{"replicas":7}}`))
	require.NoError(t, err)
	require.NoError(t, smp.ApplyInPlace(&d, p))
	assert.Equal(t, int32(7), *d.Spec.Replicas)
	assert.Same(t, &containers[0], &d.Spec.Template.Spec.Containers[0], "an untouched list is kept")
	assert.Equal(t, labels, d.ObjectMeta.Labels)

	p, err = smp.ParsePatch([]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"` + containers[0].Name + `","image":"new"}]}}}}`))
	require.NoError(t, err)
	require.NoError(t, smp.ApplyInPlace(&d, p))
	assert.Equal(t, "new", d.Spec.Template.Spec.Containers[0].Image)
	assert.NotEqual(t, "new", containers[0].Image, "the old list is not written to")

	var nilDoc *exampletypes.Deployment
	require.NoError(t, smp.ApplyInPlace(&nilDoc, p))
	require.NotNil(t, nilDoc)
	require.Error(t, smp.ApplyInPlace[exampletypes.Deployment](nil, p))
}

func sample(name string) any {
	s, ok := fixtures.Sample(name)
	if !ok {
		panic("no sample " + name)
	}
	return s
}
