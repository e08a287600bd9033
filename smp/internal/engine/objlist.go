package engine

import (
	"maps"
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// ObjList is one merge list of objects being diffed: the two lists, their
// elements' identities, how the elements pair, and, in a three-way pass,
// the followed document's elements. It reads the lists through DiffSide
// and leaves element diffs and JSON to its walker (ElemWalker), so the
// JSON and the typed differ diff lists of objects by the same rules.
type ObjList struct {
	d          *Differ
	w          ElemWalker
	o, m, b    DiffSide // the original's, modified's and the followed document's lists
	oids, mids []string // identities under ks
	lk         format.ListKeys
	ks, def    format.KeySet // the identities written; the default key
	es         slot          // the elements' slot
	// base holds the followed document's positions by identity, the last
	// of each (WithBase).
	base map[string]int
	// pairs gives, for each element of m, the paired element of o, or -1.
	pairs []int
	// renames are liveRename's candidates, built on first use.
	renames *agreeIndex
	// baseDefaults are the default keys of base's elements, built on first use.
	baseDefaults map[string]bool
	// counts are modified's identities, each with its count in the
	// original, built on first use.
	counts *idCounts
	// aligned caches sameUnique: 0 not yet known, 1 true, 2 false.
	aligned int8
}

// sameUnique reports whether the two lists hold the same identities in
// the same places, none twice: then element i pairs with element i, no
// element is deleted and the list is keyed-safe, all known without a
// map from identity to position (values changed in place, the common
// case, cost one pass and one set).
func (x *ObjList) sameUnique() bool {
	if x.aligned == 0 {
		x.aligned = 2
		if slices.Equal(x.oids, x.mids) && !hasDuplicates(x.mids) {
			x.aligned = 1
		}
	}
	return x.aligned == 1
}

// keyedSafe is keyedSafe of the list's identities.
func (x *ObjList) keyedSafe() bool {
	if x.sameUnique() {
		return true
	}
	if len(x.mids) <= smallIDs {
		return keyedSafe(x.oids, x.mids)
	}
	return x.inModified().safe()
}

// inModified returns modified's identities, each with how often the
// original holds it.
func (x *ObjList) inModified() *idCounts {
	if x.counts == nil {
		c := countIn(x.oids, x.mids)
		x.counts = &c
	}
	return x.counts
}

// held reports whether modified holds identity id.
func (x *ObjList) held(id string) bool {
	if len(x.mids) <= smallIDs {
		return slices.Contains(x.mids, id)
	}
	_, ok := x.inModified().inM[id]
	return ok
}

// ElemWalker is what ObjList asks of the walker whose lists it diffs.
type ElemWalker interface {
	// DiffElem returns the patch turning the original's element p into
	// modified's element i, descending into the followed document's
	// element b (-1 for none); up asks for the list written whole.
	DiffElem(p, i, b int) (sub map[string]any, up bool, err error)
	// Added returns modified's element i as JSON, for its creation.
	Added(i int) (map[string]any, error)
	// Lists returns the original's list (when original) and modified's
	// as JSON, for a list written whole.
	Lists(original bool) (ol, ml []any, err error)
	// Equal reports whether the two lists are equal.
	Equal() bool
}

// NewObjList starts the diff of one merge list of objects: the two
// sides, the followed document's (b, nil for none), and the walker that
// diffs their elements.
func (d *Differ) NewObjList(w ElemWalker, o, m, b DiffSide, s slot) ObjList {
	lk := format.KeysOf(s)
	ks := d.ListKeySet(s)
	return ObjList{d: d, w: w, o: o, m: m, b: b, oids: sideIDs(o, ks), mids: sideIDs(m, ks),
		lk: lk, ks: ks, def: lk.DefaultSet(), es: s.Elem()}
}

// Diff writes into patch, under k, what turns the original's list into
// modified's.
func (x *ObjList) Diff(patch map[string]any, k string) error {
	d := x.d
	if x.mustReplace() {
		return x.writeWhole(patch, k, false)
	}
	x.indexBase()
	x.pair()
	if d.Cfg.SkewSafe && x.ks.Directive && !d.KeyedOnly() && d.Pass == PassDelta && x.survivorShares() {
		ol, ml, err := x.w.Lists(true)
		if err != nil {
			return err
		}
		patch[k] = ReplaceList(x.withOthersAdded(withLiveKeys(ml, ol, x.pairs, x.ks), ol))
		return nil
	}
	list, recreated, whole, err := x.changes()
	if err != nil {
		return err
	}
	if whole {
		return x.writeWhole(patch, k, true)
	}
	list = append(list, sortDeletions(append(x.deletions(), recreated...), x.ks)...)
	if len(list) > 0 {
		patch[k] = x.d.lists.List(list)
	}
	x.writeOrder(patch, k, len(list) > 0)
	return nil
}

// writeWhole writes modified's list as a replacement, unless the pass
// writes no changes or (changed false) the lists are equal. (writeOf's
// rule, written out: a Change holding x would move it to the heap.)
func (x *ObjList) writeWhole(patch map[string]any, k string, changed bool) error {
	if x.d.IgnoreChanges() || !changed && x.w.Equal() {
		return nil
	}
	if x.d.Pass == PassDelta {
		cl, ml, err := x.w.Lists(true)
		if err != nil {
			return err
		}
		patch[k] = ReplaceList(x.withOthersAdded(ml, cl))
		return nil
	}
	_, ml, err := x.w.Lists(false)
	if err != nil {
		return err
	}
	patch[k] = ReplaceList(ml)
	return nil
}

// mustReplace reports whether the list can only be written whole: an
// element without its default key, duplicates a keyed patch would lose,
// or, skew-safe, a default key shared by several elements.
func (x *ObjList) mustReplace() bool {
	d := x.d
	if !sideKeyable(x.o, x.def) || !sideKeyable(x.m, x.def) || !d.KeyedOnly() && !x.keyedSafe() {
		return true
	}
	if !d.Cfg.SkewSafe || !x.ks.Directive || d.KeyedOnly() {
		return false
	}
	if hasDuplicates(sideIDs(x.m, x.def)) {
		return true
	}
	if !hasDuplicates(sideIDs(x.o, x.def)) {
		return false
	}
	// Only the original shares a default key. The deletions pass, which
	// writes no list whole, names elements one by one where current does
	// not share it either: each deletion then addresses one live element
	// on any server, or is left out (deletions).
	return d.Pass != PassDeletions || !sideKeyable(x.b, x.def) || hasDuplicates(sideIDs(x.b, x.def))
}

// indexBase indexes the followed document's elements by identity.
func (x *ObjList) indexBase() {
	if x.b != nil && x.d.WithBase() {
		x.base = make(map[string]int, x.b.Count())
		for p := range x.b.Count() {
			x.base[x.b.KeyID(p, x.ks)] = p
		}
	}
}

// baseAt returns the followed document's element of identity id, or -1.
func (x *ObjList) baseAt(id string) int {
	if p, ok := x.base[id]; ok {
		return p
	}
	return -1
}

// rekeyed returns the default keys of the original's elements whose key
// changed. A key change is a deletion and a creation (the multi-field merge key proposal); the
// deletions pass writes the creation too, even when current already
// holds the element: a server that knows no $patchMergeKey deletes by the
// default key, which takes the element with it.
func (x *ObjList) rekeyed() map[string]bool {
	if x.d.Pass != PassDeletions || !x.ks.Directive || x.sameUnique() {
		return nil
	}
	var out map[string]bool
	for p := range x.oids {
		if !x.held(x.oids[p]) {
			if out == nil {
				out = map[string]bool{}
			}
			out[x.o.KeyID(p, x.def)] = true
		}
	}
	return out
}

// changes returns the patch entries of modified's elements: additions
// and changes, and the deletions that re-create elements only a
// replacement can write. whole asks for the list written whole.
func (x *ObjList) changes() (list, recreated []any, whole bool, err error) {
	d := x.d
	rekeyed := x.rekeyed()
	for i := range x.mids {
		if x.pairs[i] >= 0 {
			entry, up, err := x.changed(i)
			if err != nil || up {
				return nil, nil, up, err
			}
			if entry != nil {
				list = append(list, entry)
			}
			continue
		}
		if d.IgnoreChanges() && !rekeyed[x.m.KeyID(i, x.def)] {
			continue
		}
		m, err := x.w.Added(i)
		if err != nil {
			return nil, nil, true, err
		}
		add, addWhole := d.addedElement(m, x.es)
		if addWhole && d.recreates() {
			recreated = append(recreated, d.deletionOf(m, x.ks))
		} else if addWhole && !d.IgnoreChanges() && !d.KeyedOnly() {
			return nil, nil, true, nil
		}
		// The delta pass may have paired this element with a live one
		// whose key fields the server filled in: the creation names that
		// element, as its order entry does.
		if live := x.liveRename(i); live >= 0 {
			add = maps.Clone(add)
			copyKeyFields(add, x.b, live, x.ks)
		}
		list = append(list, WithKeyDirective(add, x.ks, false))
	}
	return list, recreated, false, nil
}

// copyKeyFields copies into dst the fields of ks that element p of s has.
func copyKeyFields(dst map[string]any, s DiffSide, p int, ks format.KeySet) {
	for _, f := range ks.Fields {
		if v, ok := s.KeyField(p, f); ok {
			dst[f] = v
		}
	}
}

// changed returns the patch entry of modified's element i, paired with
// an element of the original (nil for no change); up asks for the list
// written whole.
func (x *ObjList) changed(i int) (entry map[string]any, up bool, err error) {
	d := x.d
	p := x.pairs[i]
	keyed, kp := x.o, p // the live element's keys name it
	filled := d.KeyedOnly() && x.oids[p] != x.mids[i]
	if filled {
		keyed, kp = x.m, i // paired by pairFilled: current's keys name it
	}
	b := x.baseAt(x.mids[i])
	if live := x.liveRename(i); live >= 0 {
		keyed, kp, b = x.b, live, live
	}
	if b < 0 && d.IgnoreChanges() {
		// Current lacks the element: the delta pass adds it whole, and a
		// deletion inside it would delete nothing here, while a server,
		// which appends a new element as the patch holds it, would store
		// the directive.
		return nil, false, nil
	}
	sub, up, err := x.w.DiffElem(p, i, b)
	if err != nil || up {
		return nil, up, err
	}
	if filled {
		for _, f := range x.ks.Fields {
			delete(sub, f) // key fields the server filled in are no change
		}
	}
	if len(sub) == 0 {
		return nil, false, nil
	}
	copyKeyFields(sub, keyed, kp, x.ks)
	return WithKeyDirective(sub, x.ks, true), false, nil
}

// deletions returns the deletion entries of the original's elements
// modified does not hold.
func (x *ObjList) deletions() []any {
	d := x.d
	if d.ignoreDeletions() || x.sameUnique() {
		return nil
	}
	paired := make([]bool, len(x.oids)) // by pairFilled, under other keys
	for _, p := range x.pairs {
		if p >= 0 {
			paired[p] = true
		}
	}
	var out []any
	for p := range x.oids {
		if x.held(x.oids[p]) || paired[p] {
			continue
		}
		named, np := x.o, p
		if x.base != nil && x.ks.Directive && d.IgnoreChanges() {
			// The deletions pass, for an element current does not hold
			// under this identity: delete the live element whose key
			// fields the server filled in; else, where current holds
			// another element of the same default key, write nothing (a
			// no-op here, but a server that knows no $patchMergeKey would
			// delete that one).
			if _, held := x.base[x.oids[p]]; !held {
				if live := x.renameOf(x.o, p, x.oids[p]); live >= 0 {
					named, np = x.b, live
				} else if x.heldDefaults()[x.o.KeyID(p, x.def)] {
					continue
				}
			}
		}
		del := map[string]any{format.KeyPatch: format.PatchDelete}
		copyKeyFields(del, named, np, x.ks)
		out = append(out, WithKeyDirective(del, x.ks, true))
	}
	return out
}

// writeOrder writes the list's $setElementOrder where the pass wants it:
// the patch changed the list, or (changes and additions) its order did.
func (x *ObjList) writeOrder(patch map[string]any, k string, changed bool) {
	d := x.d
	if len(x.mids) == 0 || !d.WantListOrder(changed, slices.Equal(x.oids, x.mids)) {
		return
	}
	order := make([]any, len(x.mids))
	for i := range x.mids {
		entry := make(map[string]any, len(x.ks.Fields)+1)
		if p := x.pairs[i]; p >= 0 {
			// A pair made on partial keys names the live element, as the
			// patch list does.
			copyKeyFields(entry, x.o, p, x.ks)
		} else {
			copyKeyFields(entry, x.m, i, x.ks)
		}
		order[i] = WithKeyDirective(entry, x.ks, true)
	}
	patch[format.PrefixSetOrder+k] = d.lists.List(order)
}
