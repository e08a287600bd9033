package reflectschema_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// mustFor returns the schema of T, failing the test if it cannot be built.
func mustFor[T any](t *testing.T) *reflectschema.Type {
	t.Helper()
	st, err := reflectschema.For[T]()
	require.NoError(t, err)
	require.NotNil(t, st)
	return st
}

// fieldNames returns the JSON names of a struct schema's fields, in order.
func fieldNames(st *reflectschema.Type) []string {
	var names []string
	for _, f := range st.Fields {
		names = append(names, f.Name)
	}
	return names
}

// requireRuleError asserts that err is a *reflectschema.Error (seen
// through errors.As) for field goField of struct type owner breaking rule,
// and that its message names both the struct type and the field.
func requireRuleError(t *testing.T, err error, owner reflect.Type, goField string, rule reflectschema.Rule) *reflectschema.Error {
	t.Helper()
	require.Error(t, err)
	var e *reflectschema.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, rule, e.Rule, "rule of %q", err)
	assert.Equal(t, owner, e.Type, "type of %q", err)
	assert.Equal(t, goField, e.Field, "field of %q", err)
	want := "reflectschema: " + owner.String()
	if goField != "" {
		want += "." + goField
	}
	assert.True(t, strings.HasPrefix(err.Error(), want+": "), "%q should start with %q", err, want+": ")
	return e
}

// fillDistinct sets every settable string, integer and boolean reachable
// from v to a value no other field gets, and gives nil pointers, slices,
// string-keyed maps and empty interfaces a value, up to a few levels deep
// (so that recursive types end). A JSON encoding of the
// result then holds every field, omitempty or not, and tells which Go
// field a JSON value came from.
func fillDistinct(v reflect.Value, n *int, depth int) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			if !v.CanSet() || depth > 3 {
				return
			}
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillDistinct(v.Elem(), n, depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			fillDistinct(v.Field(i), n, depth)
		}
	case reflect.Slice:
		if v.IsNil() && v.CanSet() && depth <= 3 {
			e := reflect.New(v.Type().Elem()).Elem()
			fillDistinct(e, n, depth+1)
			v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, 1), e))
		}
	case reflect.Map:
		if v.IsNil() && v.CanSet() && depth <= 3 && v.Type().Key().Kind() == reflect.String {
			k := reflect.New(v.Type().Key()).Elem()
			*n++
			k.SetString(fmt.Sprintf("k%d", *n))
			e := reflect.New(v.Type().Elem()).Elem()
			fillDistinct(e, n, depth+1)
			m := reflect.MakeMap(v.Type())
			m.SetMapIndex(k, e)
			v.Set(m)
		}
	case reflect.Interface:
		if v.IsNil() && v.CanSet() && v.NumMethod() == 0 {
			*n++
			v.Set(reflect.ValueOf(fmt.Sprintf("v%d", *n)))
		}
	case reflect.String:
		if v.CanSet() {
			*n++
			v.SetString(fmt.Sprintf("v%d", *n))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.CanSet() {
			*n++
			v.SetInt(int64(*n))
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(true)
		}
	}
}

// distinctJSON fills a new T with fillDistinct and returns it with its
// encoding/json encoding decoded one level deep.
func distinctJSON[T any](t *testing.T) (reflect.Value, map[string]json.RawMessage) {
	t.Helper()
	v := reflect.New(reflect.TypeFor[T]()).Elem()
	n := 0
	fillDistinct(v, &n, 0)
	data, err := json.Marshal(v.Interface())
	require.NoError(t, err)
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &obj))
	return v, obj
}

// requireMatchesEncodingJSON checks the schema of struct type T against
// encoding/json: a filled value encodes to exactly the schema's field
// names, and each name holds the value found at that field's Index (so the
// schema picked the same Go field encoding/json did).
func requireMatchesEncodingJSON[T any](t *testing.T) *reflectschema.Type {
	t.Helper()
	st := mustFor[T](t)
	v, obj := distinctJSON[T](t)
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	names := slices.Sorted(slices.Values(fieldNames(st)))
	require.Equal(t, keys, names, "encoding/json keys vs schema field names")
	for _, f := range st.Fields {
		fv, err := v.FieldByIndexErr(f.Index)
		require.NoError(t, err, "field %s index %v", f.GoName, f.Index)
		assert.Equal(t, f.GoType, fv.Type(), "field %s: GoType vs type at Index", f.GoName)
		if f.Quoted || !fv.CanInterface() {
			continue
		}
		want, err := json.Marshal(fv.Interface())
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(obj[f.Name]), "field %q: value at Index %v (%s)", f.Name, f.Index, f.GoName)
	}
	return st
}
