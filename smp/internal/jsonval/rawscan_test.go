package jsonval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// scanOracle is what ScanRaw must decide, by encoding/json: valid JSON
// and UTF-8 whose top level is an object, within the limits. The limits
// are counted on the text (a duplicate key's earlier value counts too).
func scanOracle(data []byte, l Limits) bool {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if !json.Valid(data) || !utf8.Valid(data) || len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	type container struct {
		object  bool
		wantKey bool // object: the next token is a key or its end
		n       int  // array: elements so far
	}
	var open []container
	for {
		tok, err := dec.Token()
		if err != nil {
			return len(open) == 0
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			open = open[:len(open)-1]
			continue
		}
		if n := len(open); n > 0 {
			top := &open[n-1]
			switch {
			case top.object && top.wantKey:
				top.wantKey = false
				continue // a key
			case top.object:
				top.wantKey = true
			default:
				if top.n++; l.MaxListLength > 0 && top.n > l.MaxListLength {
					return false
				}
			}
		}
		if d, ok := tok.(json.Delim); ok {
			if l.MaxDepth > 0 && len(open) > l.MaxDepth {
				return false
			}
			open = append(open, container{object: d == '{', wantKey: d == '{'})
		}
	}
}

func checkScan(t *testing.T, data []byte, l Limits) {
	t.Helper()
	raw, ends, ok := ScanRaw(data, l)
	if want := scanOracle(data, l); ok != want {
		t.Fatalf("scanRaw(%q, %+v) = %v, encoding/json says %v", data, l, ok, want)
	}
	if ok && !bytes.Equal(raw, bytes.Trim(data, " \t\r\n")) {
		t.Fatalf("scanRaw(%q) kept %q", data, raw)
	}
	if !ok {
		return
	}
	repeats, most := keysOracle(data)
	if repeats && ends.uniqueKeys {
		t.Fatalf("scanRaw(%q): keys unique, but an object repeats one", data)
	}
	if sure := most <= maxTrackedKeys && bytes.IndexByte(data, '\\') < 0; !repeats && sure && !ends.uniqueKeys {
		t.Fatalf("scanRaw(%q): keys not known unique, though no object repeats one", data)
	}
}

// keysOracle reports, by encoding/json, whether an object of a valid
// document holds a key twice (as decoded), and the most keys of one.
func keysOracle(data []byte) (repeats bool, most int) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type container struct {
		keys    map[string]bool // nil for an array
		wantKey bool
	}
	var open []*container
	for {
		tok, err := dec.Token()
		if err != nil {
			return repeats, most
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			open = open[:len(open)-1]
			continue
		}
		if n := len(open); n > 0 && open[n-1].keys != nil {
			top := open[n-1]
			if top.wantKey {
				k := tok.(string)
				repeats = repeats || top.keys[k]
				top.keys[k] = true
				most = max(most, len(top.keys))
				top.wantKey = false
				continue
			}
			top.wantKey = true
		}
		if d, ok := tok.(json.Delim); ok {
			c := &container{wantKey: d == '{'}
			if d == '{' {
				c.keys = map[string]bool{}
			}
			open = append(open, c)
		}
	}
}

// TestScanRawUniqueKeys checks, on documents with keys repeated in one
// object or across objects, and objects of up to twice maxTrackedKeys
// keys, that ScanRaw calls keys unique exactly when no object repeats
// one (and it could track them), and that UniqueKeys says so only of
// slices of the registered document.
func TestScanRawUniqueKeys(t *testing.T) {
	wide := func(n int, repeat bool) string {
		var b strings.Builder
		b.WriteString(`{"pad":"` + strings.Repeat("p", SkipMin) + `"`)
		for i := range n {
			fmt.Fprintf(&b, `,"key-%03d-of-a-long-object":{"name":"n","key-%03d-of-a-long-object":1}`, i, i)
		}
		if repeat {
			b.WriteString(`,"key-000-of-a-long-object":2`)
		}
		return b.String() + "}"
	}
	var docs []string
	for _, n := range []int{1, maxTrackedKeys - 2, maxTrackedKeys - 1, maxTrackedKeys, 2 * maxTrackedKeys} {
		docs = append(docs, wide(n, false), wide(n, true))
	}
	docs = append(docs, `{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`, `{"a":{"b":1},"b":2}`, `{"a":{"b":1,"c":{},"b":2}}`,
		`{"a":[{"b":1},{"b":2,"b":3}]}`, `{"name":"x","value":"y","names":"z"}`, `{"n\u0061me":1,"name":2}`)
	for _, d := range docs {
		checkScan(t, []byte(d), Limits{})
	}

	first := wide(3, false)
	buf := []byte(first + wide(3, true))
	doc := buf[:len(first)]
	raw, ends, ok := ScanRaw(doc, Limits{})
	if !ok || !ends.uniqueKeys {
		t.Fatalf("scanRaw of the first half: ok %v, unique %v", ok, ends.uniqueKeys)
	}
	release := RegisterEnds(raw, ends)
	defer release()
	if !UniqueKeys(raw[10:40]) || !UniqueKeys(raw) {
		t.Fatal("UniqueKeys false within the registered document")
	}
	if UniqueKeys(buf[len(first):]) || UniqueKeys(buf[len(first)-5:len(first)+5]) {
		t.Fatal("UniqueKeys true of bytes past the registered document")
	}
}

// TestScanRawGrammar: the one-pass scan agrees with encoding/json on the
// corners of JSON's grammar and of UTF-8.
func TestScanRawGrammar(t *testing.T) {
	for _, c := range grammarCases() {
		checkScan(t, c.data, c.l)
	}
}

// grammarCase is one document and the limits it is checked within.
type grammarCase struct {
	data []byte
	l    Limits
}

// grammarCases are the corners of JSON's grammar, of UTF-8 and of the
// limits that the one-pass scan and decoder are checked on.
func grammarCases() []grammarCase {
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
	var cases []grammarCase
	for _, d := range docs {
		cases = append(cases, grammarCase{[]byte(d), Limits{}})
	}
	deep := func(n int) string { return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }
	for _, n := range []int{1, 2, 3, 9998, 9999, 10000, 10001} {
		for _, l := range []Limits{{}, {MaxDepth: 2}, {MaxDepth: 3}, {MaxDepth: 10000}} {
			cases = append(cases, grammarCase{[]byte(deep(n)), l})
		}
	}
	for _, d := range []string{`{"a":[1,2,3]}`, `{"a":[[1,2],[3]]}`, `{"a":[{"b":[1,2,3]}]}`, `{"a":[]}`, `{"":[{}],"":[]}`, `{"a":[1,2,3],"a":1}`} {
		for _, l := range []Limits{{MaxListLength: 1}, {MaxListLength: 2}, {MaxListLength: 3}, {MaxListLength: 2, MaxDepth: 1}} {
			cases = append(cases, grammarCase{[]byte(d), l})
		}
	}
	return cases
}

// FuzzScanRaw checks the one-pass scan against encoding/json on any bytes
// and small limits.
func FuzzScanRaw(f *testing.F) {
	for _, d := range []string{`{"a":[1,{"b":"\u00e9"}],"c":-1.5e3,"d":[true,false,null]}`, "{\"a\":\"\xff\"}", `{"a":[[[]]]}`} {
		f.Add([]byte(d), uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, depth, length uint8) {
		checkScan(t, data, Limits{})
		checkScan(t, data, Limits{MaxDepth: int(depth % 5), MaxListLength: int(length % 5)})
	})
}
