package reflectschema_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

type rcLinked struct {
	Value string    `json:"value"`
	Next  *rcLinked `json:"next,omitempty"`
}

type rcTree struct {
	Name     string   `json:"name"`
	Children []rcTree `json:"children" patchStrategy:"merge" patchMergeKey:"name"`
}

type rcDir struct {
	Entries map[string]rcDir   `json:"entries"`
	Links   map[string]*rcDir  `json:"links"`
	Nested  []map[string]rcDir `json:"nested"`
}

type rcPod struct {
	Name       string        `json:"name"`
	Containers []rcContainer `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
}

type rcContainer struct {
	Name  string `json:"name"`
	Owner *rcPod `json:"owner,omitempty"`
}

type rcList []rcList

type rcMap map[string]rcMap

func TestRecursionThroughPointer(t *testing.T) {
	st := mustFor[rcLinked](t)
	next := st.Field("next")
	require.NotNil(t, next)
	assert.Same(t, st, next.Type, "*rcLinked must lead back to the same *Type")
	assert.Equal(t, reflect.TypeFor[*rcLinked](), next.GoType)
}

func TestRecursionThroughSlice(t *testing.T) {
	st := mustFor[rcTree](t)
	children := st.Field("children")
	require.NotNil(t, children)
	assert.Equal(t, reflectschema.List, children.Type.Kind)
	assert.Same(t, st, children.Type.Elem)
	// The merge key is checked against the type under construction.
	assert.Equal(t, []string{"name"}, children.Patch.MergeKey)
	assert.True(t, children.Patch.IsMergeList())
}

func TestRecursionThroughMap(t *testing.T) {
	st := mustFor[rcDir](t)
	for _, name := range []string{"entries", "links"} {
		f := st.Field(name)
		require.NotNil(t, f, name)
		assert.Equal(t, reflectschema.Map, f.Type.Kind, name)
		assert.Same(t, st, f.Type.Elem, name)
	}
	nested := st.Field("nested").Type
	assert.Equal(t, reflectschema.List, nested.Kind)
	assert.Equal(t, reflectschema.Map, nested.Elem.Kind)
	assert.Same(t, st, nested.Elem.Elem)
	// The map type met twice is one schema.
	assert.Same(t, st.Field("entries").Type, nested.Elem)
}

func TestMutualRecursion(t *testing.T) {
	pod := mustFor[rcPod](t)
	containers := pod.Field("containers")
	require.NotNil(t, containers)
	container := containers.Type.Elem
	require.NotNil(t, container)
	assert.Equal(t, reflect.TypeFor[rcContainer](), container.Go)
	assert.Same(t, pod, container.Field("owner").Type, "rcContainer.Owner must lead back to rcPod's schema")
	// Building rcPod built and cached rcContainer.
	assert.Same(t, container, mustFor[rcContainer](t))
	assert.Same(t, container, mustFor[*rcContainer](t))
}

func TestRecursiveNamedListAndMap(t *testing.T) {
	// type rcList []rcList: a list whose elements are lists, so atomic.
	l := mustFor[rcList](t)
	assert.Equal(t, reflectschema.Atomic, l.Kind)
	assert.Same(t, l, l.Elem)

	m := mustFor[rcMap](t)
	assert.Equal(t, reflectschema.Map, m.Kind)
	assert.Same(t, m, m.Elem)
}

type rcSelfPointer *rcSelfPointer

type rcHoldsSelfPointer struct {
	P rcSelfPointer `json:"p"`
}

func TestPointerCycleIsReported(t *testing.T) {
	// type P *P never reaches a value type. Following it must end (and
	// release the build lock) with an error rather than loop forever.
	type result struct {
		err      error
		fieldErr error
	}
	done := make(chan result, 1)
	go func() {
		_, err := reflectschema.For[rcSelfPointer]()
		_, fieldErr := reflectschema.For[rcHoldsSelfPointer]()
		done <- result{err, fieldErr}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Of loops on type P *P")
	}
	var e *reflectschema.Error
	require.ErrorAs(t, r.err, &e)
	assert.Equal(t, reflectschema.RuleUnsupported, e.Rule)
	requireRuleError(t, r.fieldErr, reflect.TypeFor[rcHoldsSelfPointer](), "P", reflectschema.RuleUnsupported)
	assert.Contains(t, r.fieldErr.Error(), "rcSelfPointer")

	// Other types can still be built.
	mustFor[rcLinked](t)
}

type rcBadTree struct {
	Name     string      `json:"name"`
	Children []rcBadTree `json:"children" patchStrategy:"merge" patchMergeKey:"id"`
}

func TestRecursiveTypeKeysAreValidated(t *testing.T) {
	_, err := reflectschema.For[rcBadTree]()
	e := requireRuleError(t, err, reflect.TypeFor[rcBadTree](), "Children", reflectschema.RuleMergeKey)
	assert.Contains(t, e.Msg, `"id"`)
}
