package jsonval

import (
	"reflect"
	"strings"
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
	docs := []string{
		`{}`, ` {} `, "\t{\n}\r\n", `{"a":1}`, `{"a":1,}`, `{,"a":1}`, `{"a" 1}`, `{"a":1 "b":2}`,
		`{"a":1,"a":2}`, `{"a":{"b":1},"a":[2]}`, `{"a":[{},[],"",0,-0.5e-3,true,false,null]}`,
		`{"a":[]}`, `{"a":[,]}`, `{"a":[1,]}`, `{"a":[1 2]}`, `{"a":[1],"b":{"c":[{}]}}`, `{"a":[}`, `{"a":{]}`,
		`{"a":0}`, `{"a":-0}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":.5}`, `{"a":1.5e}`, `{"a":1.5e+}`,
		`{"a":1.5E-7}`, `{"a":1e9}`, `{"a":+1}`, `{"a":1x}`, `{"a":0x10}`, `{"a":12345678901234567890123}`,
		`{"a":true}`, `{"a":tru}`, `{"a":truex}`, `{"a":null}`, `{"a":nul}`, `{"a":false}`, `{"a":False}`,
		`{"a":"\u00e9\n\"\\\/\b\f\r\t"}`, `{"a":"\ud83d\ude00"}`, `{"a":"\ud83d"}`, `{"a":"\ude00\u0000"}`,
		`{"\u0061":1,"a":2}`, `{"a":"\x"}`, `{"a":"\u00g0"}`, `{"a":"\u00"}`, `{"a":"unterminated}`,
		"{\"a\":\"tab\there\"}", "{\"a\":\"\xff\"}", "{\"a\":\"\xc3\xa9\"}", "{\"a\":\"\xed\xa0\x80\"}", "{\"\xe2\x82\":1}",
		"{\"a\":1}\xff", `{"a":1} x`, `{"a":1}{}`, `[1]`, `"s"`, `1`, `null`, ` null `, ``, `   `, "\u00a0{}", "\v{}", "{}\f",
		`{1:2}`, `{"a":}`, `{"a"}`, `{"a":1`, `{"a":[1`, `{"a":"`, `{"a":"\`, `{"a":"\u12`, "\xef\xbb\xbf{}",
	}
	for _, d := range docs {
		checkDecode(t, []byte(d), Limits{})
	}
	deep := func(n int) string { return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }
	for _, n := range []int{1, 2, 3, 9998, 9999, 10000} {
		for _, l := range []Limits{{}, {MaxDepth: 2}, {MaxDepth: 3}, {MaxDepth: 10000}} {
			checkDecode(t, []byte(deep(n)), l)
		}
	}
	for _, d := range []string{`{"a":[1,2,3]}`, `{"a":[[1,2],[3]]}`, `{"a":[{"b":[1,2,3]}]}`, `{"a":[]}`, `{"":[{}],"":[]}`, `{"a":[1,2,3],"a":1}`} {
		for _, l := range []Limits{{MaxListLength: 1}, {MaxListLength: 2}, {MaxListLength: 3}, {MaxListLength: 2, MaxDepth: 1}} {
			checkDecode(t, []byte(d), l)
		}
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
