package goval

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/reflectschema"
)

func nodeFor(t *testing.T, typ reflect.Type) *Node {
	t.Helper()
	st, err := reflectschema.Of(typ)
	require.NoError(t, err)
	return planOf(st)
}

// TestListsWithinCompiled: the API types' list-length limit is read from
// memory, and tells a long list from short ones wherever it sits.
func TestListsWithinCompiled(t *testing.T) {
	n := nodeFor(t, reflect.TypeFor[exampletypes.Deployment]())
	require.True(t, n.lens.ok, "the Deployment's check is compiled")
	d := exampletypes.Deployment{}
	d.Spec.Template.Spec.Containers = []exampletypes.Container{{Name: "a"}, {Name: "b", Args: []string{"x", "y"}}}
	v := reflect.ValueOf(&d).Elem()
	assert.True(t, listsWithin(v, n, 2))
	assert.False(t, listsWithin(v, n, 1), "two containers")
	d.Spec.Template.Spec.Containers[1].Args = append(d.Spec.Template.Spec.Containers[1].Args, "z")
	assert.False(t, listsWithin(v, n, 2), "three args in the second container")
	assert.False(t, listsWithin(reflect.ValueOf(d), n, 10), "no memory to read: the walk decides")
}

// TestListsWithinLeftToWalk: maps and untyped values are not compiled.
func TestListsWithinLeftToWalk(t *testing.T) {
	type withMap struct {
		M map[string][]string `json:"m"`
	}
	type withAny struct {
		A any `json:"a"`
	}
	type plain struct {
		S string            `json:"s"`
		M map[string]string `json:"m"`
	}
	assert.False(t, nodeFor(t, reflect.TypeFor[withMap]()).lens.ok)
	assert.False(t, nodeFor(t, reflect.TypeFor[withAny]()).lens.ok)
	p := nodeFor(t, reflect.TypeFor[plain]())
	assert.True(t, p.lens.ok)
	assert.Nil(t, p.lens.check, "no list to check")
}
