package engine

import (
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// listField composes two patches' parts for one merge list. In a fresh
// object the list is absent before a, so the sequence's result is known
// and written as it is.
func (c *composer) listField(a, b fieldPart, s slot, at *pathNode, fresh bool) (fieldPart, error) {
	switch {
	case !b.any():
		return a, nil
	case !a.any():
		return b, nil
	case b.null():
		return b, nil
	case a.null():
		return c.overNothing(b, s, at)
	case fresh:
		return c.materialized(s, at, false, a, b)
	}
	if !s.IsObjectList() {
		return c.scalarList(a, b, s, at)
	}
	al, _ := a.val.([]any)
	bl, _ := b.val.([]any)
	if hasReplaceMarker(bl) {
		if orderedByLive(b, bl) {
			return fieldPart{}, c.refuse(at, "the list is replaced by %s with an empty %s, which orders it by the list %s leave", c.later, format.PrefixSetOrder+at.Name(), c.earlier)
		}
		return b, nil
	}
	if hasReplaceMarker(al) {
		if orderedByLive(a, al) {
			return fieldPart{}, c.refuse(at, "the list is replaced by %s with an empty %s, which orders it by the document's list", c.earlier, format.PrefixSetOrder+at.Name())
		}
		return c.materialized(s, at, true, a, b)
	}
	return c.objectList(a, b, s, at)
}

// orderedByLive reports whether a replacing list part has an empty
// $setElementOrder, which sorts its items by the live list's order.
func orderedByLive(p fieldPart, l []any) bool {
	return p.hasOrder && len(p.order) == 0 && len(l) > 1
}

// overNothing composes b after a patch that removed the list: b merges
// into nothing, so a list of objects is written whole; a set cannot be.
func (c *composer) overNothing(b fieldPart, s slot, at *pathNode) (fieldPart, error) {
	if !b.has {
		return fieldPart{has: true}, nil // ordering or deleting in no list
	}
	if !s.IsObjectList() {
		return fieldPart{}, c.refuse(at, "the set is filled by %s after %s removed it; no one patch can empty a set and fill it, whatever the document holds", c.later, c.earlier)
	}
	return c.materialized(s, at, true, b)
}

// materialized applies list parts in turn to no list and returns the
// result as a list, with a marker that replaces whatever the document
// holds if marker is set.
func (c *composer) materialized(s slot, at *pathNode, marker bool, parts ...fieldPart) (fieldPart, error) {
	a := &Applier{Cfg: c.cfg}
	var cur []any
	present := false
	for _, p := range parts {
		if p.null() {
			cur, present = nil, false
			continue
		}
		if !present && !p.has {
			continue
		}
		pl, _ := p.val.([]any)
		in := ListInput{Orig: cur, OrigPresent: present, Patch: pl, InPatch: p.has,
			setOrder: p.order, hasSetOrder: p.hasOrder, deletes: p.dels, hasDeletes: p.hasDels,
			dirsAt: at}
		l, err := a.MergeList(in, s, at)
		if err != nil {
			return fieldPart{}, err
		}
		cur, present = l, true
	}
	if !present {
		return fieldPart{has: true}, nil
	}
	out := make([]any, 0, len(cur)+1)
	out = append(out, cur...)
	if marker {
		out = append(out, map[string]any{format.KeyPatch: format.PatchReplace})
	}
	return fieldPart{has: true, val: out}, nil
}

// elemOp is what a patch does to the elements with one identity: delete
// them (del, a deletion element), then merge body into the first or
// create it.
type elemOp struct {
	del  map[string]any
	body map[string]any
	elem map[string]any // an element naming the identity, for paths
}

// listSide is one patch's part for a merge list of objects, by identity.
type listSide struct {
	ops    map[string]*elemOp
	merged []string        // identities merged, in patch order
	order  []string        // identities in $setElementOrder, in its order
	elems  map[string]bool // identities in $setElementOrder
	// entries are the $setElementOrder entries by identity, for paths.
	entries map[string]map[string]any
	// live holds the identities certainly in the list after the patch
	// (merged, not deleted after), dels those it deletes.
	live, dels map[string]bool
}

// objectList composes two merging parts for a merge list of objects.
func (c *composer) objectList(a, b fieldPart, s slot, at *pathNode) (fieldPart, error) {
	lk := format.KeysOf(s)
	var ks *format.KeySet
	var pmk any // the $patchMergeKey value the elements carry
	sides := [2]listSide{}
	for i, p := range [2]fieldPart{a, b} {
		side, err := c.readSide(p, lk, s, at, &ks, &pmk)
		if err != nil {
			return fieldPart{}, err
		}
		sides[i] = side
	}
	ops := map[string]*elemOp{}
	for _, id := range byRank(sides[1].ops, nil) { // sorted: the same error first, always
		ob := sides[1].ops[id]
		r, err := c.composeOp(sides[0].ops[id], ob, s, at.Keyed(ks, ob.elem))
		if err != nil {
			return fieldPart{}, err
		}
		ops[id] = r
	}
	for id, oa := range sides[0].ops {
		if _, ok := ops[id]; !ok {
			ops[id] = oa
		}
	}
	out, rank, err := c.orderOf(a, b, sides, func(id string) bool {
		o := ops[id]
		return o != nil && o.body == nil && o.del != nil
	}, func(id string) *pathNode {
		if o := ops[id]; o != nil {
			return at.Keyed(ks, o.elem)
		}
		if e := sides[0].entries[id]; e != nil {
			return at.Keyed(ks, e)
		}
		return at
	}, at)
	if err != nil {
		return fieldPart{}, err
	}
	var bodies, dels []any
	for _, id := range byRank(ops, rank) {
		o := ops[id]
		if o.del != nil {
			dels = append(dels, o.del)
		}
		if o.body != nil {
			bodies = append(bodies, withMergeKeyList(o.body, pmk))
		}
	}
	if a.has || b.has || len(bodies)+len(dels) > 0 {
		out.has, out.val = true, append(append([]any{}, bodies...), dels...)
	}
	return out, nil
}

// readSide reads one part's elements and $setElementOrder entries. Every
// element of both parts must name elements by one key set, or which of
// them are the same would depend on the document.
func (c *composer) readSide(p fieldPart, lk format.ListKeys, s slot, at *pathNode, ks **format.KeySet, pmk *any) (listSide, error) {
	side := listSide{ops: map[string]*elemOp{}, elems: map[string]bool{}, entries: map[string]map[string]any{},
		live: map[string]bool{}, dels: map[string]bool{}}
	l, _ := p.val.([]any)
	read := func(e any, entry bool) error {
		m, _ := e.(map[string]any)
		eks, id, err := lk.ElementKey(m, c.cfg.Directives, at)
		if err != nil {
			return err
		}
		if *ks == nil {
			*ks = &eks
		} else if (*ks).Sig() != eks.Sig() || (*ks).Directive != eks.Directive {
			return c.refuse(at.Keyed(&eks, m), "the elements are named by different merge keys (%s): which are the same element depends on the document", format.KeyPatchMergeKey)
		}
		if v, ok := m[format.KeyPatchMergeKey]; ok && *pmk == nil {
			*pmk = v
		}
		if entry {
			if m[format.KeyPatch] == nil && !side.elems[id] {
				side.elems[id] = true
				side.order = append(side.order, id)
				side.entries[id] = m
			}
			return nil
		}
		op := side.ops[id]
		if op == nil {
			op = &elemOp{elem: m}
			side.ops[id] = op
		}
		if m[format.KeyPatch] == format.PatchDelete {
			if op.del == nil {
				op.del = m
			}
			side.dels[id] = true
			return nil
		}
		side.live[id] = true
		body := make(map[string]any, len(m))
		for k, v := range m {
			if k != format.KeyPatch && k != format.KeyPatchMergeKey {
				body[k] = v
			}
		}
		if op.body == nil {
			op.body = body
			side.merged = append(side.merged, id)
			return nil
		}
		op.body, err = c.object(op.body, body, s.Elem(), at.Keyed(*ks, m), op.del != nil)
		return err
	}
	for _, e := range l {
		if err := read(e, false); err != nil {
			return side, err
		}
	}
	for _, e := range p.order {
		if err := read(e, true); err != nil {
			return side, err
		}
	}
	return side, nil
}

// composeOp composes what two patches do to the elements of one identity.
func (c *composer) composeOp(oa, ob *elemOp, s slot, at *pathNode) (*elemOp, error) {
	switch {
	case oa == nil || ob.del != nil:
		return ob, nil // b deletes: what a did is gone, and b's body merges into nothing
	case ob.body == nil:
		return oa, nil
	case oa.body == nil:
		return &elemOp{del: oa.del, body: ob.body, elem: ob.elem}, nil
	}
	body, err := c.object(oa.body, ob.body, s.Elem(), at, oa.del != nil)
	if err != nil {
		return nil, err
	}
	return &elemOp{del: oa.del, body: body, elem: ob.elem}, nil
}

// withMergeKeyList gives a composed element the $patchMergeKey its list's
// elements carry.
func withMergeKeyList(body map[string]any, pmk any) map[string]any {
	if pmk == nil {
		return body
	}
	m := make(map[string]any, len(body)+1)
	for k, v := range body {
		m[k] = v
	}
	m[format.KeyPatchMergeKey] = pmk
	return m
}

// byRank lists the identities of ops: those in rank first, in its order,
// then the rest sorted (deletions, whose place does not matter).
func byRank[V any](ops map[string]V, rank []string) []string {
	out := make([]string, 0, len(ops))
	seen := make(map[string]bool, len(rank))
	for _, id := range rank {
		if _, ok := ops[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	var rest []string
	for id := range ops {
		if !seen[id] {
			rest = append(rest, id)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// keepsOrder reports whether b, which has no $setElementOrder, only
// merges into items a left in the list, in the order a left them: then
// b moves nothing.
func keepsOrder(a fieldPart, sides [2]listSide) bool {
	placed := sides[0].merged
	if a.hasOrder && len(sides[0].order) > 0 {
		placed = sides[0].order
	}
	pos := make(map[string]int, len(placed))
	for i, id := range placed {
		if _, ok := pos[id]; !ok {
			pos[id] = i
		}
	}
	last := -1
	for _, id := range sides[1].merged {
		p, ok := pos[id]
		if !ok || !sides[0].live[id] || sides[1].dels[id] || p < last {
			return false
		}
		last = p
	}
	return true
}

// orderOf decides the composed list's order: the part that orders the
// list, when only one does; else b's $setElementOrder, which must name
// every item a placed that b does not delete. It returns the composed
// part holding the order and the identities in order.
func (c *composer) orderOf(a, b fieldPart, sides [2]listSide, deleted func(string) bool, where func(string) *pathNode, at *pathNode) (fieldPart, []string, error) {
	orders := func(p fieldPart, side listSide) bool {
		return len(side.merged) > 0 || (p.hasOrder && len(side.order) > 0)
	}
	// a places items unless b deletes all it named.
	aPlaces := false
	for _, ids := range [2][]string{sides[0].merged, sides[0].order} {
		for _, id := range ids {
			aPlaces = aPlaces || !deleted(id)
		}
	}
	var out fieldPart
	switch {
	case !orders(b, sides[1]) && !aPlaces:
		return out, nil, nil // every item a named is gone, and b only deletes
	case !orders(b, sides[1]):
		out.order, out.hasOrder = a.order, a.hasOrder
		return out, sides[0].merged, nil
	case !aPlaces:
		out.order, out.hasOrder = b.order, b.hasOrder
		return out, sides[1].merged, nil
	case (!b.hasOrder || len(sides[1].order) == 0) && keepsOrder(a, sides):
		out.order, out.hasOrder = a.order, a.hasOrder
		return out, sides[0].merged, nil
	case !b.hasOrder || len(sides[1].order) == 0:
		return out, nil, c.refuse(at, "items %s placed are moved by %s, without a %s naming them all: where they end depends on the document", c.earlier, c.later, format.PrefixSetOrder+at.Name())
	}
	for _, ids := range [2][]string{sides[0].merged, sides[0].order} {
		for _, id := range ids {
			if !sides[1].elems[id] && !deleted(id) {
				return out, nil, c.refuse(where(id), "the %s of %s leaves out this item, which %s placed: where it ends depends on the document", format.PrefixSetOrder+at.Name(), c.later, c.earlier)
			}
		}
	}
	out.order, out.hasOrder = b.order, true
	return out, sides[1].order, nil
}
