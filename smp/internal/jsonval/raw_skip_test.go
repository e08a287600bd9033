package jsonval

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestSkipString checks skipString against encoding/json on strings of
// every length around its 16-byte fast loop, with an escaped quote or
// backslash at every place.
func TestSkipString(t *testing.T) {
	for n := 0; n < 40; n++ {
		for esc := -1; esc < 2*n; esc++ {
			var b strings.Builder
			for i := range n {
				if esc >= 0 && i == esc/2 {
					b.WriteString([]string{`\"`, `\\`}[esc%2])
					continue
				}
				b.WriteByte('a' + byte(i%26))
			}
			s := `"` + b.String() + `"`
			doc := []byte(s + `,"next"`)
			if !json.Valid([]byte(s)) {
				t.Fatalf("bad test string %s", s)
			}
			if got := SkipString(doc, 0); got != len(s) {
				t.Errorf("skipString(%s) = %d, want %d", doc, got, len(s))
			}
		}
	}
}

// TestExpandArray: a raw array expands to its elements, raw and in order,
// on both sides of the length gathered on the stack.
func TestExpandArray(t *testing.T) {
	for n := 0; n < 40; n++ {
		var b strings.Builder
		want := make([]any, n)
		b.WriteString("[ ")
		for i := range n {
			el := []string{`"s"`, `{"a":[1]}`, `[2, 3]`, `-4.5`, `null`}[i%5]
			want[i] = Raw(el)
			if i > 0 {
				b.WriteString(" ,")
			}
			b.WriteString(el)
		}
		b.WriteString(" ]")
		got, ok := Expand(Raw(b.String())).([]any)
		if !ok || got == nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("Expand(%s) = %#v, want %#v", b.String(), got, want)
		}
	}
}
