package goval_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// fatalT is what the helpers below need of a test: *testing.T or a
// property's *rapid.T.
type fatalT interface {
	Helper()
	Fatal(args ...any)
}

// decodeJSON is what encoding/json makes of v, decoded with UseNumber:
// two values encode to the same JSON exactly when these are deeply equal.
func decodeJSON(t fatalT, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestJSONAsEncodingJSON checks that a Go value becomes the JSON
// encoding/json writes, and that the JSON becomes an equal Go value, for
// a populated sample of every fixtures type.
func TestJSONAsEncodingJSON(t *testing.T) {
	for _, name := range exampletypes.Names() {
		p, _ := fixtures.Sample(name)
		v := reflect.ValueOf(p).Elem().Interface()
		typ := reflect.TypeOf(v)
		root, err := goval.RootFor(typ)
		if err != nil {
			t.Fatal(err)
		}
		j, err := goval.ToJSONValue(reflect.ValueOf(v), root.Node, false)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(decodeJSON(t, v), j); diff != "" {
			t.Fatalf("%v: ToJSONValue differs from encoding/json (-want +got):\n%s", typ, diff)
		}
		back := reflect.New(typ).Elem()
		if err := goval.FromJSONValue(back, j, root.Node, false, nil); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(v, back.Interface()); diff != "" {
			t.Fatalf("%v: FromJSONValue(ToJSONValue(v)) differs from v (-want +got):\n%s", typ, diff)
		}
	}
}
