package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// diffList is differ.diffList for two non-null lists of node n. Lists of
// structs are diffed in place; lists of maps, untyped values and scalars
// go to the JSON engine once they are known to differ.
func (d *tdiffer) diffList(patch *map[string]any, k string, o, m reflect.Value, n *tnode, c slot) (bool, error) {
	if o.Len() == 0 {
		if m.Len() > 0 && !d.ignoreChanges() {
			ml, err := listToJSON(m, n)
			if err != nil {
				return false, err
			}
			if setWithDuplicates(ml, c) {
				return true, nil // as differ.diffList
			}
			put(patch, k, d.added(ml, c))
		}
		return false, nil
	}
	if c.IsObjectList() && n.elem.kind == reflectschema.Struct {
		return false, d.diffStructList(patch, k, o, m, n, c)
	}
	// Equal lists yield nothing, but for the pairing of repeated keys
	// (keyedOnly) with elements that differ.
	if (!c.IsObjectList() || !d.keyedOnly()) && d.equal(o, m, n) {
		return false, nil
	}
	ol, err := listToJSON(o, n)
	if err != nil {
		return false, err
	}
	ml, err := listToJSON(m, n)
	if err != nil {
		return false, err
	}
	if *patch == nil {
		*patch = map[string]any{}
	}
	if c.IsObjectList() {
		restore, err := d.jsonBase(n)
		if err != nil {
			return false, err
		}
		defer restore()
		return false, d.diffObjectList(*patch, k, ol, ml, c, nil)
	}
	return d.diffScalarList(*patch, k, ol, ml)
}

// jsonBase hands the JSON engine the base (the original's list here) in
// decoded form, for a list diffed in the delta half of a three-way patch.
func (d *tdiffer) jsonBase(n *tnode) (func(), error) {
	if !d.withBase() {
		return func() {}, nil
	}
	var b any
	if d.tbase.IsValid() {
		var err error
		if b, err = toJSONValue(d.tbase, n, false); err != nil {
			return nil, err
		}
	}
	return d.descend(b), nil
}

// diffStructList is diffObjectList for merge lists of structs. Lists whose
// elements keep their keys and places (the common case) are diffed
// element by element without allocating; others go to the JSON engine.
func (d *tdiffer) diffStructList(patch *map[string]any, k string, o, m reflect.Value, n *tnode, c slot) error {
	ks := d.listKeySet(c)
	def := format.KeysOf(c).DefaultSet()
	// The deletions half of a three-way patch may rename elements by
	// current's keys (liveRename): the JSON engine does it.
	renames := d.withBase() && d.ignoreChanges() && ks.Directive
	x := &tstructList{d: d, k: k, o: o, m: m, n: n, en: n.elem, es: c.Elem(), ks: ks}
	if !renames && d.positional(o, m, n.elem, ks, def) {
		return x.diffPositional(patch)
	}
	if !renames {
		if done, err := x.diff(patch, def); done || err != nil {
			return err
		}
	}
	ol, err := listToJSON(o, n)
	if err != nil {
		return err
	}
	ml, err := listToJSON(m, n)
	if err != nil {
		return err
	}
	if *patch == nil {
		*patch = map[string]any{}
	}
	restore, err := d.jsonBase(n)
	if err != nil {
		return err
	}
	defer restore()
	return d.diffObjectList(*patch, k, ol, ml, c, nil)
}

// replaceWholeList writes the list as a replacement, as diffObjectList
// does when an element cannot be patched.
func (d *tdiffer) replaceWholeList(patch *map[string]any, k string, m reflect.Value, n *tnode) error {
	if d.ignoreChanges() {
		return nil
	}
	ml, err := listToJSON(m, n)
	if err != nil {
		return err
	}
	put(patch, k, replaceList(ml))
	return nil
}

// addKeyFields copies an element's key fields into its patch.
func addKeyFields(dst map[string]any, e reflect.Value, en *tnode, ks format.KeySet) error {
	for _, name := range ks.Fields {
		f := en.byName[name]
		if f == nil {
			continue
		}
		if v, ok := fieldValue(e, f); ok {
			j, err := toJSONValue(v, f.node, f.quoted)
			if err != nil {
				return err
			}
			dst[name] = j
		}
	}
	return nil
}

// setOrderList is the $setElementOrder list of a modified list.
func setOrderList(m reflect.Value, en *tnode, ks format.KeySet) ([]any, error) {
	order := make([]any, m.Len())
	for i := range order {
		me, _ := derefNull(m.Index(i))
		entry := make(map[string]any, len(ks.Fields)+1)
		if err := addKeyFields(entry, me, en, ks); err != nil {
			return nil, err
		}
		order[i] = withKeyDirective(entry, ks, true)
	}
	return order, nil
}

// keyableList is keyable for a typed list: every element an object
// carrying every field of the default key.
func keyableList(l reflect.Value, df []*tfield) bool {
	for i := range l.Len() {
		e, null := derefNull(l.Index(i))
		if null || !hasKeyFields(e, df) {
			return false
		}
	}
	return true
}

// typedIDs is idsUnder for a typed list of objects.
func typedIDs(l reflect.Value, en *tnode, kf []*tfield) ([]string, error) {
	ids := make([]string, l.Len())
	for i := range ids {
		e, _ := derefNull(l.Index(i))
		var b []byte
		for _, f := range kf {
			v, ok := fieldValue(e, f)
			var j any
			if ok {
				var err error
				if j, err = toJSONValue(v, f.node, f.quoted); err != nil {
					return nil, err
				}
			}
			b = format.AppendKeyPart(b, j, ok)
		}
		ids[i] = string(b)
	}
	return ids, nil
}
