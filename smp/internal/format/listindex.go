package format

import (
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// ListIndex indexes a merge list being patched (its identities): which
// positions are deleted, and per key set the identity of every position
// and an index from identity to positions, built on first use and kept
// current as items change. Every operation costs O(log n) amortized,
// however many items share an identity, and every identity is computed
// once per change.
type ListIndex struct {
	dead  []bool
	ndead int // how many of dead are true
	// own indexes the first key set asked about, more any others (a
	// few at most); each is built on first use.
	own  keyIndex
	more []*keyIndex
}

// keyIndex is one key set's view of a ListIndex. An identity's positions
// form a min-heap that may hold stale entries (deleted, or moved to
// another identity by set): they are dropped when they reach the top, so
// no change ever searches a list of positions. A list of at most
// smallList items has no pos: its ids are scanned.
type keyIndex struct {
	ks  KeySet
	ids []string // by position
	pos map[string]idPositions
}

// smallList is the most items a keyIndex scans rather than maps.
const smallList = 8

// idPositions is one identity's positions and how many of them are live.
type idPositions struct {
	heap posHeap
	live int
}

// Identities gives the identity under a key set of an item of a list.
type Identities interface {
	KeyID(p int, ks KeySet) string
}

// NewListIndex indexes n items. Its methods take the items' identities
// (src), which change as the items do.
func NewListIndex(n int) ListIndex {
	return ListIndex{dead: make([]bool, n)}
}

// each calls f on every key set's index built so far.
func (x *ListIndex) each(f func(ix *keyIndex)) {
	if x.own.ids == nil {
		return
	}
	f(&x.own)
	for _, ix := range x.more {
		f(ix)
	}
}

// IDOf returns an item's identity under ks. Items that are not objects
// share "\x02", which KeySet.ID never returns (a one-field identity is
// empty or starts with NUL, AbsentMark or a byte from 0x20 up; a longer
// one starts with a letter), so they never match an object.
func IDOf(ks KeySet, item any) string {
	switch m := item.(type) {
	case map[string]any:
		id, _ := ks.ID(m)
		return id
	case jsonval.Raw:
		if jsonval.RawKind(m) == jsonval.KindObject {
			return ks.RawID(m)
		}
	}
	return "\x02"
}

func (x *ListIndex) index(src Identities, ks KeySet) *keyIndex {
	if x.own.ids != nil && slices.Equal(x.own.ks.Fields, ks.Fields) {
		return &x.own
	}
	for _, ix := range x.more {
		if slices.Equal(ix.ks.Fields, ks.Fields) {
			return ix
		}
	}
	n := len(x.dead)
	ix := &x.own
	if x.own.ids != nil {
		ix = &keyIndex{}
		x.more = append(x.more, ix)
	}
	*ix = keyIndex{ks: ks, ids: make([]string, n)}
	for p := range n {
		ix.ids[p] = src.KeyID(p, ks)
	}
	if n > smallList {
		ix.mapIDs(x.dead)
	}
	return ix
}

// mapIDs builds pos from ids.
func (ix *keyIndex) mapIDs(dead []bool) {
	n := len(ix.ids)
	ix.pos = make(map[string]idPositions, n)
	// One backing array serves every identity held once: position p's
	// heap is one[p:p+1:p+1], which a second holder copies on append.
	// Positions are added in increasing order, so each heap is sorted.
	one := make([]int, n)
	for p, id := range ix.ids {
		if dead[p] {
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
}

// scan is first for a keyIndex without pos.
func (x *ListIndex) scan(ix *keyIndex, id string) (p, n int) {
	p = -1
	for q, qid := range ix.ids {
		if qid == id && !x.dead[q] {
			if n == 0 {
				p = q
			}
			n++
		}
	}
	return p, n
}

// First returns the First live position whose identity under ks is id,
// and how many live positions have it (0 for none).
func (x *ListIndex) First(src Identities, ks KeySet, id string) (p, n int) {
	ix := x.index(src, ks)
	if ix.pos == nil {
		return x.scan(ix, id)
	}
	e, ok := ix.pos[id]
	if !ok || e.live == 0 {
		return -1, 0
	}
	for !x.holds(ix, e.heap[0], id) {
		e.heap = e.heap.pop()
	}
	ix.pos[id] = e
	return e.heap[0], e.live
}

// ID returns the identity under ks of the item at p, as last read.
func (x *ListIndex) ID(src Identities, ks KeySet, p int) string {
	return x.index(src, ks).ids[p]
}

// Positions returns the live Positions whose identity under ks is id, in
// order.
func (x *ListIndex) Positions(src Identities, ks KeySet, id string) []int {
	ix := x.index(src, ks)
	var out []int
	if ix.pos == nil {
		for p := range ix.ids {
			if x.holds(ix, p, id) {
				out = append(out, p)
			}
		}
		return out
	}
	for _, p := range ix.pos[id].heap {
		if x.holds(ix, p, id) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out) // a position moved away and back is listed twice
}

// RemoveAll deletes every item whose identity under ks is id.
func (x *ListIndex) RemoveAll(src Identities, ks KeySet, id string) {
	ix := x.index(src, ks)
	if ix.pos == nil {
		for p := range ix.ids {
			if x.holds(ix, p, id) {
				x.Remove(p)
			}
		}
		return
	}
	e := ix.pos[id]
	for _, p := range e.heap {
		if x.holds(ix, p, id) {
			x.Remove(p)
		}
	}
	delete(ix.pos, id)
}

// holds reports whether live position p has identity id in ix.
func (x *ListIndex) holds(ix *keyIndex, p int, id string) bool {
	return !x.dead[p] && ix.ids[p] == id
}

// Remove deletes the item at p; its heap entries go stale.
func (x *ListIndex) Remove(p int) {
	if x.dead[p] {
		return
	}
	x.dead[p] = true
	x.ndead++
	x.each(func(ix *keyIndex) { ix.count(ix.ids[p], -1) })
}

// count changes how many live positions hold id.
func (ix *keyIndex) count(id string, by int) {
	if ix.pos == nil {
		return
	}
	e := ix.pos[id]
	e.live += by
	ix.pos[id] = e
}

// push adds live position p under id.
func (ix *keyIndex) push(id string, p int) {
	if ix.pos == nil {
		return
	}
	e := ix.pos[id]
	e.heap = e.heap.push(p)
	e.live++
	ix.pos[id] = e
}

// Changed re-reads the identities of the item at p, which the source has
// replaced: an identity that Changed leaves a stale entry and pushes a
// new one.
func (x *ListIndex) Changed(src Identities, p int) {
	x.each(func(ix *keyIndex) {
		if id := src.KeyID(p, ix.ks); id != ix.ids[p] {
			ix.count(ix.ids[p], -1)
			ix.ids[p] = id
			ix.push(id, p)
		}
	})
}

// Added indexes the item the source has appended.
func (x *ListIndex) Added(src Identities) {
	x.dead = append(x.dead, false)
	p := len(x.dead) - 1
	x.each(func(ix *keyIndex) {
		id := src.KeyID(p, ix.ks)
		ix.ids = append(ix.ids, id)
		if ix.pos == nil && len(ix.ids) > smallList {
			ix.mapIDs(x.dead)
		} else {
			ix.push(id, p)
		}
	})
}

// Live returns the identities under ks of the positions not deleted, in
// order, and with positions true the positions too.
func (x *ListIndex) Live(src Identities, ks KeySet, positions bool) ([]int, []string) {
	ix := x.index(src, ks)
	if !positions && x.ndead == 0 {
		return nil, ix.ids[:len(ix.ids):len(ix.ids)]
	}
	var out []int
	if positions {
		out = make([]int, 0, len(x.dead))
	}
	ids := make([]string, 0, len(x.dead))
	for p, dead := range x.dead {
		if !dead {
			if positions {
				out = append(out, p)
			}
			ids = append(ids, ix.ids[p])
		}
	}
	return out, ids
}

// posHeap is a min-heap of positions. Its operations take and return
// the slice, so that no idPositions moves to the heap to be changed
// through a pointer.
type posHeap []int

// push adds p.
func (h posHeap) push(p int) posHeap {
	h = append(h, p)
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if h[parent] <= h[i] {
			break
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
	return h
}

// pop removes the least position.
func (h posHeap) pop() posHeap {
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		least := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(h) && h[c] < h[least] {
				least = c
			}
		}
		if least == i {
			return h
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
