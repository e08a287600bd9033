package reflectschema_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

type ovDeployment struct {
	Name     string `json:"name"`
	Replicas *int32 `json:"replicas,omitempty"`
}

func TestOfValueOfStructs(t *testing.T) {
	want := mustFor[ovDeployment](t)
	d := ovDeployment{Name: "web"}
	pd := &d
	for _, v := range []any{d, &d, &pd, (*ovDeployment)(nil)} {
		st, err := reflectschema.OfValue(v)
		require.NoError(t, err, "%T", v)
		assert.Same(t, want, st, "%T", v)
	}
}

func TestOfValueOfASchema(t *testing.T) {
	want := mustFor[ovDeployment](t)
	st, err := reflectschema.OfValue(want)
	require.NoError(t, err)
	assert.Same(t, want, st)

	// A *Type is returned as it is, whatever it describes.
	list := mustFor[[]ovDeployment](t)
	st, err = reflectschema.OfValue(list)
	require.NoError(t, err)
	assert.Same(t, list, st)

	// A nil *Type is no schema (and not the schema of reflectschema.Type).
	st, err = reflectschema.OfValue((*reflectschema.Type)(nil))
	assert.Nil(t, st)
	var e *reflectschema.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, reflectschema.RuleNotStruct, e.Rule)
}

func TestOfValueOfNonStructs(t *testing.T) {
	tests := []struct {
		v    any
		kind string
	}{
		{42, "scalar"},
		{"text", "scalar"},
		{[]byte("raw"), "scalar"},
		{[]string{"a"}, "list"},
		{map[string]any{"a": 1}, "map"},
		{time.Time{}, "atomic"},
		{json.RawMessage(`{}`), "atomic"},
		{[][]int{}, "atomic"},
	}
	for _, tt := range tests {
		typ := reflect.TypeOf(tt.v)
		st, err := reflectschema.OfValue(tt.v)
		assert.Nil(t, st, "%v", typ)
		var e *reflectschema.Error
		require.ErrorAs(t, err, &e, "%v", typ)
		assert.Equal(t, reflectschema.RuleNotStruct, e.Rule, "%v", typ)
		assert.Equal(t, typ, e.Type)
		assert.Empty(t, e.Field)
		assert.Contains(t, err.Error(), typ.String())
		assert.Contains(t, err.Error(), tt.kind)
	}

	st, err := reflectschema.OfValue(nil)
	assert.Nil(t, st)
	var e *reflectschema.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, reflectschema.RuleNotStruct, e.Rule)

	// A type that cannot be encoded reports that, not its kind.
	_, err = reflectschema.OfValue(make(chan int))
	require.ErrorAs(t, err, &e)
	assert.Equal(t, reflectschema.RuleUnsupported, e.Rule)
}
