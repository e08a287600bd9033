package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"maps"
	"slices"
)

// objList is one merge list of objects being diffed: the two lists, their
// elements' identities, how the elements pair, and, in a three-way pass,
// the followed document's elements.
type objList struct {
	d          *differ
	ol, ml     []any
	oids, mids []string // identities under ks
	lk         format.ListKeys
	ks, def    format.KeySet // the identities written; the default key
	es         slot          // the elements' slot
	at         *pathNode
	// base holds the followed document's elements by identity (withBase).
	base map[string]any
	// pairs gives, for each element of ml, the paired element of ol, or -1.
	pairs []int
	// renames are liveRename's candidates, built on first use.
	renames *agreeIndex
	// baseDefaults are the default keys of base's elements, built on first use.
	baseDefaults map[string]bool
}

func (d *differ) newObjList(ol, ml []any, s slot, at *pathNode) objList {
	lk := format.KeysOf(s)
	ks := d.listKeySet(s)
	return objList{d: d, ol: ol, ml: ml, oids: idsUnder(ks, ol), mids: idsUnder(ks, ml),
		lk: lk, ks: ks, def: lk.DefaultSet(), es: s.Elem(), at: at}
}

// mustReplace reports whether the list can only be written whole: an
// element without its default key, duplicates a keyed patch would lose,
// or, skew-safe, a default key shared by several elements.
func (x *objList) mustReplace() bool {
	d := x.d
	if !keyable(x.ol, x.def) || !keyable(x.ml, x.def) || !d.keyedOnly() && !keyedSafe(x.oids, x.mids) {
		return true
	}
	if !d.cfg.skewSafe || !x.ks.Directive || d.keyedOnly() {
		return false
	}
	if hasDuplicates(idsUnder(x.def, x.ml)) {
		return true
	}
	if !hasDuplicates(idsUnder(x.def, x.ol)) {
		return false
	}
	// Only the original shares a default key. The deletions pass, which
	// writes no list whole, names elements one by one where current does
	// not share it either: each deletion then addresses one live element
	// on any server, or is left out (deletions).
	bl, _ := d.base.([]any)
	return d.pass != passDeletions || !keyable(bl, x.def) || hasDuplicates(idsUnder(x.def, bl))
}

// indexBase indexes the followed document's elements by identity.
func (x *objList) indexBase() {
	if bl, ok := x.d.base.([]any); ok && x.d.withBase() {
		x.base = make(map[string]any, len(bl))
		for _, e := range bl {
			x.base[format.IDOf(x.ks, e)] = e
		}
	}
}

// rekeyed returns the default keys of the original's elements whose key
// changed. A key change is a deletion and a creation (seed 000); the
// deletions pass writes the creation too, even when current already
// holds the element: a server that knows no $patchMergeKey deletes by the
// default key, which takes the element with it.
func (x *objList) rekeyed() map[string]bool {
	if x.d.pass != passDeletions || !x.ks.Directive {
		return nil
	}
	inM := make(map[string]bool, len(x.mids))
	for _, id := range x.mids {
		inM[id] = true
	}
	var out map[string]bool
	for j, e := range x.ol {
		if !inM[x.oids[j]] {
			if out == nil {
				out = map[string]bool{}
			}
			out[format.IDOf(x.def, e)] = true
		}
	}
	return out
}

// changes returns the patch entries of modified's elements: additions
// and changes, and the deletions that re-create elements only a
// replacement can write. whole asks for the list written whole.
func (x *objList) changes() (list, recreated []any, whole bool, err error) {
	d := x.d
	rekeyed := x.rekeyed()
	for i, e := range x.ml {
		m := e.(map[string]any)
		if x.pairs[i] >= 0 {
			entry, up, err := x.changed(i, m)
			if err != nil || up {
				return nil, nil, up, err
			}
			if entry != nil {
				list = append(list, entry)
			}
			continue
		}
		if d.ignoreChanges() && !rekeyed[format.IDOf(x.def, m)] {
			continue
		}
		add, addWhole := d.addedElement(m, x.es)
		if addWhole && d.recreates() {
			recreated = append(recreated, d.deletionOf(m, x.ks))
		} else if addWhole && !d.ignoreChanges() && !d.keyedOnly() {
			return nil, nil, true, nil
		}
		// The delta pass may have paired this element with a live one
		// whose key fields the server filled in: the creation names that
		// element, as its order entry does.
		if live := x.liveRename(m, x.mids[i]); live != nil {
			add = maps.Clone(add)
			for _, f := range x.ks.Fields {
				if v, ok := live[f]; ok {
					add[f] = v
				}
			}
		}
		list = append(list, withKeyDirective(add, x.ks, false))
	}
	return list, recreated, false, nil
}

