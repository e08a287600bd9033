package smp_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

func typedSampleDeployment() *exampletypes.Deployment {
	v, _ := fixtures.Sample("Deployment")
	return v.(*exampletypes.Deployment)
}

func TestParsePatch(t *testing.T) {
	p, err := smp.ParsePatch([]byte(`{"spec":{"replicas":5,"paused":null}}`))
	require.NoError(t, err)
	assert.False(t, p.IsEmpty())
	assert.Equal(t, `{"spec":{"paused":null,"replicas":5}}`, p.String())

	for _, in := range []string{``, `null`, ` {} `} {
		p, err := smp.ParsePatch([]byte(in))
		require.NoError(t, err, in)
		assert.True(t, p.IsEmpty(), in)
		assert.Equal(t, `{}`, p.String(), in)
	}

	for in, kind := range map[string]smp.ErrorKind{
		`{`:      smp.ErrInvalidJSON,
		`{} {}`:  smp.ErrInvalidJSON,
		`[1]`:    smp.ErrNotObject,
		`"text"`: smp.ErrNotObject,
		strings.Repeat(`{"a":`, 1100) + `1` + strings.Repeat(`}`, 1100): smp.ErrLimit,
	} {
		_, err := smp.ParsePatch([]byte(in))
		var e *smp.Error
		require.ErrorAs(t, err, &e, "%.20s", in)
		assert.Equal(t, kind, e.Kind, "%.20s", in)
	}
}

func TestPatchValue(t *testing.T) {
	var zero smp.Patch
	assert.True(t, zero.IsEmpty())
	data, err := json.Marshal(zero)
	require.NoError(t, err)
	assert.Equal(t, `{}`, string(data))
	assert.Equal(t, map[string]any{}, zero.Map())

	p := typedMustParse(t, `{"a":1,"b":1.5,"c":18446744073709551615,"d":[{"e":"x"}],"f":null}`)
	m := p.Map()
	assert.Equal(t, map[string]any{"a": int64(1), "b": 1.5, "c": uint64(18446744073709551615), "d": []any{map[string]any{"e": "x"}}, "f": nil}, m)
	m["a"] = "changed"
	m["d"].([]any)[0].(map[string]any)["e"] = "changed"
	assert.Equal(t, int64(1), p.Map()["a"], "Map returns a copy")
	assert.Equal(t, `{"a":1,"b":1.5,"c":18446744073709551615,"d":[{"e":"x"}],"f":null}`, p.String())

	// A Patch travels inside other JSON.
	type envelope struct {
		Patch smp.Patch `json:"patch"`
	}
	var env envelope
	require.NoError(t, json.Unmarshal([]byte(`{"patch":{"spec":{"replicas":2}}}`), &env))
	assert.Equal(t, `{"spec":{"replicas":2}}`, env.Patch.String())
	out, err := json.Marshal(env)
	require.NoError(t, err)
	assert.Equal(t, `{"patch":{"spec":{"replicas":2}}}`, string(out))
	assert.Error(t, json.Unmarshal([]byte(`{"patch":[1]}`), &env))
}

func TestTypedNilPointers(t *testing.T) {
	d := typedSampleDeployment()
	p := checkTypedDiff(t, nil, d)
	assert.False(t, p.IsEmpty())
	p = checkTypedDiff(t, d, nil)
	assert.Contains(t, p.String(), `"spec":null`)
	p = checkTypedDiff[*exampletypes.Deployment](t, nil, nil)
	assert.True(t, p.IsEmpty())

	got, err := checkTypedApply[*exampletypes.Deployment](t, nil, typedMustParse(t, `{"spec":{"replicas":2}}`))
	require.NoError(t, err)
	require.NotNil(t, got, "Apply on a nil pointer makes a new value")
	assert.Equal(t, int32(2), *got.Spec.Replicas)

	got, err = checkTypedApply[*exampletypes.Deployment](t, nil, smp.Patch{})
	require.NoError(t, err)
	assert.Equal(t, &exampletypes.Deployment{}, got)

	got, err = checkTypedApply(t, d, typedMustParse(t, `{"$patch":"delete"}`))
	require.NoError(t, err)
	assert.Equal(t, &exampletypes.Deployment{}, got, "deleting the root leaves the empty object")

	_, err = checkTypedThreeWay[*exampletypes.Deployment](t, nil, d, nil)
	require.NoError(t, err)
}

