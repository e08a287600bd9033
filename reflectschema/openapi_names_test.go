package reflectschema_test

import (
	"encoding/json"
	"math/rand"
	randv2 "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
)

// Two struct types that print alike (math/rand.Rand, math/rand/v2.Rand)
// get schemas of their own, named by package path; the slashes are
// escaped in the $ref, which resolves.
type oaTwoRands struct {
	V1 rand.Rand   `json:"v1"`
	V2 randv2.Rand `json:"v2"`
	P  oaPort      `json:"p"`
}

func TestOpenAPISharedShortNames(t *testing.T) {
	root, schemas := reflectschema.OpenAPI(mustFor[oaTwoRands](t))
	assert.Contains(t, schemas, "math/rand.Rand")
	assert.Contains(t, schemas, "math/rand/v2.Rand")
	assert.NotContains(t, schemas, "rand.Rand")
	assert.Contains(t, schemas, "reflectschema_test.oaPort") // unique names stay short
	props := schemas[root]["properties"].(map[string]any)
	assert.Equal(t, map[string]any{"$ref": "#/components/schemas/math~1rand~1v2.Rand"}, props["v2"])

	s := readBack(t, schemas)
	require.NotNil(t, s.Definition("math/rand/v2.Rand"))
	assert.Equal(t, reflectschema.Struct, s.Definition(root).Field("v1").Type.Kind)
}

// Several roots share one set of schemas; each root's name is returned in
// order, a struct reached from two roots is written once.
func TestOpenAPISchemasSeveralRoots(t *testing.T) {
	names, schemas := reflectschema.OpenAPISchemas(mustFor[oaPod](t), mustFor[oaSpec](t), mustFor[[]oaPort](t))
	assert.Equal(t, []string{"reflectschema_test.oaPod", "reflectschema_test.oaSpec", "[]reflectschema_test.oaPort"}, names)
	assert.Len(t, schemas, 7) // six structs and the inline list root
}

// A schema without Go types (one read from a document, or built by hand)
// is written with its JSON types and formats and its names, two structs
// of one Name each get a schema, and reading the document back gives the
// same shape.
func TestOpenAPIWithoutGoTypes(t *testing.T) {
	str := &reflectschema.Type{Kind: reflectschema.Scalar, JSONType: reflectschema.JSONString}
	i32 := &reflectschema.Type{Kind: reflectschema.Scalar, JSONType: reflectschema.JSONInteger, Format: "int32"}
	b64 := &reflectschema.Type{Kind: reflectschema.Scalar, JSONType: reflectschema.JSONString, Format: "byte"}
	anyScalar := &reflectschema.Type{Kind: reflectschema.Scalar}
	item := &reflectschema.Type{Kind: reflectschema.Struct, Name: "Item", Fields: []*reflectschema.Field{
		{Name: "name", Type: str}, {Name: "port", Type: i32},
	}}
	other := &reflectschema.Type{Kind: reflectschema.Struct, Name: "Item", Fields: []*reflectschema.Field{{Name: "data", Type: b64}}}
	anon := &reflectschema.Type{Kind: reflectschema.Struct, Fields: []*reflectschema.Field{{Name: "x", Type: str}}}
	items := &reflectschema.Field{Name: "items", Type: &reflectschema.Type{Kind: reflectschema.List, Elem: item},
		Patch: reflectschema.PatchMeta{Strategy: reflectschema.Merge, MergeKey: []string{"name", "port"}}}
	root := &reflectschema.Type{Kind: reflectschema.Struct, Name: "Root", Fields: []*reflectschema.Field{
		items, {Name: "other", Type: other}, {Name: "anon", Type: anon}, {Name: "anyScalar", Type: anyScalar},
		{Name: "when", Type: &reflectschema.Type{Kind: reflectschema.Atomic, Name: "Time"}},
		{Name: "raw", Type: &reflectschema.Type{Kind: reflectschema.Untyped}},
	}}
	require.NoError(t, reflectschema.Seal(root))

	name, schemas := reflectschema.OpenAPI(root)
	assert.Equal(t, "Root", name)
	assert.ElementsMatch(t, []string{"Root", "Item", "Item_2", "object"}, keys(schemas))
	assert.Equal(t, map[string]any{"type": "integer", "format": "int32"}, schemas["Item"]["properties"].(map[string]any)["port"])

	got := readBack(t, schemas).Definition(name)
	require.NotNil(t, got)
	f := got.Field("items")
	assert.Equal(t, items.Patch, f.Patch)
	assert.Equal(t, "int32", f.Type.Elem.Field("port").Type.Format)
	assert.Equal(t, "byte", got.Field("other").Type.Field("data").Type.Format)
	assert.Equal(t, reflectschema.Atomic, got.Field("when").Type.Kind)
	assert.Equal(t, reflectschema.Untyped, got.Field("raw").Type.Kind)
	// OpenAPI has no type for "any scalar": it reads back as untyped JSON.
	assert.Equal(t, reflectschema.Untyped, got.Field("anyScalar").Type.Kind)
}

func readBack(t *testing.T, schemas map[string]map[string]any) *openapischema.Schemas {
	t.Helper()
	doc, err := json.Marshal(map[string]any{"openapi": "3.0.0", "components": map[string]any{"schemas": schemas}})
	require.NoError(t, err)
	s, err := openapischema.Read(doc)
	require.NoError(t, err)
	return s
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
