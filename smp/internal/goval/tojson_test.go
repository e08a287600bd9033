package goval_test

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// TestToJSONValueTable: each value of the table becomes what json.Marshal
// writes, decoded with UseNumber; its fields and elements too, through
// ToJSONValue and ListToJSON.
func TestToJSONValueTable(t *testing.T) {
	root := rootOf(t)
	for name, v := range trickyTable() {
		want := decodeJSON(t, v)
		got, err := goval.ToJSONValue(reflect.ValueOf(v), root.Node, false)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: ToJSONValue differs from encoding/json (-want +got):\n%s", name, diff)
		}
		got, err = goval.ToJSONValue(reflect.ValueOf(&v), root.Node, false)
		if err != nil || !cmp.Equal(want, got) {
			t.Errorf("%s: through a pointer: %v, %v", name, got, err)
		}
		if v.Inners != nil {
			l, err := goval.ListToJSON(reflect.ValueOf(v.Inners), root.Node.ByName["inners"].Node)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(decodeJSON(t, v.Inners), any(l)); diff != "" {
				t.Errorf("%s: ListToJSON (-want +got):\n%s", name, diff)
			}
		}
	}
}

// TestToJSONValueRefusesNonNumbers: NaN and infinities have no JSON, as
// json.Marshal says, in a typed field and in an untyped one.
func TestToJSONValueRefusesNonNumbers(t *testing.T) {
	root := rootOf(t)
	for _, v := range []tricky{{F: math.NaN()}, {F: math.Inf(1)}, {F: math.Inf(-1)}, {Any: math.NaN()},
		{Any: []any{math.Inf(1)}}, {Num: json.Number("1x")}} {
		if _, err := json.Marshal(v); err == nil {
			t.Fatalf("encoding/json accepts %+v", v)
		}
		if j, err := goval.ToJSONValue(reflect.ValueOf(v), root.Node, false); err == nil {
			t.Errorf("%+v converts to %v", v, j)
		}
	}
}

// TestFromJSONValueTable: the JSON of each value decodes as json.Unmarshal
// decodes it, into a zero value.
func TestFromJSONValueTable(t *testing.T) {
	root := rootOf(t)
	for name, v := range trickyTable() {
		want := roundTrip(t, v)
		got := reflect.New(reflect.TypeFor[tricky]()).Elem()
		if err := goval.FromJSONValue(got, decodeJSON(t, v), root.Node, false, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, got.Interface(), cmp.AllowUnexported(tricky{})); diff != "" {
			t.Errorf("%s: FromJSONValue differs from json.Unmarshal (-want +got):\n%s", name, diff)
		}
	}
}

// TestFromJSONValueRefuses: JSON json.Unmarshal refuses for tricky is
// refused, the error naming where.
func TestFromJSONValueRefuses(t *testing.T) {
	root := rootOf(t)
	for _, c := range []struct{ doc, at string }{
		{`{"i":"1"}`, "i: "}, {`{"q":1}`, "q: "}, {`{"q":"x"}`, "q: "}, {`{"list":{}}`, "list: "},
		{`{"intKeys":{"a":"b"}}`, "intKeys.a: "}, {`{"uintKeys":{"256":"b"}}`, "uintKeys.256: "},
		{`{"bytes":"%%"}`, "bytes: "}, {`{"ptr":{"n":1.5}}`, "ptr.n: "}, {`{"b":"true"}`, "b: "},
		{`{"inners":[{},{"p":1}]}`, "inners[1].p: "},
	} {
		if err := json.Unmarshal([]byte(c.doc), new(tricky)); err == nil {
			t.Fatalf("encoding/json accepts %s", c.doc)
		}
		d := json.NewDecoder(strings.NewReader(c.doc))
		d.UseNumber()
		var x any
		if err := d.Decode(&x); err != nil {
			t.Fatal(err)
		}
		dst := reflect.New(reflect.TypeFor[tricky]()).Elem()
		err := goval.FromJSONValue(dst, x, root.Node, false, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.at) {
			t.Errorf("%s decodes to %+v, error %v; want an error at %q", c.doc, dst.Interface(), err, c.at)
		}
	}
}

// TestMapKeyText: a key is written as encoding/json writes it.
func TestMapKeyText(t *testing.T) {
	root := rootOf(t)
	keys := []struct {
		field string
		m     any
	}{
		{"intKeys", map[int]string{-3: ""}},
		{"intKeys", map[int]string{math.MinInt: ""}},
		{"uintKeys", map[uint8]string{255: ""}},
		{"textKeys", map[textKey]int{{"a", "<b>"}: 0}},
		{"textKeys", map[textKey]int{{"\xff", "é"}: 0}},
		{"map", map[string]int{"\xff<\u2028": 0}},
	}
	for _, c := range keys {
		m := reflect.ValueOf(c.m)
		k := m.MapKeys()[0]
		var want string
		for w := range decodeJSON(t, c.m).(map[string]any) {
			want = w
		}
		got, err := goval.MapKeyText(k, root.Node.ByName[c.field].Node)
		if err != nil || got != want {
			t.Errorf("MapKeyText(%v) = %q, %v; encoding/json writes %q", k, got, err, want)
		}
	}
}