func TestTypedValuesAndPointers(t *testing.T) {
	a, b := typedSampleDeployment(), typedSampleDeployment()
	b.Spec.Template.Spec.Containers[0].Env = b.Spec.Template.Spec.Containers[0].Env[1:]
	byPtr, err := smp.Diff(a, b)
	require.NoError(t, err)
	byVal := checkTypedDiff(t, *a, *b)
	assert.Equal(t, byPtr.String(), byVal.String())
	got, err := checkTypedApply(t, *a, byVal)
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(*b, got))

	pp := &a
	ppGot, err := smp.Apply(pp, byVal)
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(b, *ppGot), "a pointer to a pointer")
}

func TestTypedNotAStruct(t *testing.T) {
	for _, err := range []error{
		func() error { _, err := smp.Diff(map[string]string{}, nil); return err }(),
		func() error { _, err := smp.Diff(1, 2); return err }(),
		func() error { _, err := smp.Apply([]string{}, smp.Patch{}); return err }(),
		func() error { _, err := smp.ThreeWay[any](nil, nil, nil); return err }(),
	} {
		assert.Equal(t, smp.ErrSchema, smp.KindOf(err), "%v", err)
	}
}

// TestTypedErrorPaths checks that errors name where they happen, with the
// merge keys of the list elements on the way.
func TestTypedErrorPaths(t *testing.T) {
	d := typedSampleDeployment()
	_, err := smp.Apply(d, typedMustParse(t, `{"spec":{"template":{"spec":{"containers":[{"name":"nginx",
		"ports":[{"$patchMergeKey":["containerPort","protocol"],"containerPort":53,"protocol":"UDP","hostPort":"x"}]}]}}}}`))
	var e *smp.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, smp.ErrTypeMismatch, e.Kind)
	assert.Equal(t, "spec.template.spec.containers[name=nginx].ports[containerPort=53,protocol=UDP].hostPort", e.Path.String())

	_, err = smp.Apply(d, typedMustParse(t, `{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":{"maxSurge":1}}}}`))
	require.ErrorAs(t, err, &e)
	assert.Equal(t, smp.ErrRetainKeys, e.Kind)
	assert.Equal(t, "spec.strategy.rollingUpdate", e.Path.String())

	// A value that cannot be encoded, deep in a merge list.
	type item struct {
		Name string  `json:"name"`
		F    float64 `json:"f"`
	}
	type doc struct {
		Items []item `json:"items" patchStrategy:"merge" patchMergeKey:"name"`
	}
	nan := doc{Items: []item{{Name: "a", F: 1}}}
	bad := doc{Items: []item{{Name: "a", F: typedNaN()}}}
	_, err = smp.Diff(nan, bad)
	require.ErrorAs(t, err, &e)
	assert.Equal(t, smp.ErrInvalidValue, e.Kind)
	assert.Equal(t, "items[name=a].f", e.Path.String())
}

// A value the patch holds that its Go field cannot: the error names the
// field, also deep in merge lists and maps, and ApplyInPlace changes
// nothing. Numbers out of range are InvalidValue (docs/errors.md); a
// marshaller's own error keeps the kind the decoder gives it.
func TestTypedDecodeErrorPaths(t *testing.T) {
	for _, c := range []struct {
		patch, path string
		number      bool
	}{
		{`{"spec":{"replicas":3000000000}}`, "spec.replicas", true},
		{`{"spec":{"replicas":1.5}}`, "spec.replicas", true},
		{`{"spec":{"template":{"spec":{"containers":[{"name":"nginx","ports":[{"containerPort":80,"hostPort":3000000000}]}]}}}}`,
			"spec.template.spec.containers[name=nginx].ports[containerPort=80].hostPort", true},
		{`{"spec":{"strategy":{"rollingUpdate":{"maxSurge":true}}}}`, "spec.strategy.rollingUpdate.maxSurge", false},
		{`{"spec":{"template":{"spec":{"containers":[{"name":"nginx","resources":{"limits":{"cpu":"abc"}}}]}}}}`,
			"spec.template.spec.containers[name=nginx].resources.limits.cpu", false},
	} {
		p := typedMustParse(t, c.patch)
		d := typedSampleDeployment()
		_, err := smp.Apply(d, p)
		var e *smp.Error
		require.ErrorAs(t, err, &e, c.patch)
		assert.Equal(t, c.path, e.Path.String(), c.patch)
		if c.number {
			assert.Equal(t, smp.ErrInvalidValue, e.Kind, c.patch)
		}

		before := typedSampleDeployment()
		err = smp.ApplyInPlace(d, p)
		require.ErrorAs(t, err, &e, c.patch)
		assert.Equal(t, c.path, e.Path.String(), c.patch)
		assert.Equal(t, before, d, c.patch)
	}
}

