package jsonval

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// TestAppendJSONMatchesEncodingJSON: the engine's writer prints exactly
// what encoding/json prints for the same decoded value.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		raw := rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")
		v := map[string]any{s: []any{s, string(raw), json.Number("12.5e3"), true, false, nil, map[string]any{}}, "<&>": "\u2028\u2029\b\f\x00"}
		writesAsMarshal(t, v)
	})
}

// writesAsMarshal checks that AppendJSON writes v as json.Marshal does.
func writesAsMarshal(t *rapid.T, v map[string]any) {
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := AppendJSON(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// TestAppendJSONObjects: objects of any size (gathered on the stack up to
// eight members, on the heap beyond), nested, with keys that differ in
// escapes, case and prefix, print as encoding/json prints them.
func TestAppendJSONObjects(t *testing.T) {
	keys := rapid.OneOf(rapid.SampledFrom([]string{"", "a", "A", "ab", "a\"", "<", "é", "\u2028", "b", "aa"}), rapid.String())
	var value func(depth int) *rapid.Generator[any]
	value = func(depth int) *rapid.Generator[any] {
		scalars := rapid.OneOf(rapid.Just[any](nil), rapid.Just[any](true),
			rapid.Map(rapid.String(), func(s string) any { return s }),
			rapid.Map(rapid.Int(), func(i int) any { return json.Number(fmt.Sprint(i)) }))
		if depth == 0 {
			return scalars
		}
		return rapid.OneOf(scalars,
			rapid.Map(rapid.MapOfN(keys, value(depth-1), 0, 20), func(m map[string]any) any { return m }),
			rapid.Map(rapid.SliceOfN(value(depth-1), 0, 4), func(l []any) any { return l }))
	}
	rapid.Check(t, func(t *rapid.T) {
		writesAsMarshal(t, rapid.MapOfN(keys, value(2), 0, 20).Draw(t, "object"))
	})
}

// TestRawScanning: Expand, identities and skipping agree with decoding on
// awkward JSON (escapes, nesting, spacing).
func TestRawScanning(t *testing.T) {
	doc := []byte(" {\"a\\\"b\" : [ 1 , {\"k\":\"v\\\\\"}, \"]\" ] ,\n\"n\":-1.5e3,\"s\":\"\\u00e9\",\"o\":{}, \"l\":[]} ")
	raw, _, ok := ScanRaw(doc, DefaultLimits())
	if !ok {
		t.Fatal("valid document refused")
	}
	got, err := AppendJSON(nil, deepExpand(raw))
	if err != nil {
		t.Fatal(err)
	}
	v, err := DecodeObject(doc, "doc")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(v)
	if string(got) != string(want) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	for _, bad := range []string{`{"a":}`, `[1]`, "{\"a\":\"\xff\"}", `{"a":1} x`} {
		if _, _, ok := ScanRaw([]byte(bad), DefaultLimits()); ok {
			t.Errorf("scanRaw accepted %q", bad)
		}
	}
	if _, _, ok := ScanRaw([]byte(`{"a":[[[1]]]}`), Limits{MaxDepth: 2}); ok {
		t.Error("depth limit not enforced")
	}
	if _, _, ok := ScanRaw([]byte(`{"a":[1,2,3]}`), Limits{MaxListLength: 2}); ok {
		t.Error("list length limit not enforced")
	}
	if _, _, ok := ScanRaw([]byte(`{"a":[1,2]}`), Limits{MaxListLength: 2, MaxDepth: 1}); !ok {
		t.Error("document within limits refused")
	}
}

func deepExpand(v any) any {
	switch e := Expand(v).(type) {
	case map[string]any:
		for k, c := range e {
			e[k] = deepExpand(c)
		}
		return e
	case []any:
		for i, c := range e {
			e[i] = deepExpand(c)
		}
		return e
	default:
		return e
	}
}

// TestExpandNamed: a key the names know shares their string; a key
// written with escapes is decoded, even when its raw text is a known name.
func TestExpandNamed(t *testing.T) {
	known := map[string]string{"a": "a", `b\u0041`: `b\u0041`}
	name := func(k []byte) (string, bool) { s, ok := known[string(k)]; return s, ok }
	raw := Raw(`{"a":1,"b\u0041":2,"c":3}`)
	got := ExpandNamed(raw, name)
	want := Expand(raw).(map[string]any)
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if string(got[k].(Raw)) != string(v.(Raw)) {
			t.Errorf("key %q: got %v, want %v", k, got[k], v)
		}
	}
	for k := range got {
		if k == "a" && unsafe.StringData(k) != unsafe.StringData(known["a"]) {
			t.Error(`key "a" is a copy, not the known name`)
		}
	}
}

// TestAppendStringEveryByteEverywhere: each byte value, and each rune
// encoding/json escapes, at every position of strings short and long
// enough to be scanned a word at a time, prints as encoding/json prints
// it.
func TestAppendStringEveryByteEverywhere(t *testing.T) {
	const plain = "abcdefghijklmnopqrstuvwx"
	specials := []string{"", "\u2028", "\u2029", "é", "\xff", "\xe2\x80"}
	for c := range 256 {
		specials = append(specials, string([]byte{byte(c)}))
	}
	for _, sp := range specials {
		for i := 0; i <= len(plain); i++ {
			for j := i; j <= len(plain); j++ {
				checkString(t, plain[:i]+sp+plain[i:j])
			}
		}
	}
}

// checkString checks that AppendString writes s as json.Marshal does.
func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendString(nil, s); string(got) != string(want) {
		t.Fatalf("%q: got %s, want %s", s, got, want)
	}
}

