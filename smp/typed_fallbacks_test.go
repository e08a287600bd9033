package smp_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// typedFallbackDoc holds the shapes the typed walkers do not walk as Go
// structs and maps: merge lists whose elements are interfaces, merge sets
// of marshallers, retainKeys maps, and maps of
// non-string values on both sides of the size where the typed differ
// stops reading the original's entries at once. Each reaches a path of
// the typed walkers that hands the list or map over as JSON.
type typedFallbackDoc struct {
	AnyItems []any                   `json:"anyItems,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	RawSet   []json.RawMessage       `json:"rawSet,omitempty" patchStrategy:"merge"`
	QtySet   []exampletypes.Quantity `json:"qtySet,omitempty" patchStrategy:"merge"`
	Retained map[string]string       `json:"retained,omitempty" patchStrategy:"retainKeys"`
	Counts   map[string]*int         `json:"counts,omitempty"`
	Nested   map[string]fallbackC    `json:"nested,omitempty"`
}

type fallbackC struct {
	N int    `json:"n,omitempty"`
	S string `json:"s,omitempty"`
}

func typedGenFallback(t *rapid.T) typedFallbackDoc {
	g := typedGen{t}
	var d typedFallbackDoc
	for _, n := range g.names("anyItems", []string{"a", "b", "c"}, 3) {
		e := map[string]any{"name": n}
		if g.flip("anyItems.v?") {
			e["v"] = g.pick("anyItems.v", "1", "2")
		}
		d.AnyItems = append(d.AnyItems, e)
	}
	for range g.intn("rawSet.len", 0, 3) {
		d.RawSet = append(d.RawSet, json.RawMessage(g.pick("rawSet.v", `"a"`, `1`, `true`, `1.0`)))
	}
	for range g.intn("qtySet.len", 0, 3) {
		d.QtySet = append(d.QtySet, exampletypes.MustParseQuantity(g.pick("qtySet.v", "1", "2", "500m")))
	}
	d.Retained = g.stringMap("retained", []string{"a", "b", "c"}, []string{"1", "2"})
	// Up to twice goval's small-map size, so that both ways of finding
	// deleted entries run.
	if n := g.intn("counts.len", 0, 17); n > 0 {
		d.Counts = map[string]*int{}
		for i := range n {
			if g.flip(fmt.Sprintf("counts.%d?", i)) {
				d.Counts[fmt.Sprintf("k%d", i)] = g.intPtr("counts.v")
			}
		}
	}
	if n := g.intn("nested.len", 0, 12); n > 0 {
		d.Nested = map[string]fallbackC{}
		for i := range n {
			if g.flip(fmt.Sprintf("nested.%d?", i)) {
				d.Nested[fmt.Sprintf("k%d", i)] = fallbackC{N: g.intn("nested.n", 0, 1), S: g.pick("nested.s", "", "x")}
			}
		}
	}
	return d
}

// TestTypedFallbacks: on these shapes typed Diff, Apply and ThreeWay give
// what the JSON engine gives for the values' JSON.
func TestTypedFallbacks(t *testing.T) { typedProperties(t, typedGenFallback) }

// TestTypedFallbackPatches pins the patches of a few of these shapes, as
// Kubernetes writes them for the same JSON.
func TestTypedFallbackPatches(t *testing.T) {
	one, two := 1, 2
	q := exampletypes.MustParseQuantity
	cases := []struct {
		name  string
		o, m  typedFallbackDoc
		patch string
	}{{
		name:  "interface elements merge by key",
		o:     typedFallbackDoc{AnyItems: []any{map[string]any{"name": "a", "v": "1"}, map[string]any{"name": "b"}}},
		m:     typedFallbackDoc{AnyItems: []any{map[string]any{"name": "b"}, map[string]any{"name": "a", "v": "2"}}},
		patch: `{"$setElementOrder/anyItems":[{"name":"b"},{"name":"a"}],"anyItems":[{"name":"a","v":"2"}]}`,
	}, {
		name:  "a set of marshallers",
		o:     typedFallbackDoc{QtySet: []exampletypes.Quantity{q("1"), q("2")}},
		m:     typedFallbackDoc{QtySet: []exampletypes.Quantity{q("2"), q("500m")}},
		patch: `{"$deleteFromPrimitiveList/qtySet":["1"],"$setElementOrder/qtySet":["2","500m"],"qtySet":["500m"]}`,
	}, {
		name:  "a retainKeys map",
		o:     typedFallbackDoc{Retained: map[string]string{"a": "1", "b": "1"}},
		m:     typedFallbackDoc{Retained: map[string]string{"a": "1", "c": "2"}},
		patch: `{"retained":{"$retainKeys":["a","c"],"b":null,"c":"2"}}`,
	}, {
		name: "a large map loses entries",
		o: typedFallbackDoc{Counts: map[string]*int{"k0": &one, "k1": &one, "k2": &one, "k3": &one, "k4": &one,
			"k5": &one, "k6": &one, "k7": &one, "k8": &one, "k9": &one}},
		m:     typedFallbackDoc{Counts: map[string]*int{"k0": &one, "k1": &two, "k2": &one, "k3": &one, "k4": &one, "k5": &one, "k6": &one}},
		patch: `{"counts":{"k1":2,"k7":null,"k8":null,"k9":null}}`,
	}, {
		name:  "a small map loses entries",
		o:     typedFallbackDoc{Nested: map[string]fallbackC{"a": {N: 1}, "b": {S: "x"}, "c": {}}},
		m:     typedFallbackDoc{Nested: map[string]fallbackC{"b": {S: "y"}}},
		patch: `{"nested":{"a":null,"b":{"s":"y"},"c":null}}`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := smp.Diff(c.o, c.m)
			require.NoError(t, err)
			b, err := p.MarshalJSON()
			require.NoError(t, err)
			require.JSONEq(t, c.patch, string(b))
			jp, err := smp.DiffJSON(typedMarshal(t, c.o), typedMarshal(t, c.m), typedFallbackDoc{})
			require.NoError(t, err)
			require.JSONEq(t, c.patch, string(jp))
			got, err := smp.Apply(c.o, p)
			require.NoError(t, err)
			require.JSONEq(t, string(typedMarshal(t, c.m)), string(typedMarshal(t, got)))
		})
	}
}

// TestTypedMarshalledSetsHoldScalars: a merge key on a list of values that
// marshal themselves has no effect (reflectschema drops it), so the list
// is a set; where their JSON is an object, typed Diff and ThreeWay refuse
// it as the JSON engine does, also when the lists are equal.
func TestTypedMarshalledSetsHoldScalars(t *testing.T) {
	type doc struct {
		Items []json.RawMessage `json:"items" patchStrategy:"merge" patchMergeKey:"name"`
	}
	a := doc{Items: []json.RawMessage{json.RawMessage(`{"name":"a"}`), json.RawMessage(`{"name":"b"}`)}}
	b := doc{Items: a.Items[:1]}
	for _, m := range []doc{a, b} {
		_, err := smp.Diff(a, m)
		requireMixed(t, err, "items[0]", "an object")
		_, err = smp.DiffJSON(typedMarshal(t, a), typedMarshal(t, m), doc{})
		requireMixed(t, err, "items[0]", "an object")
		_, err = smp.ThreeWay(a, m, a)
		requireMixed(t, err, "items[0]", "an object")
	}
}
