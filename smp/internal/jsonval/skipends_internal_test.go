package jsonval

import (
	"slices"
	"strings"
	"testing"
)

// TestSkipValueKnownEnds: with a document's container ends registered,
// every member and element of every container is cut where a plain scan
// cuts it; after release the ends are forgotten.
func TestSkipValueKnownEnds(t *testing.T) {
	big := `"` + strings.Repeat("x", 2*SkipMin) + `"`
	doc := []byte(`{"a":{"b":[` + big + `,{"c":` + big + `},[[` + big + `]]],"d":{"e":` + big + `}}, "f" : [ ` + big + ` , {"g":"}]\"{["} ] }`)
	raw, ends, ok := ScanRaw(doc, DefaultLimits())
	if !ok || ends.Count() < 4 {
		t.Fatalf("scanRaw: ok %v, %d ends recorded", ok, ends.Count())
	}
	var walk func(r Raw, out *[]string)
	walk = func(r Raw, out *[]string) {
		switch r[0] {
		case '{':
			EachRawMember(r, func(k []byte, v Raw) bool {
				*out = append(*out, string(k)+"="+string(v))
				walk(v, out)
				return true
			})
		case '[':
			EachElement(r, func(v Raw) {
				*out = append(*out, string(v))
				walk(v, out)
			})
		}
	}
	var plain, known []string
	walk(raw, &plain)
	release := RegisterEnds(raw, ends)
	if _, ok := KnownEnd(raw, 0); !ok {
		t.Fatal("the document's own end is not known once registered")
	}
	walk(raw, &known)
	release()
	if _, ok := KnownEnd(raw, 0); ok {
		t.Fatal("the ends are still known after release")
	}
	if !slices.Equal(plain, known) {
		t.Fatalf("with known ends:\n%q\nscanning:\n%q", known, plain)
	}
}

// TestKnownEndsEveryLongContainer: once registered, the end of every
// container of SkipMin bytes or more is known, at any depth and order of
// siblings, and no shorter one is recorded.
func TestKnownEndsEveryLongContainer(t *testing.T) {
	long := `"` + strings.Repeat("y", SkipMin) + `"`
	doc := []byte(`{"a":[{"b":` + long + `},{"c":1},[` + long + `,{}],{"d":{"e":[` + long + `]}}],"f":{"g":2},"h":[[[` + long + `]]]}`)
	raw, ends, ok := ScanRaw(doc, DefaultLimits())
	if !ok {
		t.Fatal("scanRaw refused the document")
	}
	release := RegisterEnds(raw, ends)
	defer release()
	long0, checked := 0, 0
	var walk func(v Raw)
	walk = func(v Raw) {
		if v[0] != '{' && v[0] != '[' {
			return
		}
		start := cap(raw) - cap(v)
		end, known := KnownEnd(raw, start)
		if want := len(v) >= SkipMin; known != want || known && end != start+len(v) {
			t.Errorf("container at %d of %d bytes: KnownEnd = %d, %v", start, len(v), end, known)
		}
		if len(v) >= SkipMin {
			long0++
		}
		checked++
		if v[0] == '{' {
			EachRawMember(v, func(_ []byte, m Raw) bool { walk(m); return true })
		} else {
			EachElement(v, walk)
		}
	}
	walk(raw)
	if long0 != ends.Count() || checked == long0 {
		t.Fatalf("%d long containers of %d, %d ends recorded", long0, checked, ends.Count())
	}
}