func typedNaN() float64 {
	zero := 0.0
	return zero / zero
}

func TestTypedConflict(t *testing.T) {
	o := typedSampleDeployment()
	m := typedSampleDeployment()
	c := typedSampleDeployment()
	m.Spec.Template.Spec.Containers[0].Image = "nginx:2"
	c.Spec.Template.Spec.Containers[0].Image = "nginx:3"
	_, err := checkTypedThreeWay(t, o, m, c)
	require.True(t, smp.IsConflict(err), "%v", err)
	var e *smp.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "spec.template.spec.containers[name=nginx].image", e.Path.String())

	p, err := checkTypedThreeWay(t, o, m, c, smp.WithOverwrite(true))
	require.NoError(t, err)
	got, err := checkTypedApply(t, c, p)
	require.NoError(t, err)
	assert.Equal(t, "nginx:2", got.Spec.Template.Spec.Containers[0].Image)
}

func TestTypedPreconditions(t *testing.T) {
	a, b := typedSampleDeployment(), typedSampleDeployment()
	b.Name = "renamed"
	_, err := smp.Diff(a, b, smp.WithPreconditions(smp.RequireMetadataKeyUnchanged("name")))
	assert.True(t, smp.IsPreconditionFailed(err), "%v", err)
	_, err = smp.ThreeWay(a, b, a, smp.WithPreconditions(smp.RequireMetadataKeyUnchanged("name")))
	assert.True(t, smp.IsPreconditionFailed(err), "%v", err)
	_, err = smp.Diff(a, b, smp.WithPreconditions(smp.RequireKeyUnchanged("spec")))
	assert.NoError(t, err)
}

func TestTypedLimits(t *testing.T) {
	a, b := typedSampleDeployment(), typedSampleDeployment()
	b.Spec.Replicas = nil
	tight := smp.WithLimits(smp.Limits{MaxListLength: 2})
	_, err := smp.Diff(a, b, tight)
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err), "%v", err)
	_, jerr := smp.DiffJSON(typedMarshal(t, a), typedMarshal(t, b), a, tight)
	assert.Equal(t, smp.KindOf(jerr), smp.KindOf(err))

	shallow := smp.WithLimits(smp.Limits{MaxDepth: 3})
	_, err = smp.Apply(a, smp.Patch{}, shallow)
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err), "%v", err)
	_, err = smp.ThreeWay(a, b, a, shallow)
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err), "%v", err)

	deepPatch := typedMustParse(t, `{"metadata":{"labels":{"a":"b"}}}`)
	_, err = smp.Apply(a, deepPatch, smp.WithLimits(smp.Limits{MaxDepth: 1}))
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err), "%v", err)
	_, err = smp.Apply(a, deepPatch, smp.WithLimits(smp.Limits{}))
	assert.NoError(t, err, "zero limits mean none")

	// ParsePatch checked its patch against the default limits only, and
	// Diff's patch was never checked: Apply checks both against its own.
	one := smp.WithLimits(smp.Limits{MaxListLength: 1})
	longList := typedMustParse(t, `{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}}}`)
	_, err = smp.Apply(&exampletypes.Deployment{}, longList, one)
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err), "%v", err)
	made, err := smp.Diff(&exampletypes.Deployment{}, a)
	require.NoError(t, err)
	_, err = smp.Apply(&exampletypes.Deployment{}, made, one)
	require.Equal(t, smp.ErrLimit, smp.KindOf(err), "%v", err)
	assert.Contains(t, err.Error(), "patch")

	// A recursive type nests as deep as its values do.
	deep := &typedNode{}
	for cur, i := deep, 0; i < 20; i++ {
		cur.Next = &typedNode{Name: "n"}
		cur = cur.Next
	}
	_, err = smp.Diff(deep, &typedNode{}, smp.WithLimits(smp.Limits{MaxDepth: 10}))
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err), "%v", err)
	_, err = smp.Diff(deep, &typedNode{}, smp.WithLimits(smp.Limits{MaxDepth: 30}))
	assert.NoError(t, err)
}

