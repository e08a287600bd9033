package jsonval

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// TestAppendJSONMatchesEncodingJSON: the engine's writer prints exactly
// what encoding/json prints for the same decoded value.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		raw := rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")
		v := map[string]any{s: []any{s, string(raw), json.Number("12.5e3"), true, false, nil, map[string]any{}}, "<&>": "\u2028\u2029\b\f\x00"}
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
