package goval_test

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// The table tests of this package check goval against encoding/json on
// values chosen by hand; the properties below check the same contracts on
// generated values of tricky, whose every field is a case where
// encoding/json's output is not the obvious one.

// wireString draws a string that is often not valid UTF-8.
func wireString(t *rapid.T, label string) string {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"", "a", "é", "\xff", "a\xc3", "\xed\xa0\x80", "<&>", "\u2028"}),
		rapid.StringN(0, 4, -1),
		rapid.Custom(func(t *rapid.T) string { return string(rapid.SliceOfN(rapid.Byte(), 0, 4).Draw(t, "b")) }),
	).Draw(t, label)
}

// finite draws a float json.Marshal accepts, -0 and extremes included.
func finite(t *rapid.T, label string) float64 {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, -1.5, 1e21, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64}),
		rapid.Float64Range(-1e6, 1e6),
	).Draw(t, label)
}

// maybe draws a value or its zero.
func maybe[V any](t *rapid.T, label string, g func(*rapid.T, string) V) V {
	var zero V
	if rapid.Bool().Draw(t, label+"?") {
		return g(t, label)
	}
	return zero
}

func strings3(t *rapid.T, label string) []string {
	if rapid.IntRange(0, 3).Draw(t, label+"#") == 0 {
		return nil
	}
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string { return wireString(t, "s") }), 0, 3).Draw(t, label)
}

func intMap(t *rapid.T, label string) map[string]int {
	if rapid.IntRange(0, 3).Draw(t, label+"#") == 0 {
		return nil
	}
	return rapid.MapOfN(rapid.Custom(func(t *rapid.T) string { return wireString(t, "k") }), rapid.IntRange(-2, 2), 0, 3).Draw(t, label)
}

func innerOf(t *rapid.T, label string) inner {
	return inner{N: rapid.IntRange(-1, 1).Draw(t, label+".n"), P: maybe(t, label+".p", func(t *rapid.T, l string) *string { s := wireString(t, l); return &s })}
}

func anyOf(t *rapid.T, label string) any {
	switch rapid.IntRange(0, 6).Draw(t, label) {
	case 1:
		return wireString(t, label+".s")
	case 2:
		return rapid.IntRange(-3, 3).Draw(t, label+".i")
	case 3:
		return finite(t, label+".f")
	case 4:
		return []any{wireString(t, label+".e"), nil, true}
	case 5:
		return map[string]any{wireString(t, label+".k"): []any{}}
	case 6:
		in := innerOf(t, label+".struct")
		return &in
	}
	return nil
}

// genTricky draws a tricky value.
var genTricky = rapid.Custom(func(t *rapid.T) tricky {
	v := tricky{
		Inline:   Inline{In: maybe(t, "in", wireString), Shadow: rapid.IntRange(-1, 1).Draw(t, "ishadow")},
		Shadow:   maybe(t, "shadow", wireString),
		S:        maybe(t, "s", wireString),
		I:        rapid.IntRange(-2, 2).Draw(t, "i"),
		F:        maybe(t, "f", finite),
		G:        finite(t, "g"),
		B:        rapid.Bool().Draw(t, "b"),
		Q:        rapid.Int64().Draw(t, "q"),
		QS:       maybe(t, "qs", wireString),
		QB:       rapid.Bool().Draw(t, "qb"),
		List:     strings3(t, "list"),
		ListOE:   strings3(t, "listOE"),
		Map:      intMap(t, "map"),
		MapOE:    intMap(t, "mapOE"),
		Any:      anyOf(t, "any"),
		Dash:     maybe(t, "dash", wireString),
		skip:     maybe(t, "skip", wireString),
		PtrNull:  maybe(t, "ptrNull", func(t *rapid.T, l string) *inner { in := innerOf(t, l); return &in }),
		Ptr:      maybe(t, "ptr", func(t *rapid.T, l string) *inner { in := innerOf(t, l); return &in }),
		IntKeys:  rapid.MapOfN(rapid.IntRange(-3, 3), rapid.Just("x"), 0, 2).Draw(t, "intKeys"),
		UintKeys: rapid.MapOfN(rapid.Uint8(), rapid.Just("y"), 0, 2).Draw(t, "uintKeys"),
	}
	if rapid.Bool().Draw(t, "bytes?") {
		v.Bytes = rapid.SliceOfN(rapid.Byte(), 0, 3).Draw(t, "bytes")
	}
	if rapid.Bool().Draw(t, "textKeys?") {
		v.TextKeys = map[textKey]int{{A: wireString(t, "ta"), B: "b"}: 1}
	}
	if rapid.Bool().Draw(t, "num?") {
		v.Num = json.Number(rapid.SampledFrom([]string{"0", "-1", "1.5e3", "12345678901234567890"}).Draw(t, "num"))
	}
	for range rapid.IntRange(0, 2).Draw(t, "inners") {
		v.Inners = append(v.Inners, innerOf(t, "inner"))
	}
	return v
})