// TestEncodeOwnsItsBytes: Encode's result is the caller's, whether it
// fitted the pooled buffer or outgrew it: a later Encode leaves it as it
// was.
func TestEncodeOwnsItsBytes(t *testing.T) {
	big := make([]any, 1000)
	for i := range big {
		big[i] = fmt.Sprintf("element %d of a long list", i)
	}
	for _, v := range []any{map[string]any{"a": "b"}, map[string]any{"l": big}} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Encode(map[string]any{"x": "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", "l": big}); err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("got  %.80s\nwant %.80s", got, want)
		}
	}
}

// TestAppendJSONSiblingObjects: lists of objects whose keys agree with
// the object before, in number or in full, or not at all (the writer
// reuses the keys of the one before), print as encoding/json prints them.
func TestAppendJSONSiblingObjects(t *testing.T) {
	keys := rapid.SampledFrom([]string{"a", "b", "c", "$patch", "name", "i", "j", "k", "l", "m"})
	var object func(depth int) *rapid.Generator[map[string]any]
	object = func(depth int) *rapid.Generator[map[string]any] {
		val := rapid.OneOf(rapid.Just[any]("x"), rapid.Map(rapid.Int(), func(i int) any { return json.Number(fmt.Sprint(i)) }))
		if depth > 0 {
			val = rapid.OneOf(val, rapid.Map(rapid.SliceOfN(object(depth-1), 0, 6), func(l []map[string]any) any {
				out := make([]any, len(l))
				for i, m := range l {
					out[i] = m
				}
				return out
			}))
		}
		return rapid.MapOfN(keys, val, 0, 10)
	}
	rapid.Check(t, func(t *rapid.T) {
		writesAsMarshal(t, object(2).Draw(t, "object"))
	})
}

// TestAppendJSONGeneralWay: objects print as encoding/json prints them
// the general way too (ranging and looking up), which runs where small
// maps cannot be read as groups.
func TestAppendJSONGeneralWay(t *testing.T) {
	readGroups = false
	defer func() { readGroups = true }()
	TestAppendJSONObjects(t)
	TestAppendJSONSiblingObjects(t)
}

// TestAppendSortedKeys: a map's keys, appended sorted after what dst
// holds, read from the group or by ranging.
func TestAppendSortedKeys(t *testing.T) {
	for _, groups := range []bool{true, false} {
		readGroups = groups
		rapid.Check(t, func(t *rapid.T) {
			keys := rapid.SliceOfNDistinct(rapid.String(), 0, 12, rapid.ID).Draw(t, "keys")
			m := map[string]any{}
			for _, k := range keys {
				m[k] = nil
			}
			got := AppendSortedKeys([]string{"\xff"}, m)
			want := append([]string{"\xff"}, keys...)
			slices.Sort(want[1:])
			if !slices.Equal(got, want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
	readGroups = true
}