type typedNode struct {
	Name string     `json:"name,omitempty"`
	Next *typedNode `json:"next,omitempty"`
}

// TestTypedSkippedFields: fields encoding/json leaves out are not diffed,
// and come out of Apply zero, as through JSON.
func TestTypedSkippedFields(t *testing.T) {
	type doc struct {
		Name    string `json:"name"`
		Skip    string `json:"-"`
		private string
	}
	a := doc{Name: "a", Skip: "s", private: "p"}
	b := doc{Name: "a", Skip: "t", private: "q"}
	p, err := smp.Diff(a, b)
	require.NoError(t, err)
	assert.True(t, p.IsEmpty())
	got, err := smp.Apply(a, typedMustParse(t, `{"name":"b"}`))
	require.NoError(t, err)
	assert.Equal(t, doc{Name: "b"}, got)
}

// TestTypedPatchKeysInAnyCase: json.Unmarshal matches keys without regard
// to case, and when two spellings meet, the later key wins.
func TestTypedPatchKeysInAnyCase(t *testing.T) {
	d := typedSampleDeployment()
	for _, patch := range []string{
		`{"Spec":{"replicas":7}}`,
		`{"spec":{"Replicas":7}}`,
		`{"spec":{"Replicas":7,"replicas":8}}`,
		`{"SPEC":{"paused":true},"spec":{"replicas":9}}`,
		`{"metadata":{"Labels":{"x":"y"}}}`,
		`{"unknown":{"a":1},"spec":{"replicas":1}}`,
	} {
		_, err := checkTypedApply(t, d, typedMustParse(t, patch))
		require.NoError(t, err, patch)
	}
	_, err := checkTypedApply(t, d, typedMustParse(t, `{"unknown":{"$patch":"bogus"}}`))
	require.Error(t, err, "an unknown field's value is still checked")
}

// TestTypedNoMutationOnError: a failing call changes nothing either.
func TestTypedNoMutationOnError(t *testing.T) {
	d := typedSampleDeployment()
	before := typedClone(d)
	p := typedMustParse(t, `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"x"},{"$patch":"bogus"}]}}}}`)
	text := p.String()
	got, err := smp.Apply(d, p)
	require.Error(t, err)
	assert.Nil(t, got)
	assert.Empty(t, cmp.Diff(before, d))
	assert.Equal(t, text, p.String())

	m := typedSampleDeployment()
	m.Spec.Template.Spec.Containers[0].Image = "changed"
	c := typedSampleDeployment()
	c.Spec.Template.Spec.Containers[0].Image = "other"
	cm, cc := typedClone(m), typedClone(c)
	_, err = smp.ThreeWay(d, m, c)
	require.True(t, smp.IsConflict(err))
	assert.Empty(t, cmp.Diff(before, d))
	assert.Empty(t, cmp.Diff(cm, m))
	assert.Empty(t, cmp.Diff(cc, c))
}

// TestTypedApplyShares: the result of Apply shares nothing mutable with
// current, even where the patch changed nothing.
func TestTypedApplyShares(t *testing.T) {
	d := typedSampleDeployment()
	got, err := smp.Apply(d, typedMustParse(t, `{"spec":{"replicas":2}}`))
	require.NoError(t, err)
	requireTypedNoSharing(t, d, got)
	got.Spec.Template.Spec.Containers[0].Env[0].Value = "changed"
	got.Spec.Template.Spec.Containers[0].Resources.Limits["cpu"] = exampletypes.MustParseQuantity("9")
	assert.Empty(t, cmp.Diff(typedSampleDeployment(), d))
}