// mustJSON is json.Marshal's output for v.
func mustJSON(t *rapid.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	return b
}

// TestGeneratedToJSON: ToJSONValue is what encoding/json writes, and
// FromJSONValue of it is what json.Unmarshal makes of that.
func TestGeneratedToJSON(t *testing.T) {
	root := rootOf(t)
	rapid.Check(t, func(t *rapid.T) {
		v := genTricky.Draw(t, "v")
		b := mustJSON(t, v)
		want := decodeJSON(t, v)
		j, err := goval.ToJSONValue(reflect.ValueOf(v), root.Node, false)
		if err != nil {
			t.Fatalf("ToJSONValue: %v (json.Marshal wrote %s)", err, b)
		}
		if diff := cmp.Diff(want, j); diff != "" {
			t.Fatalf("ToJSONValue differs from encoding/json (-want +got):\n%s", diff)
		}
		wantBack := roundTrip(t, v)
		back := reflect.New(reflect.TypeFor[tricky]()).Elem()
		if err := goval.FromJSONValue(back, j, root.Node, false, nil); err != nil {
			t.Fatalf("FromJSONValue: %v", err)
		}
		if diff := cmp.Diff(wantBack, back.Interface(), cmp.AllowUnexported(tricky{})); diff != "" {
			t.Fatalf("FromJSONValue differs from json.Unmarshal (-want +got):\n%s", diff)
		}
	})
}

// TestGeneratedEqual: Equal is "encodes to the same JSON";
// SameMemory never says equal where the JSON differs, nor DeepEqualGo
// where the JSON or reflect.DeepEqual does.
func TestGeneratedEqual(t *testing.T) {
	root := rootOf(t)
	rapid.Check(t, func(t *rapid.T) {
		a := genTricky.Draw(t, "a")
		var b tricky
		switch rapid.IntRange(0, 2).Draw(t, "b is") {
		case 0:
			b = genTricky.Draw(t, "b")
		case 1: // encodes alike, differs in Go where JSON loses something
			b = roundTrip(t, a)
		case 2: // a shallow copy with one field drawn again
			b = a
			c := genTricky.Draw(t, "c")
			f := rapid.IntRange(0, reflect.TypeFor[tricky]().NumField()-1).Draw(t, "field")
			if reflect.TypeFor[tricky]().Field(f).IsExported() {
				reflect.ValueOf(&b).Elem().Field(f).Set(reflect.ValueOf(c).Field(f))
			}
		}
		sameJSON := reflect.DeepEqual(decodeJSON(t, a), decodeJSON(t, b))
		s := goval.GetScratch()
		defer goval.PutScratch(s)
		av, bv := reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem()
		if got := s.Equal(av, bv, root.Node); got != sameJSON {
			t.Fatalf("Equal = %v; the same JSON: %v", got, sameJSON)
		}
		if got := s.Equal(reflect.ValueOf(a), reflect.ValueOf(b), root.Node); got != sameJSON {
			t.Fatalf("Equal (through reflect) = %v; the same JSON: %v", got, sameJSON)
		}
		if s.SameMemory(av, bv, root.Node) && !sameJSON {
			t.Fatal("SameMemory of values whose JSON differs")
		}
		// DeepEqualGo may answer false when unsure (0 and -0 under
		// omitempty, say), never true for values that differ.
		if goval.DeepEqualGo(av, bv, 0) && !(sameJSON && reflect.DeepEqual(a, b)) {
			t.Fatalf("DeepEqualGo of values that differ (the same JSON: %v)", sameJSON)
		}
	})
}

