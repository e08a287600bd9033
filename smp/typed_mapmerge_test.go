package smp_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

type mapMergeKey string

type mapMergeEntry struct {
	X string `json:"x,omitempty"`
	Y string `json:"y,omitempty"`
}

type mapMergeDoc struct {
	Labels  map[string]string             `json:"labels,omitempty"`
	Kept    map[string]string             `json:"kept,omitempty" patchStrategy:"retainKeys"`
	Entries map[mapMergeKey]mapMergeEntry `json:"entries,omitempty"`
	KeptE   map[string]*mapMergeEntry     `json:"keptE,omitempty" patchStrategy:"retainKeys"`
	Whole   map[string]string             `json:"whole,omitempty" patchStrategy:"replace"`
	Ptrs    map[string]*int               `json:"ptrs,omitempty"`
	Nested  map[string]map[string]string  `json:"nested,omitempty"`
	Lists   map[string][]int              `json:"lists,omitempty"`
}

// TestTypedMapMerge applies object patches to maps with string keys, which
// the typed Apply merges in Go, and checks each result against the one
// the format gives (written out here) and against ApplyJSON.
func TestTypedMapMerge(t *testing.T) {
	one := 1
	live := mapMergeDoc{
		Labels:  map[string]string{"a": "1", "c": "3", "$patch": "a label"},
		Kept:    map[string]string{"a": "1", "c": "3"},
		Entries: map[mapMergeKey]mapMergeEntry{"e": {X: "x", Y: "y"}, "f": {X: "f"}},
		KeptE:   map[string]*mapMergeEntry{"a": {X: "x", Y: "y"}, "c": {X: "c"}},
		Whole:   map[string]string{"a": "1"},
		Ptrs:    map[string]*int{"n": nil, "one": &one},
		Nested:  map[string]map[string]string{"n": {"a": "1", "b": "2"}},
	}
	two := 2
	for _, c := range []struct {
		name, patch string
		want        func(d *mapMergeDoc)
	}{
		{"set, change and delete entries; a live key named like a directive stays", `{"labels":{"a":"2","b":"new","c":null}}`,
			func(d *mapMergeDoc) { d.Labels = map[string]string{"a": "2", "b": "new", "$patch": "a label"} }},
		{"$retainKeys drops the entries it does not list", `{"kept":{"$retainKeys":["a","b"],"b":"2"}}`,
			func(d *mapMergeDoc) { d.Kept = map[string]string{"a": "1", "b": "2"} }},
		{"$retainKeys with struct values merges the kept ones", `{"keptE":{"$retainKeys":["a"],"a":{"x":"new"}}}`,
			func(d *mapMergeDoc) { d.KeptE = map[string]*mapMergeEntry{"a": {X: "new", Y: "y"}} }},
		{"struct values merge field by field", `{"entries":{"e":{"y":null},"g":{"x":"g"}}}`,
			func(d *mapMergeDoc) {
				d.Entries = map[mapMergeKey]mapMergeEntry{"e": {X: "x"}, "f": {X: "f"}, "g": {X: "g"}}
			}},
		{"$patch: replace", `{"labels":{"$patch":"replace","z":"26"}}`,
			func(d *mapMergeDoc) { d.Labels = map[string]string{"z": "26"} }},
		{"$patch: delete", `{"labels":{"$patch":"delete"}}`,
			func(d *mapMergeDoc) { d.Labels = nil }},
		{"the replace strategy", `{"whole":{"b":"2"}}`,
			func(d *mapMergeDoc) { d.Whole = map[string]string{"b": "2"} }},
		{"pointer values", `{"ptrs":{"one":2,"new":2}}`,
			func(d *mapMergeDoc) { d.Ptrs = map[string]*int{"n": nil, "one": &two, "new": &two} }},
		{"maps in maps", `{"nested":{"n":{"a":null,"c":"3"},"m":{}}}`,
			func(d *mapMergeDoc) {
				d.Nested = map[string]map[string]string{"n": {"b": "2", "c": "3"}, "m": {}}
			}},
		{"an empty patch object keeps the map", `{"labels":{}}`, func(*mapMergeDoc) {}},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch, err := smp.ParsePatch([]byte(c.patch))
			require.NoError(t, err)
			want := live
			c.want(&want)
			got, err := checkTypedApply(t, live, patch)
			require.NoError(t, err)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Apply (-want +got):\n%s", d)
			}
		})
	}
}

// TestTypedMapMergeErrors checks that a map patch fails as ApplyJSON does.
func TestTypedMapMergeErrors(t *testing.T) {
	live := mapMergeDoc{Kept: map[string]string{"a": "1"}, Labels: map[string]string{"a": "1"}, Lists: map[string][]int{"a": {1, 2}}}
	for _, p := range []string{
		`{"kept":{"$retainKeys":["a"],"b":"2"}}`,
		`{"labels":{"$retainKeys":["a"]}}`,
		`{"labels":{"a":{"not":"a string"}}}`,
		`{"labels":{"$patch":"sideways"}}`,
		`{"entries":{"e":{"x":1}}}`,
		// A map's values are not merge lists: their directives are refused.
		`{"lists":{"$setElementOrder/a":[1]}}`,
		`{"lists":{"$deleteFromPrimitiveList/a":[1]}}`,
	} {
		patch, err := smp.ParsePatch([]byte(p))
		require.NoError(t, err)
		_, err = checkTypedApply(t, live, patch)
		require.Error(t, err, p)
	}
}
