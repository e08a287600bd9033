package format

import (
	"strings"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// TestRawIDRepeatedKey checks that an element whose key field occurs
// twice is identified by the last, as decoding keeps it, whether or not
// its document is registered, and that a registered document whose keys
// are unique is identified by the same key found first.
func TestRawIDRepeatedKey(t *testing.T) {
	ks := KeySet{Fields: []string{"name"}}
	pad := `"pad":"` + strings.Repeat("p", jsonval.SkipMin) + `"`
	for _, c := range []struct {
		doc, want string
		unique    bool
	}{
		{`{"a":[{"name":"first","v":1,"name":"last"}],` + pad + `}`, "last", false},
		{`{"a":[{"name":"first","v":1,"n\u0061me":"last"}],` + pad + `}`, "last", false},
		{`{"a":[{"name":"only","v":{"name":"inner"}}],` + pad + `}`, "only", true},
	} {
		raw, ends, ok := jsonval.ScanRaw([]byte(c.doc), jsonval.DefaultLimits())
		if !ok {
			t.Fatalf("ScanRaw(%s) refused it", c.doc)
		}
		start := strings.Index(c.doc, `{"name"`)
		elem := raw[start : start+strings.Index(c.doc[start:], `}],`)+1]
		if got := ks.RawID(elem); got != c.want {
			t.Fatalf("RawID(%s), not registered = %q, want %q", elem, got, c.want)
		}
		release := jsonval.RegisterEnds(raw, ends)
		if jsonval.UniqueKeys(elem) != c.unique {
			t.Fatalf("UniqueKeys(%s) = %v, want %v", elem, !c.unique, c.unique)
		}
		if got := ks.RawID(elem); got != c.want {
			t.Fatalf("RawID(%s), registered = %q, want %q", elem, got, c.want)
		}
		release()
	}
}