// TestTypedDiffEqualAllocates: comparing equal documents allocates only
// for the call itself, however large the documents.
func TestTypedDiffEqualAllocates(t *testing.T) {
	a, b := typedBenchOriginal(10), typedBenchOriginal(10)
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := smp.Diff(a, b); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Diff of two equal 10-container Deployments: %v allocations", allocs)
	assert.LessOrEqual(t, allocs, 12.0)
	p, err := smp.Diff(a, b)
	require.NoError(t, err)
	assert.True(t, p.IsEmpty())
}

// TestTypedConcurrent runs the typed API from many goroutines on shared
// inputs (run with -race).
func TestTypedConcurrent(t *testing.T) {
	o, m, c := typedBenchOriginal(3), typedBenchModified(3), typedBenchCurrent(3)
	want, err := smp.ThreeWay(o, m, c)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				p, err := smp.ThreeWay(o, m, c)
				if err != nil {
					errs <- err
					return
				}
				if p.String() != want.String() {
					errs <- errors.New("different patch")
					return
				}
				if _, err := smp.Apply(c, p); err != nil {
					errs <- err
					return
				}
				if _, err := smp.Diff(o, m); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

type copyShapes struct {
	Kept      []string          `json:"kept"`
	Omitted   []string          `json:"omitted,omitempty"`
	Nil       []string          `json:"nil"`
	Spare     []string          `json:"spare"`
	Ports     []typedCopyPort   `json:"ports"`
	NoPorts   []typedCopyPort   `json:"noPorts"`
	EmptyPort []typedCopyPort   `json:"emptyPorts"`
	Main      *typedCopyPort    `json:"main"`
	Labels    map[string]string `json:"labels"`
	NoLabels  map[string]string `json:"noLabels,omitempty"`
	BadLabels map[string]string `json:"badLabels"`
}

type typedCopyPort struct {
	Name   string  `json:"name"`
	Port   int32   `json:"port"`
	Weight float64 `json:"weight,omitempty"`
}

// TestTypedApplyCopiesAsJSON: what the patch does not touch comes out as
// a JSON round trip leaves it, in new memory: empty stays empty, nil stays
// nil, empty omitempty values become nil, strings are repaired, and the
// result's slices have no room to grow into the caller's.
func TestTypedApplyCopiesAsJSON(t *testing.T) {
	backing := make([]string, 1, 8)
	backing[0] = "a"
	in := &copyShapes{
		Kept:      []string{},
		Omitted:   []string{},
		Ports:     append(make([]typedCopyPort, 0, 4), typedCopyPort{Name: "http", Port: 80}),
		EmptyPort: []typedCopyPort{},
		Main:      &typedCopyPort{Name: "main\xff"},
		Labels:    map[string]string{"app": "web", "tier": "front"},
		NoLabels:  map[string]string{},
		BadLabels: map[string]string{"k": "bad\xff"},
	}
	in.Spare = backing
	got, err := smp.Apply(in, smp.Patch{})
	require.NoError(t, err)
	want := &copyShapes{}
	require.NoError(t, json.Unmarshal(typedMarshal(t, in), want))
	assert.Equal(t, want, got)
	assert.NotNil(t, got.Kept)
	assert.Nil(t, got.Omitted)
	assert.Nil(t, got.Nil)
	assert.Nil(t, got.NoPorts)
	assert.NotNil(t, got.EmptyPort)
	assert.Equal(t, "main\uFFFD", got.Main.Name)
	assert.Nil(t, got.NoLabels)
	assert.Equal(t, "bad\uFFFD", got.BadLabels["k"])
	assert.Equal(t, 1, cap(got.Spare), "no room to append into")
	got.Spare[0], got.Ports[0].Port, got.Labels["app"] = "changed", 81, "changed"
	assert.Equal(t, "a", in.Spare[0])
	assert.Equal(t, int32(80), in.Ports[0].Port)
	assert.Equal(t, "web", in.Labels["app"])
	got.Main.Port = 1
	assert.Zero(t, in.Main.Port)

	in.Ports = append(in.Ports, typedCopyPort{Name: "nan", Weight: math.NaN()})
	_, err = smp.Apply(in, smp.Patch{})
	assert.Equal(t, smp.ErrInvalidValue, smp.KindOf(err), "%v", err)
	if assert.Error(t, err) {
		assert.Equal(t, "ports[1].weight", err.(*smp.Error).Path.String())
	}
}
