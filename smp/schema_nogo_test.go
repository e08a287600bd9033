package smp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rs "github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// jsonOps runs every operation of the JSON API, the map API included, on
// small documents with the given schema and returns their errors.
func jsonOps(schema any) map[string]error {
	doc, other := []byte(`{"a":"x","l":[{"k":"1"}]}`), []byte(`{"a":"y","l":[{"k":"2"}]}`)
	errs := map[string]error{}
	_, errs["StrategicMergePatch"] = smp.ApplyJSON(doc, other, schema)
	_, errs["ApplyJSON"] = smp.ApplyJSON(doc, other, schema)
	_, errs["CreateTwoWayMergePatch"] = smp.DiffJSON(doc, other, schema)
	_, errs["DiffJSON"] = smp.DiffJSON(doc, other, schema)
	_, errs["CreateThreeWayMergePatch"] = smp.ThreeWayJSON(doc, other, doc, schema, smp.WithOverwrite(false))
	_, errs["ThreeWayJSON"] = smp.ThreeWayJSON(doc, other, doc, schema)
	m, n := smp.JSONMap{"a": "x"}, smp.JSONMap{"a": "y"}
	_, errs["StrategicMergeMapPatch"] = smp.ApplyMap(m, n, schema)
	_, errs["CreateTwoWayMergeMapPatch"] = smp.DiffMap(m, n, schema)
	return errs
}

func str() *rs.Type { return &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONString} }

// An incomplete hand-built schema is an error of kind Schema from every
// operation, never a panic, and the message says where it is incomplete.
func TestIncompleteHandBuiltSchemas(t *testing.T) {
	field := func(name string, ft *rs.Type) *rs.Field { return &rs.Field{Name: name, Type: ft} }
	keyed := func(elem *rs.Type, keys ...string) *rs.Field {
		f := field("l", &rs.Type{Kind: rs.List, Elem: elem})
		f.Patch = rs.PatchMeta{Strategy: rs.Merge, MergeKey: keys}
		return f
	}
	cases := []struct {
		name   string
		schema *rs.Type
		msg    string
	}{
		{"struct not sealed", &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{field("a", str())}}, "reflectschema.Seal"},
		{"no kind", &rs.Type{}, "invalid kind 0"},
		{"unknown kind", &rs.Type{Kind: 42}, "invalid kind 42"},
		{"list without elem", &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{field("l", &rs.Type{Kind: rs.List})}}, "l: a list without an element type"},
		{"map without elem", &rs.Type{Kind: rs.Map}, "a map without an element type"},
		{"field without type", &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{field("a", nil)}}, "a: no type"},
		{"nil field", &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{nil}}, "field 0 is nil"},
		{"unnamed field", &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{field("", str())}}, "no name"},
		{"duplicate field", &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{field("a", str()), field("a", str())}}, `two fields named "a"`},
		{"unknown JSON type", &rs.Type{Kind: rs.Map, Elem: &rs.Type{Kind: rs.Scalar, JSONType: "text"}}, `[*]: unknown JSON type "text"`},
		{"merge key naming no field", &rs.Type{Kind: rs.Map, Elem: &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{
			keyed(&rs.Type{Kind: rs.Struct, Fields: []*rs.Field{field("k", str())}}, "name")}}}, `"name" is not a field`},
		{"root not an object", &rs.Type{Kind: rs.List, Elem: str()}, "not an object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name != "root not an object" && c.name != "struct not sealed" {
				// Sealing rejects it too, naming the same fault.
				err := rs.Seal(c.schema)
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.msg)
			}
			for op, err := range jsonOps(c.schema) {
				require.Error(t, err, op)
				assert.Equal(t, smp.ErrSchema, smp.KindOf(err), "%s: %v", op, err)
				assert.Contains(t, err.Error(), c.msg, op)
			}
		})
	}
}

