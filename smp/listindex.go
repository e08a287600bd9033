package smp

import (
	"container/heap"
	"slices"
)

// listIndex is a merge list being patched: its items, which are deleted,
// and per key set the identity of every item and an index from identity
// to positions, built on first use and kept current as items change. Every
// operation costs O(log n) amortized, however many items share an
// identity, and every identity is computed once per change.
type listIndex struct {
	items []any
	dead  []bool
	byKey map[string]*keyIndex
}

// keyIndex is one key set's view of a listIndex. An identity's positions
// form a min-heap that may hold stale entries (deleted, or moved to
// another identity by set): they are dropped when they reach the top, so
// no change ever searches a list of positions.
type keyIndex struct {
	ks  keySet
	ids []string // by position
	pos map[string]idPositions
}

// idPositions is one identity's positions and how many of them are live.
type idPositions struct {
	heap posHeap
	live int
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
	ix := &keyIndex{ks: ks, ids: make([]string, len(x.items)), pos: make(map[string]idPositions, len(x.items))}
	// One backing array serves every identity held once: position p's
	// heap is one[p:p+1:p+1], which a second holder copies on append.
	// Positions are added in increasing order, so each heap is sorted.
	one := make([]int, len(x.items))
	for p, it := range x.items {
		id := idOf(ks, it)
		ix.ids[p] = id
		if x.dead[p] {
			continue
		}
		e, ok := ix.pos[id]
		if ok {
			e.heap = append(e.heap, p)
		} else {
			one[p] = p
			e.heap = one[p : p+1 : p+1]
		}
		e.live++
		ix.pos[id] = e
	}
	x.byKey[sig] = ix
	return ix
}

// first returns the first live position whose identity under ks is id,
// and how many live positions have it (0 for none).
func (x *listIndex) first(ks keySet, id string) (p, n int) {
	ix := x.index(ks)
	e, ok := ix.pos[id]
	if !ok || e.live == 0 {
		return -1, 0
	}
	for !x.holds(ix, e.heap[0], id) {
		heap.Pop(&e.heap)
	}
	ix.pos[id] = e
	return e.heap[0], e.live
}

// positions returns the live positions whose identity under ks is id, in
// order.
func (x *listIndex) positions(ks keySet, id string) []int {
	ix := x.index(ks)
	var out []int
	for _, p := range ix.pos[id].heap {
		if x.holds(ix, p, id) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out) // a position moved away and back is listed twice
}

// removeAll deletes every item whose identity under ks is id.
func (x *listIndex) removeAll(ks keySet, id string) {
	ix := x.index(ks)
	e := ix.pos[id]
	for _, p := range e.heap {
		if x.holds(ix, p, id) {
			x.remove(p)
		}
	}
	delete(ix.pos, id)
}

// holds reports whether live position p has identity id in ix.
func (x *listIndex) holds(ix *keyIndex, p int, id string) bool {
	return !x.dead[p] && ix.ids[p] == id
}

// remove deletes the item at p; its heap entries go stale.
func (x *listIndex) remove(p int) {
	if x.dead[p] {
		return
	}
	x.dead[p] = true
	for _, ix := range x.byKey {
		ix.count(ix.ids[p], -1)
	}
}

// count changes how many live positions hold id.
func (ix *keyIndex) count(id string, by int) {
	e := ix.pos[id]
	e.live += by
	ix.pos[id] = e
}

// push adds live position p under id.
func (ix *keyIndex) push(id string, p int) {
	e := ix.pos[id]
	heap.Push(&e.heap, p)
	e.live++
	ix.pos[id] = e
}

// set replaces the item at p, whose identity may change: the old entry
// goes stale and a new one is pushed.
func (x *listIndex) set(p int, v any) {
	x.items[p] = v
	for _, ix := range x.byKey {
		id := idOf(ix.ks, v)
		if id == ix.ids[p] {
			continue
		}
		ix.count(ix.ids[p], -1)
		ix.ids[p] = id
		ix.push(id, p)
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
		ix.push(id, p)
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

// posHeap is a min-heap of positions.
type posHeap []int

func (h posHeap) Len() int           { return len(h) }
func (h posHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h posHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *posHeap) Push(v any)        { *h = append(*h, v.(int)) }
func (h *posHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}
