package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

// Types whose empty collections are written, so that documents hold []
// and {} where another writer left them empty.

type neDoc struct {
	Spec *neSpec `json:"spec,omitempty"`
}

type neSpec struct {
	Atomic []string          `json:"atomic"`
	Obj    map[string]string `json:"obj"`
	Items  []neItem          `json:"items" patchStrategy:"merge" patchMergeKey:"name"`
	Inner  *neSpec           `json:"inner,omitempty"`
	Whole  []neItem          `json:"whole,omitempty"` // replaced whole
}

type neItem struct {
	Name string            `json:"name"`
	Tol  []string          `json:"tol"`
	Sub  map[string]string `json:"sub"`
}

// TestThreeWayEmptyChangesDoNotConflict: issue #16's schema suite. A
// collection current turned from absent to empty (or between empty
// shapes), alone or inside an object or element current added, is no
// change under nil ≡ empty (docs/compat.md): no conflict, through the
// JSON and the typed API; a real change beside it still conflicts.
func TestThreeWayEmptyChangesDoNotConflict(t *testing.T) {
	for _, c := range []struct {
		name                        string
		original, modified, current string
		conflict                    string // "": none
	}{
		{"atomic list added empty", `{}`, `{"spec":{"atomic":["a"]}}`, `{"spec":{"atomic":[]}}`, ""},
		{"map added empty", `{"spec":{}}`, `{"spec":{"obj":{"k":"v"}}}`, `{"spec":{"obj":{}}}`, ""},
		{"empty inside an added object", `{}`, `{"spec":{"inner":{"atomic":["x"]}}}`,
			`{"spec":{"inner":{"atomic":[],"obj":{}}}}`, ""},
		{"empty inside an element current added", `{"spec":{"items":[]}}`,
			`{"spec":{"items":[{"name":"x","tol":["t"],"sub":{"a":"b"}}]}}`,
			`{"spec":{"items":[{"name":"x","tol":[],"sub":{}}]}}`, ""},
		{"empty object dropped, object kept empty", `{"spec":{"inner":{}}}`, `{}`, `{"spec":{}}`, ""},
		{"a real change beside", `{}`, `{"spec":{"atomic":["a"],"obj":{"k":"v"}}}`,
			`{"spec":{"atomic":[],"obj":{"k":"w"}}}`, "spec.obj.k"},
		{"a real change in an added element", `{"spec":{"items":[]}}`,
			`{"spec":{"items":[{"name":"x","tol":["t"]}]}}`,
			`{"spec":{"items":[{"name":"x","tol":["c"],"sub":{}}]}}`, "spec.items[name=x].tol"},
		// A list replaced whole is one value: an empty list inside an
		// element does not make current's list no change (the property
		// suite found this on HTTPRoute's rules).
		{"a list replaced whole, added with an empty list inside", `{}`,
			`{"spec":{"whole":[{"name":"x","tol":["t"]}]}}`,
			`{"spec":{"whole":[{"name":"x","tol":[]}]}}`, "spec.whole[0].tol"},
		{"a list replaced whole, added empty", `{}`, `{"spec":{"whole":[{"name":"x"}]}}`, `{"spec":{"whole":[]}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := smp.ThreeWayJSON([]byte(c.original), []byte(c.modified), []byte(c.current), neDoc{})
			var o, m, cur neDoc
			for _, d := range []struct {
				in  string
				out *neDoc
			}{{c.original, &o}, {c.modified, &m}, {c.current, &cur}} {
				require.NoError(t, json.Unmarshal([]byte(d.in), d.out))
			}
			_, terr := checkTypedThreeWay(t, o, m, cur)
			if c.conflict != "" {
				for _, e := range []error{err, terr} {
					require.True(t, smp.IsConflict(e), "want a conflict, got %v", e)
					require.Equal(t, c.conflict, e.(*smp.Error).Path.String())
				}
				return
			}
			require.NoError(t, err)
			require.NoError(t, terr)
			// The patch brings current to modified's values, nil ≡ empty.
			res, err := smp.ApplyJSON([]byte(c.current), p, neDoc{})
			require.NoError(t, err)
			var got neDoc
			require.NoError(t, json.Unmarshal(res, &got))
			require.Empty(t, cmp.Diff(fuzzPrune(jsonOf(t, m)), fuzzPrune(jsonOf(t, got))), "patch %s", p)
		})
	}
}
