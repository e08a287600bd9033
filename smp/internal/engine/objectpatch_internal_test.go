package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestObjectPatchDirs checks the parallel lists an ObjectPatch keeps,
// more than fit in place: each found by its list and kind, a later one of
// the same list and kind in place of the first, none for other lists.
func TestObjectPatchDirs(t *testing.T) {
	type dirKey struct {
		name  string
		order bool
	}
	var p ObjectPatch
	want := map[dirKey][]any{}
	for i := range 7 {
		for _, order := range []bool{true, false} {
			d := listDir{name: fmt.Sprint("l", i), order: order, l: []any{fmt.Sprint(i, order)}}
			p.addDir(d)
			want[dirKey{d.name, order}] = d.l
		}
	}
	p.addDir(listDir{name: "l5", order: true, l: []any{"again"}})
	want[dirKey{"l5", true}] = []any{"again"}
	if p.ndirs != 14 {
		t.Fatalf("ndirs = %d, want 14", p.ndirs)
	}
	for k, l := range want {
		got, ok := p.dir(k.name, k.order)
		if !ok || !slices.Equal(got, l) || !p.Directed(k.name) {
			t.Errorf("dir(%q, %v) = %v, %v, want %v", k.name, k.order, got, ok, l)
		}
	}
	if _, ok := p.dir("l9", true); ok || p.Directed("l9") {
		t.Errorf("a list no directive names is directed")
	}
}

// TestUniqueStrings compares uniqueStrings with a map on random lists,
// short and long.
func TestUniqueStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		names := make([]string, r.IntN(3*smallIDs))
		for i := range names {
			names[i] = fmt.Sprint(r.IntN(len(names) + 1))
		}
		var want []string
		seen := map[string]bool{}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				want = append(want, n)
			}
		}
		if got := uniqueStrings(slices.Clone(names)); !slices.Equal(got, want) {
			t.Fatalf("uniqueStrings(%q) = %q, want %q", names, got, want)
		}
	}
}
