package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"reflect"
	"slices"
)

// tstructList is a typed merge list of structs being diffed: in place
// (diffPositional), or by key (diff) where every element of each list has
// its key and none shares one: objList's work on Go values, for the
// passes that pair elements by identity alone.
type tstructList struct {
	d          *tdiffer
	k          string
	o, m       reflect.Value
	n, en      *tnode // the list's node; its elements'
	es         slot
	ks         format.KeySet
	oids, mids []string
}

// diff writes the list's patch and reports done, or reports not done when
// the lists do not fit: an element without its key, a key shared, or an
// element the three-way pairing may pair on partial keys.
func (x *tstructList) diff(patch *map[string]any, def format.KeySet) (done bool, err error) {
	if !x.identify(def) {
		return false, nil
	}
	d := x.d
	opos := make(map[string]int, len(x.oids)) // the original's positions by identity
	for i, id := range x.oids {
		opos[id] = i
	}
	for _, id := range x.mids {
		if _, paired := opos[id]; !paired && x.ks.Directive && (d.keyedOnly() || d.withBase()) {
			return false, nil // pairElements may pair it otherwise
		}
	}
	base := d.tbase
	defer func() { d.tbase = base }()
	list, recreated, whole, err := x.changes(patch, base, opos)
	if whole || err != nil {
		return true, err
	}
	if !d.ignoreDeletions() {
		deletions, err := x.deletions()
		if err != nil {
			return true, err
		}
		recreated = append(deletions, recreated...)
	}
	list = append(list, sortDeletions(recreated, x.ks)...)
	if len(list) > 0 {
		put(patch, x.k, list)
	}
	return true, x.writeOrder(patch, len(list) > 0)
}

// identify reads both lists' identities and reports whether each element
// has its key, once on each side.
func (x *tstructList) identify(def format.KeySet) bool {
	d := x.d
	var kfa, dfa [4]*tfield
	kf, ok1 := keyFields(x.en, x.ks, kfa[:0])
	df, ok2 := keyFields(x.en, def, dfa[:0])
	if !ok1 || !ok2 || !keyableList(x.o, df) || !keyableList(x.m, df) {
		return false
	}
	var err error
	if x.oids, err = typedIDs(x.o, x.en, kf); err != nil {
		return false
	}
	x.mids, err = typedIDs(x.m, x.en, kf)
	if err != nil || hasDuplicates(x.oids) || hasDuplicates(x.mids) {
		return false
	}
	if d.cfg.skewSafe && x.ks.Directive && !d.keyedOnly() {
		odef, _ := typedIDs(x.o, x.en, df)
		mdef, _ := typedIDs(x.m, x.en, df)
		if hasDuplicates(odef) || hasDuplicates(mdef) {
			return false
		}
	}
	return true
}

// changes returns the patch entries of modified's elements, and the
// deletions that re-create elements only a replacement can write; whole
// says the list was written whole instead. base is the followed list,
// opos the original's positions by identity.
func (x *tstructList) changes(patch *map[string]any, base reflect.Value, opos map[string]int) (list, recreated []any, whole bool, err error) {
	d := x.d
	var index *baseIndex
	for i := range x.m.Len() {
		me, _ := derefNull(x.m.Index(i))
		p, paired := opos[x.mids[i]]
		if !paired {
			if d.ignoreChanges() {
				continue
			}
			j, err := toJSONValue(me, x.en, false)
			if err != nil {
				return nil, nil, true, under(err, keyStepOf(me, x.en, x.ks))
			}
			add, addWhole := d.addedElement(j.(map[string]any), x.es)
			if addWhole && d.recreates() {
				recreated = append(recreated, d.deletionOf(add, x.ks))
			} else if addWhole && !d.keyedOnly() {
				return nil, nil, true, d.replaceWholeList(patch, x.k, x.m, x.n)
			}
			list = append(list, withKeyDirective(add, x.ks, true))
			continue
		}
		oe, _ := derefNull(x.o.Index(p))
		if d.memorySkips() && d.sameMemory(oe, me, x.en) {
			continue
		}
		if d.withBase() {
			if index == nil {
				index = d.newBaseIndex(base, x.en, x.ks)
			}
			d.tbase = index.elem(me)
		}
		sub, up, err := d.diffStruct(oe, me, x.en, x.es)
		if err != nil {
			return nil, nil, true, under(err, keyStepOf(me, x.en, x.ks))
		}
		if up {
			return nil, nil, true, d.replaceWholeList(patch, x.k, x.m, x.n)
		}
		if len(sub) > 0 {
			if err := addKeyFields(sub, oe, x.en, x.ks); err != nil {
				return nil, nil, true, err
			}
			list = append(list, withKeyDirective(sub, x.ks, true))
		}
	}
	return list, recreated, false, nil
}

// deletions returns the deletion entries of the original's elements
// modified does not hold.
func (x *tstructList) deletions() ([]any, error) {
	inModified := make(map[string]bool, len(x.mids))
	for _, id := range x.mids {
		inModified[id] = true
	}
	var out []any
	for i := range x.o.Len() {
		if inModified[x.oids[i]] {
			continue
		}
		oe, _ := derefNull(x.o.Index(i))
		del := map[string]any{format.KeyPatch: format.PatchDelete}
		if err := addKeyFields(del, oe, x.en, x.ks); err != nil {
			return nil, err
		}
		out = append(out, withKeyDirective(del, x.ks, true))
	}
	return out, nil
}

// writeOrder writes the list's $setElementOrder where the pass wants it,
// as objList.writeOrder does.
func (x *tstructList) writeOrder(patch *map[string]any, changed bool) error {
	d := x.d
	if x.m.Len() == 0 || !d.wantListOrder(changed, slices.Equal(x.oids, x.mids)) {
		return nil
	}
	order, err := setOrderList(x.m, x.en, x.ks)
	if err != nil {
		return err
	}
	put(patch, format.PrefixSetOrder+x.k, order)
	return nil
}
