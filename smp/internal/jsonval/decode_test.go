package jsonval

import (
	"reflect"
	"testing"
)

// slowDecode is the path decodeFast stands in for: encoding/json, then
// the limits walk.
func slowDecode(data []byte, l Limits) (map[string]any, error) {
	m, err := DecodeObject(data, "doc")
	if err != nil {
		return nil, err
	}
	if err := CheckLimits(m, l, "doc"); err != nil {
		return nil, err
	}
	return m, nil
}

// checkDecode: decodeFast takes exactly the documents ScanRaw takes (valid
// JSON and UTF-8, an object, within the limits), and decodes each as
// encoding/json does; DecodeLimited answers as the slow path on any input.
func checkDecode(t *testing.T, data []byte, l Limits) {
	t.Helper()
	m, ok := decodeFast(data, l)
	if want := scanOracle(data, l); ok != want {
		t.Fatalf("decodeFast(%q, %+v) took it: %v; encoding/json says %v", data, l, ok, want)
	}
	want, wantErr := slowDecode(data, l)
	if ok && (wantErr != nil || !reflect.DeepEqual(m, want)) {
		t.Fatalf("decodeFast(%q) = %#v; encoding/json: %#v, %v", data, m, want, wantErr)
	}
	got, err := DecodeLimited(data, "doc", l)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() || !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeLimited(%q) = %#v, %v; encoding/json: %#v, %v", data, got, err, want, wantErr)
	}
}

// TestDecodeFastGrammar: the one-pass decoder agrees with encoding/json on
// the corners of JSON's grammar, of UTF-8 and of the limits.
func TestDecodeFastGrammar(t *testing.T) {
	for _, c := range grammarCases() {
		checkDecode(t, c.data, c.l)
	}
}

// TestDecodeFastOwnsItsValues: no decoded string shares the input's
// bytes, and no two containers share a backing array.
func TestDecodeFastOwnsItsValues(t *testing.T) {
	data := []byte(`{"k":"v","l":[["x"],["y"]],"m":{"n":"w"}}`)
	m, ok := decodeFast(data, Limits{})
	if !ok {
		t.Fatal("declined")
	}
	for i := range data {
		data[i] = 'z'
	}
	want := map[string]any{"k": "v", "l": []any{[]any{"x"}, []any{"y"}}, "m": map[string]any{"n": "w"}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("after the input changed: %#v", m)
	}
	l := m["l"].([]any)
	l[0].([]any)[0] = "changed"
	if l[1].([]any)[0] != "y" {
		t.Fatal("two lists share memory")
	}
}

// FuzzDecodeFast checks the one-pass decoder against encoding/json on any
// bytes and small limits.
func FuzzDecodeFast(f *testing.F) {
	for _, d := range []string{`{"a":[1,{"b":"\u00e9"}],"c":-1.5e3,"d":[true,false,null],"a":{}}`, "{\"a\":\"\xff\"}", `{"a":[[[]]]}`} {
		f.Add([]byte(d), uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, depth, length uint8) {
		checkDecode(t, data, Limits{})
		checkDecode(t, data, Limits{MaxDepth: int(depth % 5), MaxListLength: int(length % 5)})
	})
}

// TestDecodeFastSpacing: whitespace around and after commas, in indented
// and odd layouts, and trailing commas behind whitespace, are taken or
// declined as encoding/json takes them.
func TestDecodeFastSpacing(t *testing.T) {
	for _, d := range []string{
		"{\n  \"a\": 1,\n  \"b\": [\n    1,\n    {\"c\": \"d\"}\n  ],\n  \"e\": {}\n}",
		`{"a":1 , "b":[1 , 2 ,3 ] ,"c":[ "x" ,"y"]}`, "{\"a\":1,\t\"b\":2}", "{\"a\":[1,\r\n2]}",
		`{"a":1, }`, "{\"a\":1,\n}", `{"a":[1, ]}`, "{\"a\":[1,\n]}", `{"a":[1 ,]}`, `{"a":1 ,}`,
	} {
		checkDecode(t, []byte(d), Limits{})
	}
}
