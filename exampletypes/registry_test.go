package exampletypes

import (
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNamesSortedAndComplete(t *testing.T) {
	names := Names()
	assert.True(t, slices.IsSorted(names))
	for _, want := range []string{
		"Pod", "PodSpec", "Container", "ContainerState", "ContainerStatus", "ObjectMeta",
		"Service", "Deployment", "DeploymentStrategy", "ConfigMap", "Gateway",
		"SeedRecommended", "SeedRecommendedBaz", "SeedMultiKey", "SeedUnion",
		"SeedDiscriminatedUnion", "SeedOrderedList", "SeedOrderedSet", "SeedMergeKeyList",
	} {
		assert.Contains(t, names, want)
	}
}

func TestNamesReturnsACopy(t *testing.T) {
	names := Names()
	names[0] = "changed"
	assert.NotEqual(t, "changed", Names()[0])
}

func TestLookup(t *testing.T) {
	v, ok := Lookup("Pod")
	require.True(t, ok)
	pod, ok := v.(*Pod)
	require.True(t, ok, "Lookup returns a pointer, got %T", v)
	assert.Equal(t, Pod{}, *pod)

	other, _ := Lookup("Pod")
	assert.NotSame(t, pod, other, "every call returns a new value")
}

func TestLookupUnknown(t *testing.T) {
	for _, name := range []string{"", "pod", "Quantity", "Nope"} {
		_, ok := Lookup(name)
		assert.False(t, ok, name)
		_, ok = TypeOf(name)
		assert.False(t, ok, name)
	}
}

func TestTypeOf(t *testing.T) {
	for _, name := range Names() {
		typ, ok := TypeOf(name)
		require.True(t, ok, name)
		assert.Equal(t, reflect.Struct, typ.Kind(), name)
		assert.Equal(t, name, typ.Name())
		v, _ := Lookup(name)
		assert.Equal(t, reflect.PointerTo(typ), reflect.TypeOf(v), name)
	}
}

func TestIndexRejectsADuplicate(t *testing.T) {
	assert.PanicsWithValue(t, "exampletypes: type Pod registered twice", func() {
		index(reflect.TypeFor[Pod](), reflect.TypeFor[Service](), reflect.TypeFor[Pod]())
	})
}
