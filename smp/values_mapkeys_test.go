package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

// Map keys that are not UTF-8: json.Marshal writes each with U+FFFD for
// the bad bytes, so distinct Go keys can be one JSON key, written once per
// Go key in byte order; decoding keeps the last. The typed API must give
// what the JSON API gives for the values' JSON, the same every run.

type keyDoc struct {
	Labels map[string]string    `json:"labels,omitempty"`
	Nums   map[string]int       `json:"nums,omitempty"`
	Subs   map[string]keySub    `json:"subs,omitempty"`
	Any    map[string]any       `json:"any,omitempty"`
	Named  map[keyName][]string `json:"named,omitempty"`
	Items  []keyItem            `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

type keyName string

type keySub struct {
	V string `json:"v,omitempty"`
	N int    `json:"n,omitempty"`
}

type keyItem struct {
	Name string            `json:"name"`
	Tags map[string]string `json:"tags,omitempty"`
}

// keyDocs builds a document whose maps all hold the given entries.
func keyDocs(entries map[string]string) keyDoc {
	d := keyDoc{Labels: map[string]string{}, Nums: map[string]int{}, Subs: map[string]keySub{},
		Any: map[string]any{}, Named: map[keyName][]string{}}
	tags := map[string]string{}
	for k, v := range entries {
		d.Labels[k] = v
		d.Nums[k] = len(v)
		d.Subs[k] = keySub{V: v, N: len(v) + 1}
		d.Any[k] = map[string]any{"v": v}
		d.Named[keyName(k)] = []string{v}
		tags[k] = v
	}
	d.Items = []keyItem{{Name: "one", Tags: tags}}
	return d
}

var badKeyCases = []struct {
	name     string
	orig     map[string]string
	mod      map[string]string
	current  map[string]string
	sameJSON bool // orig and mod encode alike
}{
	{name: "one key, other bad byte", orig: map[string]string{"a\xff": "x", "ok": "1"}, mod: map[string]string{"a\xfe": "x", "ok": "1"}, sameJSON: true},
	{name: "bad key against its repaired form", orig: map[string]string{"k\xc3": "v"}, mod: map[string]string{"k\uFFFD": "v"}, sameJSON: true},
	{name: "two keys collide, last wins", orig: map[string]string{"a\xfe": "lose", "a\xff": "win"}, mod: map[string]string{"a\xff": "win"}, sameJSON: true},
	{name: "collision decides a change", orig: map[string]string{"a\xfe": "1", "a\xff": "22"}, mod: map[string]string{"a\xfe": "22", "a\xff": "1"}},
	{name: "three-way collisions", orig: map[string]string{"z\x80": "o", "b": "b"}, mod: map[string]string{"z\x81": "m", "z\x82": "mm"},
		current: map[string]string{"z\x80": "o", "z\uFFFD": "c", "b": "b", "new": "n"}},
	{name: "many colliding keys", orig: manyBad("p", 40, "o"), mod: manyBad("p", 41, "m")},
}

func manyBad(prefix string, n int, v string) map[string]string {
	m := map[string]string{"plain": v}
	for i := range n {
		m[prefix+string([]byte{0x80 + byte(i%64)})+string(rune('a'+i/64))] = v + string(rune('a'+i%26))
	}
	return m
}

func TestBadUTF8KeysAsJSON(t *testing.T) {
	for _, c := range badKeyCases {
		t.Run(c.name, func(t *testing.T) {
			o, m := keyDocs(c.orig), keyDocs(c.mod)
			cur := o
			if c.current != nil {
				cur = keyDocs(c.current)
			}
			oj, mj, cj := typedMarshal(t, o), typedMarshal(t, m), typedMarshal(t, cur)
			want, err := smp.DiffJSON(oj, mj, keyDoc{})
			require.NoError(t, err)
			if c.sameJSON {
				assert.JSONEq(t, "{}", string(want), "the JSON API sees no change")
			}
			wantApplied, err := smp.ApplyJSON(cj, want, keyDoc{})
			require.NoError(t, err)
			want3, err := smp.ThreeWayJSON(oj, mj, cj, keyDoc{}, smp.WithOverwrite(true))
			require.NoError(t, err)
			for run := range 50 {
				p, err := smp.Diff(o, m)
				require.NoError(t, err)
				require.JSONEq(t, string(want), p.String(), "Diff, run %d", run)

				got, err := smp.Apply(cur, p)
				require.NoError(t, err)
				require.JSONEq(t, string(reencode(t, wantApplied)), string(typedMarshal(t, got)), "Apply, run %d", run)

				p3, err := smp.ThreeWay(o, m, cur, smp.WithOverwrite(true))
				require.NoError(t, err)
				require.JSONEq(t, string(want3), p3.String(), "ThreeWay, run %d", run)

				// Apply's copy of what the patch leaves alone follows the rule too.
				kept, err := smp.Apply(o, smp.Patch{})
				require.NoError(t, err)
				require.JSONEq(t, string(oj), string(typedMarshal(t, kept)), "Apply of the empty patch, run %d", run)
			}
		})
	}
}

// reencode decodes ApplyJSON's output into a keyDoc and encodes it again,
// as the typed API's result is that decoding.
func reencode(t *testing.T, data []byte) []byte {
	t.Helper()
	var d keyDoc
	require.NoError(t, json.Unmarshal(data, &d))
	return typedMarshal(t, d)
}

// An empty diff must not lose the entry whose key is not UTF-8.
func TestBadUTF8KeyEntryKept(t *testing.T) {
	o := keyDoc{Labels: map[string]string{"app\xff": "web"}}
	m := keyDoc{Labels: map[string]string{"app\xfe": "web"}}
	p, err := smp.Diff(o, m)
	require.NoError(t, err)
	assert.True(t, p.IsEmpty(), "patch %s", p)
	got, err := smp.Apply(o, p)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"app\uFFFD": "web"}, got.Labels)
}
