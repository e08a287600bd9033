package engine_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// TestObjectDirectivesFirst checks that an object's $patch and
// $retainKeys are read before its other keys: an object deleted is gone
// whatever else it holds, and a bad $patch or $retainKeys is the error
// reported over a bad key beside it.
func TestObjectDirectivesFirst(t *testing.T) {
	type Inner struct {
		X string `json:"x,omitempty"`
	}
	type Outer struct {
		Inner *Inner `json:"inner,omitempty" patchStrategy:"retainKeys"`
	}
	typ, err := reflectschema.Of(reflect.TypeFor[Outer]())
	require.NoError(t, err)
	cfg := &engine.Config{Directives: format.DirectivesAll, Limits: jsonval.DefaultLimits().Bounded()}
	live := map[string]any{"inner": map[string]any{"x": "a"}}
	apply := func(inner map[string]any) (map[string]any, error) {
		return engine.ApplyObject(live, map[string]any{"inner": inner}, reflectschema.Slot{Type: typ}, cfg)
	}

	res, err := apply(map[string]any{"$patch": "delete", "$bogus": 1.0})
	require.NoError(t, err)
	require.Equal(t, map[string]any{}, res)

	cases := []struct {
		inner map[string]any
		kind  errpath.ErrorKind
		path  string
	}{
		{map[string]any{"$patch": "merge", "$bogus": 1.0}, errpath.ErrInvalidDirective, "inner.$patch"},
		{map[string]any{"$retainKeys": "x", "$bogus": 1.0}, errpath.ErrInvalidDirective, "inner.$retainKeys"},
		{map[string]any{"$retainKeys": []any{}, "x": "b", "$bogus": 1.0}, errpath.ErrRetainKeys, "inner.$bogus"},
		{map[string]any{"$retainKeys": []any{"x", "$bogus"}, "$bogus": 1.0}, errpath.ErrUnknownDirective, "inner.$bogus"},
	}
	for _, c := range cases {
		_, err := apply(c.inner)
		require.Error(t, err, "%v", c.inner)
		require.Equal(t, c.kind, errpath.KindOf(err), "%v: %v", c.inner, err)
		require.Equal(t, c.path, err.(*errpath.Error).Path.String(), "%v: %v", c.inner, err)
	}
}
