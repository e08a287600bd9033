package openapischema_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/openapischema"
	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// Every fixtures type, written out as OpenAPI v3 by reflectschema.OpenAPI
// and read back, gives the schema reflectschema builds from the Go type:
// the same kinds, fields and patch metadata everywhere, Go types aside.
func TestFixturesRoundTrip(t *testing.T) {
	names := exampletypes.Names()
	require.NotEmpty(t, names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			typ, ok := exampletypes.TypeOf(name)
			require.True(t, ok)
			want, err := rs.Of(typ)
			require.NoError(t, err)
			root, schemas := rs.OpenAPI(want)
			doc, err := json.Marshal(map[string]any{
				"openapi": "3.0.0", "components": map[string]any{"schemas": schemas},
			})
			require.NoError(t, err)
			s, err := openapischema.Read(doc)
			require.NoError(t, err)
			got := s.Definition(root)
			require.NotNil(t, got, root)
			sameSchema(t, want, got, name, map[[2]*rs.Type]bool{})
		})
	}
}

// sameSchema compares a schema built from Go types with one read from
// OpenAPI. A list of lists is atomic in both; only the Go one keeps its
// element type.
func sameSchema(t *testing.T, want, got *rs.Type, path string, seen map[[2]*rs.Type]bool) {
	t.Helper()
	if seen[[2]*rs.Type{want, got}] {
		return
	}
	seen[[2]*rs.Type{want, got}] = true
	require.NotNil(t, got, path)
	require.Equal(t, want.Kind, got.Kind, "%s: kind", path)
	assert.Nil(t, got.Go, path)
	switch want.Kind {
	case rs.Scalar:
		typ, format := jsonType(want.Go)
		assert.Equal(t, typ, got.JSONType, "%s: JSON type", path)
		assert.Equal(t, format, got.Format, "%s: format", path)
	case rs.List, rs.Map:
		sameSchema(t, want.Elem, got.Elem, path+"[]", seen)
	case rs.Struct:
		var wantNames, gotNames []string
		for _, f := range want.Fields {
			wantNames = append(wantNames, f.Name)
		}
		for _, f := range got.Fields {
			gotNames = append(gotNames, f.Name)
		}
		slices.Sort(wantNames)
		require.Equal(t, wantNames, gotNames, "%s: fields", path)
		for _, wf := range want.Fields {
			gf := got.Field(wf.Name)
			assert.Equal(t, wf.Patch, gf.Patch, "%s.%s: patch metadata", path, wf.Name)
			sameSchema(t, wf.Type, gf.Type, path+"."+wf.Name, seen)
		}
	}
}

// jsonType is the OpenAPI type and format Kubernetes publishes for a Go
// scalar kind.
func jsonType(t reflect.Type) (typ, format string) {
	switch t.Kind() {
	case reflect.Bool:
		return rs.JSONBoolean, ""
	case reflect.String:
		return rs.JSONString, ""
	case reflect.Slice:
		return rs.JSONString, "byte"
	case reflect.Float32:
		return rs.JSONNumber, "float"
	case reflect.Float64:
		return rs.JSONNumber, "double"
	case reflect.Int32:
		return rs.JSONInteger, "int32"
	case reflect.Int64, reflect.Int:
		return rs.JSONInteger, "int64"
	}
	return rs.JSONInteger, ""
}
