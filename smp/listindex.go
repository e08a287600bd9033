package smp

import "slices"

// listIndex is a merge list being patched: its items, which are deleted,
// and per key set the identity of every item and an index from identity
// to positions, built on first use and kept current as items change, so
// every lookup is constant time and every identity is computed once.
type listIndex struct {
	items []any
	dead  []bool
	byKey map[string]*keyIndex
}

// keyIndex is one key set's view of a listIndex.
type keyIndex struct {
	ks  keySet
	ids []string         // by position
	pos map[string][]int // live positions by identity
}

func newListIndex(items []any) *listIndex {
	return &listIndex{items: slices.Clone(items), dead: make([]bool, len(items)), byKey: map[string]*keyIndex{}}
}

// idOf returns an item's identity under ks. Items that are not objects
// share "\x02", which keySet.id never returns (a one-field identity is
// empty or starts with NUL, absentMark or a byte from 0x20 up; a longer
// one starts with a letter), so they never match an object.
func idOf(ks keySet, item any) string {
	switch m := item.(type) {
	case map[string]any:
		id, _ := ks.id(m)
		return id
	case rawJSON:
		if rawKind(m) == jsonObject {
			return ks.rawID(m)
		}
	}
	return "\x02"
}

func (x *listIndex) index(ks keySet) *keyIndex {
	sig := ks.sig()
	if ix, ok := x.byKey[sig]; ok {
		return ix
	}
	ix := &keyIndex{ks: ks, ids: make([]string, len(x.items)), pos: make(map[string][]int, len(x.items))}
	// One backing array serves every identity held once: position p's
	// slice is one[p:p+1:p+1], which a second holder copies on append.
	one := make([]int, len(x.items))
	for p, it := range x.items {
		id := idOf(ks, it)
		ix.ids[p] = id
		if x.dead[p] {
			continue
		}
		if ps, ok := ix.pos[id]; ok {
			ix.pos[id] = append(ps, p)
		} else {
			one[p] = p
			ix.pos[id] = one[p : p+1 : p+1]
		}
	}
	x.byKey[sig] = ix
	return ix
}

// find returns the live positions whose identity under ks is id.
func (x *listIndex) find(ks keySet, id string) []int {
	return x.index(ks).pos[id]
}

// remove deletes the item at p.
func (x *listIndex) remove(p int) {
	x.dead[p] = true
	for _, ix := range x.byKey {
		ix.drop(p)
	}
}

func (ix *keyIndex) drop(p int) {
	id := ix.ids[p]
	ix.pos[id] = slices.DeleteFunc(ix.pos[id], func(q int) bool { return q == p })
}

// set replaces the item at p, whose identity may change.
func (x *listIndex) set(p int, v any) {
	x.items[p] = v
	for _, ix := range x.byKey {
		id := idOf(ix.ks, v)
		if id == ix.ids[p] {
			continue
		}
		ix.drop(p)
		ix.ids[p] = id
		ix.pos[id] = append(ix.pos[id], p)
		slices.Sort(ix.pos[id])
	}
}

// add appends an item.
func (x *listIndex) add(v any) {
	x.items = append(x.items, v)
	x.dead = append(x.dead, false)
	p := len(x.items) - 1
	for _, ix := range x.byKey {
		id := idOf(ix.ks, v)
		ix.ids = append(ix.ids, id)
		ix.pos[id] = append(ix.pos[id], p)
	}
}

// live returns the items not deleted, in order, and their identities
// under ks.
func (x *listIndex) live(ks keySet) ([]any, []string) {
	ix := x.index(ks)
	out := make([]any, 0, len(x.items))
	ids := make([]string, 0, len(x.items))
	for p, it := range x.items {
		if !x.dead[p] {
			out = append(out, it)
			ids = append(ids, ix.ids[p])
		}
	}
	return out, ids
}