// changed returns the patch entry of modified's element i, m, paired with
// an element of the original (nil for no change); up asks for the list
// written whole.
func (x *objList) changed(i int, m map[string]any) (entry map[string]any, up bool, err error) {
	d := x.d
	p := x.pairs[i]
	from := x.ol[p].(map[string]any)
	keyed := from // the live element's keys name it
	filled := d.keyedOnly() && x.oids[p] != x.mids[i]
	if filled {
		keyed = m // paired by pairFilled: current's keys name it
	}
	baseElem := x.base[x.mids[i]]
	if live := x.liveRename(m, x.mids[i]); live != nil {
		keyed, baseElem = live, live
	}
	restore := d.descend(baseElem)
	sub, up, err := d.diffObject(from, m, x.es, x.at.Key(x.ks.KeyStep(m)))
	restore()
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
	for _, f := range x.ks.Fields {
		if v, ok := keyed[f]; ok {
			sub[f] = v
		}
	}
	return withKeyDirective(sub, x.ks, true), false, nil
}

// deletions returns the deletion entries of the original's elements
// modified does not hold.
func (x *objList) deletions() []any {
	d := x.d
	if d.ignoreDeletions() {
		return nil
	}
	inModified := make(map[string]bool, len(x.ml))
	for _, id := range x.mids {
		inModified[id] = true
	}
	paired := make([]bool, len(x.ol)) // by pairFilled, under other keys
	for _, p := range x.pairs {
		if p >= 0 {
			paired[p] = true
		}
	}
	var out []any
	for i, e := range x.ol {
		if inModified[x.oids[i]] || paired[i] {
			continue
		}
		m := e.(map[string]any)
		if x.base != nil && x.ks.Directive && d.ignoreChanges() {
			// The deletions pass, for an element current does not hold
			// under this identity: delete the live element whose key
			// fields the server filled in; else, where current holds
			// another element of the same default key, write nothing (a
			// no-op here, but a server that knows no $patchMergeKey would
			// delete that one).
			if _, held := x.base[x.oids[i]]; !held {
				if live := x.liveRename(m, x.oids[i]); live != nil {
					m = live
				} else if heldDefaults(&x.baseDefaults, x.base, x.def)[format.IDOf(x.def, m)] {
					continue
				}
			}
		}
		del := map[string]any{format.KeyPatch: format.PatchDelete}
		for _, f := range x.ks.Fields {
			if v, ok := m[f]; ok {
				del[f] = v
			}
		}
		out = append(out, withKeyDirective(del, x.ks, true))
	}
	return out
}

// writeOrder writes the list's $setElementOrder where the pass wants it:
// the patch changed the list, or (changes and additions) its order did.
func (x *objList) writeOrder(patch map[string]any, k string, changed bool) {
	d := x.d
	if len(x.ml) == 0 || !d.wantListOrder(changed, slices.Equal(x.oids, x.mids)) {
		return
	}
	order := make([]any, len(x.ml))
	for i, e := range x.ml {
		m := e.(map[string]any)
		if x.pairs[i] >= 0 {
			// A pair made on partial keys names the live element, as the
			// patch list does.
			m = x.ol[x.pairs[i]].(map[string]any)
		}
		entry := make(map[string]any, len(x.ks.Fields)+1)
		for _, f := range x.ks.Fields {
			if v, ok := m[f]; ok {
				entry[f] = v
			}
		}
		order[i] = withKeyDirective(entry, x.ks, true)
	}
	patch[format.PrefixSetOrder+k] = order
}