// A sealed schema without Go types works like one from Go types: merge
// lists by key, values checked with paths.
func TestSealedSchemaWithoutGoTypes(t *testing.T) {
	elem := &rs.Type{Kind: rs.Struct, Name: "Item", Fields: []*rs.Field{
		{Name: "k", Type: str()},
		{Name: "n", Type: &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONInteger, Format: "int32"}},
		{Name: "on", Type: &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONBoolean}},
		{Name: "data", Type: &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONString, Format: "byte"}},
		{Name: "ratio", Type: &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONNumber, Format: "float"}},
	}}
	root := &rs.Type{Kind: rs.Struct, Name: "Root", Fields: []*rs.Field{
		{Name: "a", Type: str()},
		{Name: "l", Type: &rs.Type{Kind: rs.List, Elem: elem}, Patch: rs.PatchMeta{Strategy: rs.Merge, MergeKey: []string{"k"}}},
	}}
	require.NoError(t, rs.Seal(root))
	require.NoError(t, root.Validate())
	for op, err := range jsonOps(root) {
		assert.NoError(t, err, op)
	}

	got, err := smp.ApplyJSON([]byte(`{"l":[{"k":"1","n":1},{"k":"2"}]}`), []byte(`{"l":[{"k":"1","n":5}]}`), root)
	require.NoError(t, err)
	assert.JSONEq(t, `{"l":[{"k":"1","n":5},{"k":"2"}]}`, string(got))

	bad := []struct {
		patch, path, msg string
		kind             smp.ErrorKind
	}{
		{`{"a":1}`, "a", "expected a string for string, found a number", smp.ErrTypeMismatch},
		{`{"l":[{"k":"1","n":"5"}]}`, "l[k=1].n", "expected an integer for int32", smp.ErrTypeMismatch},
		{`{"l":[{"k":"1","n":2147483648}]}`, "l[k=1].n", "does not fit int32", smp.ErrInvalidValue},
		{`{"l":[{"k":"1","on":"yes"}]}`, "l[k=1].on", "expected a boolean", smp.ErrTypeMismatch},
		{`{"l":[{"k":"1","data":"%%"}]}`, "l[k=1].data", "not base64", smp.ErrInvalidValue},
		{`{"l":[{"k":"1","ratio":1e39}]}`, "l[k=1].ratio", "does not fit float", smp.ErrInvalidValue},
		{`{"l":{"k":"1"}}`, "l", "expected an array for array", smp.ErrTypeMismatch},
		{`{"l":[{"n":1}]}`, "l[0]", "", smp.ErrMissingMergeKey},
	}
	for _, c := range bad {
		_, err := smp.ApplyJSON([]byte(`{}`), []byte(c.patch), root)
		require.Error(t, err, c.patch)
		var e *smp.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, c.kind, e.Kind, "%s: %v", c.patch, err)
		assert.Equal(t, c.path, e.Path.String(), c.patch)
		assert.Contains(t, e.Msg, c.msg, c.patch)
	}
}

// A hand-built schema may reuse parts built from Go types; sealing leaves
// them as they are.
func TestSealMixesGoTypes(t *testing.T) {
	type item struct {
		K string `json:"k"`
		V int8   `json:"v"`
	}
	goItem, err := rs.For[item]()
	require.NoError(t, err)
	root := &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{
		{Name: "l", Type: &rs.Type{Kind: rs.List, Elem: goItem}, Patch: rs.PatchMeta{Strategy: rs.Merge, MergeKey: []string{"k"}}},
	}}
	require.NoError(t, rs.Seal(root))
	_, err = smp.ApplyJSON([]byte(`{}`), []byte(`{"l":[{"k":"a","v":300}]}`), root)
	assert.Equal(t, smp.ErrInvalidValue, smp.KindOf(err), "%v", err)
	got, err := smp.ApplyJSON([]byte(`{"l":[{"k":"a","v":1},{"k":"b","v":2}]}`), []byte(`{"l":[{"k":"b","v":3}]}`), root)
	require.NoError(t, err)
	assert.JSONEq(t, `{"l":[{"k":"a","v":1},{"k":"b","v":3}]}`, string(got))
}