// TestGeneratedCopy: a copy is the JSON round trip of its source and
// shares no map, slice or pointer with it.
func TestGeneratedCopy(t *testing.T) {
	root := rootOf(t)
	rapid.Check(t, func(t *rapid.T) {
		v := genTricky.Draw(t, "v")
		want := roundTrip(t, v)
		src := reflect.ValueOf(&v).Elem()
		dst := reflect.New(src.Type()).Elem()
		var c goval.Copier
		err := c.CopyValue(dst, src, root.Node)
		c.Release()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, dst.Interface(), cmp.AllowUnexported(tricky{})); diff != "" {
			t.Fatalf("copy differs from a JSON round trip (-want +got):\n%s", diff)
		}
		if p, ok := shared(src, dst); ok {
			t.Fatalf("copy shares %s with its source", p)
		}
	})
}

// TestGeneratedWireStrings: WireString is a string's JSON round trip;
// SameWireString compares two strings' JSON, SameQuotedString their JSON
// under the ",string" option.
func TestGeneratedWireStrings(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := wireString(t, "a"), wireString(t, "b")
		var back string
		if err := json.Unmarshal(mustJSON(t, a), &back); err != nil {
			t.Fatal(err)
		}
		if got := goval.WireString(a); got != back {
			t.Fatalf("WireString(%q) = %q, the JSON round trip gives %q", a, got, back)
		}
		if got, want := goval.SameWireString(a, b), decodeJSON(t, a) == decodeJSON(t, b); got != want {
			t.Fatalf("SameWireString(%q, %q) = %v, want %v", a, b, got, want)
		}
		type quoted struct {
			S string `json:"s,string"`
		}
		if got, want := goval.SameQuotedString(a, b), reflect.DeepEqual(decodeJSON(t, quoted{a}), decodeJSON(t, quoted{b})); got != want {
			t.Fatalf("SameQuotedString(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}

// TestGeneratedMapKeys: MapKeyFromText decodes a key, or refuses it, as
// json.Unmarshal does for a map of that key type.
func TestGeneratedMapKeys(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[map[string]int](), reflect.TypeFor[map[int8]int](),
		reflect.TypeFor[map[uint16]int](), reflect.TypeFor[map[int]int](),
		reflect.TypeFor[map[textKey]int](),
	}
	rapid.Check(t, func(t *rapid.T) {
		mt := rapid.SampledFrom(types).Draw(t, "type")
		k := rapid.OneOf(
			rapid.SampledFrom([]string{"0", "-0", "127", "128", "-129", "65535", "65536", "01", "+1", "1e2", " 1", "a/b", "x", ""}),
			rapid.Custom(func(t *rapid.T) string { return wireString(t, "k") }),
		).Draw(t, "key")
		doc, err := json.Marshal(map[string]int{k: 1})
		if err != nil {
			t.Fatal(err)
		}
		m := reflect.New(mt)
		wantErr := json.Unmarshal(doc, m.Interface())
		got, err := goval.MapKeyFromText(goval.WireString(k), mt.Key(), nil)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("key %q into %v: MapKeyFromText error %v, json.Unmarshal error %v", k, mt, err, wantErr)
		}
		if err != nil {
			return
		}
		keys := m.Elem().MapKeys()
		if len(keys) != 1 || !reflect.DeepEqual(keys[0].Interface(), got.Interface()) {
			t.Fatalf("key %q into %v: MapKeyFromText gives %#v, json.Unmarshal %v", k, mt, got.Interface(), keys)
		}
	})
}
