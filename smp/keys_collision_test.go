package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// collidingPairs are pairs of multi-field keys that were one identity when
// identities joined their parts with NUL.
var collidingPairs = [][2]exampletypes.SeedItem{
	{{Foo: "x\x00sy", Bar: "z"}, {Foo: "x", Bar: "y\x00sz"}}, // issue #14
	{{Foo: "q", Bar: "\x00sq"}, {Foo: "q\x00s", Bar: "q"}},
	{{Foo: "p\x00sq\x00sr", Bar: "s"}, {Foo: "p", Bar: "q\x00sr\x00ss"}},
	{{Foo: "a\x00s", Bar: "\x00sb"}, {Foo: "a\x00s\x00s", Bar: "b"}},
}

func itemJSON(t *testing.T, it exampletypes.SeedItem, extra map[string]any) map[string]any {
	t.Helper()
	m := map[string]any{"foo": it.Foo, "bar": it.Bar}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return data
}

// TestMultiKeyCollisions: deleting or changing one of two elements whose
// keys used to collide touches that element only, through the JSON and
// the typed API, under a two-field patchMergeKey and under a three-field
// $patchMergeKey.
func TestMultiKeyCollisions(t *testing.T) {
	for _, pair := range collidingPairs {
		a, b := pair[0], pair[1]
		a.Another, b.Another = "a", "b"
		live := exampletypes.SeedMultiKey{List: []exampletypes.SeedItem{a, b}}
		doc := marshal(t, live)

		// Delete b; a stays.
		del := marshal(t, map[string]any{"list": []any{itemJSON(t, b, map[string]any{"$patch": "delete"})}})
		out, err := smp.ApplyJSON(doc, del, &exampletypes.SeedMultiKey{})
		require.NoError(t, err)
		var got exampletypes.SeedMultiKey
		require.NoError(t, json.Unmarshal(out, &got))
		assert.Equal(t, []exampletypes.SeedItem{a}, got.List, "JSON delete %q", b)
		typed, err := smp.Apply(live, typedMustParse(t, string(del)))
		require.NoError(t, err)
		assert.Equal(t, []exampletypes.SeedItem{a}, typed.List, "typed delete %q", b)

		// Change a; b stays as it was.
		set := marshal(t, map[string]any{"list": []any{itemJSON(t, a, map[string]any{"another": "A"})}})
		a2 := a
		a2.Another = "A"
		out, err = smp.ApplyJSON(doc, set, &exampletypes.SeedMultiKey{})
		require.NoError(t, err)
		got = exampletypes.SeedMultiKey{}
		require.NoError(t, json.Unmarshal(out, &got))
		assert.Equal(t, []exampletypes.SeedItem{a2, b}, got.List, "JSON change %q", a)
		typed, err = smp.Apply(live, typedMustParse(t, string(set)))
		require.NoError(t, err)
		assert.Equal(t, []exampletypes.SeedItem{a2, b}, typed.List, "typed change %q", a)

		// Diff: b removed and a changed, both ways round.
		for _, mod := range [][]exampletypes.SeedItem{{a2}, {b, a2}} {
			m := exampletypes.SeedMultiKey{List: mod}
			p, err := smp.Diff(live, m)
			require.NoError(t, err)
			back, err := smp.Apply(live, p)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(m, back), "typed diff: %s", p)
			jp, err := smp.DiffJSON(doc, marshal(t, m), &exampletypes.SeedMultiKey{})
			require.NoError(t, err)
			out, err := smp.ApplyJSON(doc, jp, &exampletypes.SeedMultiKey{})
			require.NoError(t, err)
			got = exampletypes.SeedMultiKey{}
			require.NoError(t, json.Unmarshal(out, &got))
			assert.Equal(t, m, got, "JSON diff: %s", jp)
		}
	}
}

func TestDirectiveKeyCollisions(t *testing.T) {
	// Three fields named by $patchMergeKey: (x\0sy, z, w) and (x, y\0sz, w)
	// were one identity.
	a := exampletypes.SeedItem{Foo: "x\x00sy", Bar: "z", Baz: "w", Another: "a"}
	b := exampletypes.SeedItem{Foo: "x", Bar: "y\x00sz", Baz: "w", Another: "b"}
	live := exampletypes.SeedRecommendedBaz{List: []exampletypes.SeedItem{a, b}}
	del := marshal(t, map[string]any{"list": []any{map[string]any{
		"$patchMergeKey": []any{"foo", "bar", "baz"}, "$patch": "delete", "foo": b.Foo, "bar": b.Bar, "baz": b.Baz,
	}}})
	out, err := smp.ApplyJSON(marshal(t, live), del, &exampletypes.SeedRecommendedBaz{})
	require.NoError(t, err)
	var got exampletypes.SeedRecommendedBaz
	require.NoError(t, json.Unmarshal(out, &got))
	assert.Equal(t, []exampletypes.SeedItem{a}, got.List)
	typed, err := smp.Apply(live, typedMustParse(t, string(del)))
	require.NoError(t, err)
	assert.Equal(t, []exampletypes.SeedItem{a}, typed.List)
}

// TestControlCharacterKeys: names that start with a control character
// are identities of their own (not the plain string), in the typed
// applier as in the JSON one, in place or not.
func TestControlCharacterKeys(t *testing.T) {
	type doc struct {
		Items []typedEdgeItem `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	}
	live := doc{Items: []typedEdgeItem{{Name: "\x01a", Value: 1}, {Name: "b", Value: 2}, {Name: "\x01c", Value: 3}, {Name: "\x00nd", Value: 4}}}
	for _, patch := range []string{
		`{"items":[{"name":"\u0001c","value":30}]}`,
		`{"$setElementOrder/items":[{"name":"\u0000nd"},{"name":"\u0001c"},{"name":"b"},{"name":"\u0001a"}],"items":[{"name":"\u0001a","value":10}]}`,
		`{"items":[{"$patch":"delete","name":"\u0001a"},{"name":"\u0000nd","value":40},{"name":"\u0001e","value":5}]}`,
	} {
		p := typedMustParse(t, patch)
		checkTypedApply(t, live, p)
		checkInPlace(t, live, p)
	}
}
