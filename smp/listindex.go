package smp

import "slices"

// listIndex is a merge list being patched: its items, which are deleted,
// and per key set an index from identity to positions, built on first use
// and kept current as items change, so every lookup is constant time.
type listIndex struct {
	items []any
	dead  []bool
	byKey map[string]map[string][]int
	sets  map[string]keySet
}

func newListIndex(items []any) *listIndex {
	return &listIndex{items: slices.Clone(items), dead: make([]bool, len(items)),
		byKey: map[string]map[string][]int{}, sets: map[string]keySet{}}
}

// idOf returns an item's identity under ks; items that are not objects
// never match.
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

func (x *listIndex) index(ks keySet) map[string][]int {
	sig := ks.sig()
	if ix, ok := x.byKey[sig]; ok {
		return ix
	}
	ix := make(map[string][]int, len(x.items))
	for p, it := range x.items {
		if !x.dead[p] {
			id := idOf(ks, it)
			ix[id] = append(ix[id], p)
		}
	}
	x.byKey[sig] = ix
	x.sets[sig] = ks
	return ix
}

// find returns the live positions whose identity under ks is id.
func (x *listIndex) find(ks keySet, id string) []int {
	return x.index(ks)[id]
}

// remove deletes the item at p.
func (x *listIndex) remove(p int) {
	x.dead[p] = true
	x.unindex(p)
}

func (x *listIndex) unindex(p int) {
	for sig, ix := range x.byKey {
		id := idOf(x.sets[sig], x.items[p])
		ix[id] = slices.DeleteFunc(ix[id], func(q int) bool { return q == p })
	}
}

func (x *listIndex) reindex(p int) {
	for sig, ix := range x.byKey {
		id := idOf(x.sets[sig], x.items[p])
		ix[id] = append(ix[id], p)
		slices.Sort(ix[id])
	}
}

// set replaces the item at p, whose identity may change.
func (x *listIndex) set(p int, v any) {
	x.unindex(p)
	x.items[p] = v
	x.reindex(p)
}

// add appends an item.
func (x *listIndex) add(v any) {
	x.items = append(x.items, v)
	x.dead = append(x.dead, false)
	x.reindex(len(x.items) - 1)
}

// live returns the items not deleted, in order.
func (x *listIndex) live() []any {
	out := make([]any, 0, len(x.items))
	for p, it := range x.items {
		if !x.dead[p] {
			out = append(out, it)
		}
	}
	return out
}
