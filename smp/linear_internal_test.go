package smp

import (
	"slices"
	"strings"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// TestSkipValueKnownEnds: with a document's container ends registered,
// every member and element of every container is cut where a plain scan
// cuts it; after release the ends are forgotten.
func TestSkipValueKnownEnds(t *testing.T) {
	big := `"` + strings.Repeat("x", 2*jsonval.SkipMin) + `"`
	doc := []byte(`{"a":{"b":[` + big + `,{"c":` + big + `},[[` + big + `]]],"d":{"e":` + big + `}}, "f" : [ ` + big + ` , {"g":"}]\"{["} ] }`)
	raw, ends, ok := jsonval.ScanRaw(doc, jsonval.DefaultLimits())
	if !ok || ends.Count() < 4 {
		t.Fatalf("scanRaw: ok %v, %d ends recorded", ok, ends.Count())
	}
	var walk func(r jsonval.Raw, out *[]string)
	walk = func(r jsonval.Raw, out *[]string) {
		switch r[0] {
		case '{':
			jsonval.EachRawMember(r, func(k []byte, v jsonval.Raw) bool {
				*out = append(*out, string(k)+"="+string(v))
				walk(v, out)
				return true
			})
		case '[':
			jsonval.EachElement(r, func(v jsonval.Raw) {
				*out = append(*out, string(v))
				walk(v, out)
			})
		}
	}
	var plain, known []string
	walk(raw, &plain)
	release := jsonval.RegisterEnds(raw, ends)
	if _, ok := jsonval.KnownEnd(raw, 0); !ok {
		t.Fatal("the document's own end is not known once registered")
	}
	walk(raw, &known)
	release()
	if _, ok := jsonval.KnownEnd(raw, 0); ok {
		t.Fatal("the ends are still known after release")
	}
	if !slices.Equal(plain, known) {
		t.Fatalf("with known ends:\n%q\nscanning:\n%q", known, plain)
	}
}
