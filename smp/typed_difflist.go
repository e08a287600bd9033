package smp

import (
	"reflect"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// diffList is differ.diffList for two non-null lists of node n. Lists of
// structs are diffed in place; lists of maps, untyped values and scalars
// go to the JSON engine once they are known to differ.
func (d *tdiffer) diffList(patch *map[string]any, k string, o, m reflect.Value, n *tnode, c slot) (bool, error) {
	if o.Len() == 0 {
		if m.Len() > 0 && !d.ignoreChanges {
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
	if (!c.IsObjectList() || !d.keyedOnly) && d.equal(o, m, n) {
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
	if !d.withBase {
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
	def := keysOf(c).defaultSet()
	// The deletions half of a three-way patch may rename elements by
	// current's keys (liveRename): the JSON engine does it.
	renames := d.withBase && d.ignoreChanges && ks.directive
	if !renames && d.positional(o, m, n.elem, ks, def) {
		return d.diffPositional(patch, k, o, m, n, c, ks)
	}
	if !renames {
		if done, err := d.diffKeyed(patch, k, o, m, n, c, ks, def); done || err != nil {
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

// positional reports whether the two lists hold, place by place, elements
// with one identity under ks, all keyable and none repeated: then
// diffObjectList pairs element i with element i and writes no deletions
// and no new order.
func (d *tdiffer) positional(o, m reflect.Value, en *tnode, ks, def keySet) bool {
	const maxScan = 64
	l := o.Len()
	if l != m.Len() || l > maxScan {
		return false
	}
	var kfa, dfa [4]*tfield
	kf, ok1 := keyFields(en, ks, kfa[:0])
	df, ok2 := keyFields(en, def, dfa[:0])
	if !ok1 || !ok2 {
		return false
	}
	if len(kf) == 1 && kf[0].fast == fastString && len(df) == 1 {
		if ok, sure := d.positionalByString(o, m, kf[0]); sure {
			return ok
		}
	}
	for i := range l {
		oe, onull := derefNull(o.Index(i))
		me, mnull := derefNull(m.Index(i))
		if onull || mnull || !hasKeyFields(oe, df) || !hasKeyFields(me, df) || !d.sameID(oe, me, kf) {
			return false
		}
	}
	skew := d.cfg.skewSafe && ks.directive
	for i := range l {
		oi, _ := derefNull(o.Index(i))
		for j := i + 1; j < l; j++ {
			oj, _ := derefNull(o.Index(j))
			if d.sameID(oi, oj, kf) || skew && d.sameID(oi, oj, df) {
				return false
			}
		}
	}
	return true
}

// positionalByString is positional for lists keyed by one string field,
// reading the keys from memory. sure is false when it cannot tell (an
// element not addressable, a key that is not valid UTF-8).
func (d *tdiffer) positionalByString(o, m reflect.Value, f *tfield) (ok, sure bool) {
	var keys [64]string
	l := o.Len()
	for i := range l {
		oe, onull := derefNull(o.Index(i))
		me, mnull := derefNull(m.Index(i))
		if onull || mnull {
			return false, true
		}
		po, okO := structBase(oe)
		pm, okM := structBase(me)
		if !okO || !okM {
			return false, false
		}
		if !fastPresent(po, f) || !fastPresent(pm, f) {
			return false, true // not keyable
		}
		ko, km := *(*string)(unsafe.Add(po, f.offset)), *(*string)(unsafe.Add(pm, f.offset))
		if !utf8.ValidString(ko) || !utf8.ValidString(km) {
			return false, false
		}
		if ko != km {
			return false, true
		}
		keys[i] = ko
	}
	for i := range l {
		for j := i + 1; j < l; j++ {
			if keys[i] == keys[j] {
				return false, true
			}
		}
	}
	return true, true
}

// keyFields resolves a key set's fields; ok is false when one is not a
// field of the element (absent from every element).
func keyFields(en *tnode, ks keySet, into []*tfield) ([]*tfield, bool) {
	for _, name := range ks.fields {
		f := en.byName[name]
		if f == nil {
			return nil, false
		}
		into = append(into, f)
	}
	return into, true
}

// hasKeyFields reports whether a struct element carries every field of
// the default key (keyable).
func hasKeyFields(e reflect.Value, def []*tfield) bool {
	for _, f := range def {
		if _, ok := fieldValue(e, f); !ok {
			return false
		}
	}
	return true
}

// sameID reports whether two struct elements have one identity under the
// key fields, as keySet.id compares them.
func (d *tdiffer) sameID(a, b reflect.Value, kf []*tfield) bool {
	for _, f := range kf {
		va, pa := fieldValue(a, f)
		vb, pb := fieldValue(b, f)
		if pa != pb {
			return false
		}
		if !pa {
			continue
		}
		if !plainKey(f) {
			ia, _ := scalarKeyOf(va, f)
			ib, _ := scalarKeyOf(vb, f)
			if ia != ib {
				return false
			}
			continue
		}
		if !d.equal(va, vb, f.node) {
			return false
		}
	}
	return true
}

// plainKey reports whether JSON equality of a key field's values is
// equality of their identities: strings, integers, booleans, bytes. Floats
// are not (-0 and 0 differ in JSON but are one key), nor are numbers held
// as text.
func plainKey(f *tfield) bool {
	if f.node.kind != reflectschema.Scalar || f.node.isNumber || f.quoted {
		return false
	}
	switch f.node.goType.Kind() {
	case reflect.Float32, reflect.Float64:
		return false
	}
	return true
}

// scalarKeyOf is scalarKey of a field value's JSON.
func scalarKeyOf(v reflect.Value, f *tfield) (string, error) {
	j, err := toJSONValue(v, f.node, f.quoted)
	if err != nil {
		return "", err
	}
	k, _ := scalarKey(j)
	return k, nil
}

// diffPositional diffs lists that positional accepted: element i of one
// with element i of the other.
func (d *tdiffer) diffPositional(patch *map[string]any, k string, o, m reflect.Value, n *tnode, c slot, ks keySet) error {
	en, es := n.elem, c.Elem()
	base := d.tbase
	defer func() { d.tbase = base }()
	var bases baseKeys
	if d.withBase {
		bases.read(base, en, ks)
	}
	var list []any
	var index *baseIndex // for the elements bases does not hold
	for i := range m.Len() {
		oe, _ := derefNull(o.Index(i))
		me, _ := derefNull(m.Index(i))
		if d.memorySkips() && d.sameMemory(oe, me, en) {
			continue
		}
		if d.withBase {
			if e, ok := bases.find(base, me); ok {
				d.tbase = e
			} else {
				if index == nil {
					index = d.newBaseIndex(base, en, ks)
				}
				d.tbase = index.elem(me)
			}
		}
		sub, up, err := d.diffStruct(oe, me, en, es)
		if err != nil {
			return under(err, keyStepOf(me, en, ks))
		}
		if up {
			return d.replaceWholeList(patch, k, m, n)
		}
		if len(sub) > 0 {
			// The live element's keys name it.
			if err := addKeyFields(sub, oe, en, ks); err != nil {
				return err
			}
			list = append(list, withKeyDirective(sub, ks, true))
		}
	}
	if len(list) > 0 {
		put(patch, k, list)
	}
	if d.wantSetOrder(len(list) > 0 && (!d.ignoreChanges || !d.ignoreDeletions)) {
		order, err := setOrderList(m, en, ks)
		if err != nil {
			return err
		}
		put(patch, prefixSetOrder+k, order)
	}
	return nil
}

// baseKeys holds the keys of a base list keyed by one string field, read
// once, to find base elements by comparing strings.
type baseKeys struct {
	f    *tfield
	keys [64]string
	ok   [64]bool // the element is an object with the key
	n    int
}

// read reads the keys, when the list is short and its key one string
// field; otherwise find always defers to baseElem.
func (b *baseKeys) read(base reflect.Value, en *tnode, ks keySet) {
	if !base.IsValid() || base.Kind() != reflect.Slice && base.Kind() != reflect.Array || base.Len() > len(b.keys) || len(ks.fields) != 1 {
		return
	}
	f := en.byName[ks.fields[0]]
	if f == nil || f.fast != fastString {
		return
	}
	for i := range base.Len() {
		e, null := derefNull(base.Index(i))
		if null {
			continue
		}
		p, ok := structBase(e)
		if !ok {
			return
		}
		if fastPresent(p, f) {
			k := *(*string)(unsafe.Add(p, f.offset))
			if !utf8.ValidString(k) {
				return
			}
			b.keys[i], b.ok[i] = k, true
		}
	}
	b.f, b.n = f, base.Len()
}

// find returns the last base element with me's key; ok is false when
// the keys were not read.
func (b *baseKeys) find(base, me reflect.Value) (reflect.Value, bool) {
	if b.f == nil {
		return reflect.Value{}, false
	}
	p, ok := structBase(me)
	if !ok || !fastPresent(p, b.f) {
		return reflect.Value{}, false
	}
	k := *(*string)(unsafe.Add(p, b.f.offset))
	if !utf8.ValidString(k) {
		return reflect.Value{}, false
	}
	for i := b.n - 1; i >= 0; i-- {
		if b.ok[i] && b.keys[i] == k {
			e, _ := derefNull(base.Index(i))
			return e, true
		}
	}
	return reflect.Value{}, true
}

// baseElem finds in the base list the element diffObjectList descends
// into for modified element me: the last with its identity under ks.
func (d *tdiffer) baseElem(base, me reflect.Value, en *tnode, ks keySet) reflect.Value {
	if !base.IsValid() || base.Kind() != reflect.Slice && base.Kind() != reflect.Array {
		return reflect.Value{}
	}
	var kfa [4]*tfield
	kf, ok := keyFields(en, ks, kfa[:0])
	if !ok {
		return reflect.Value{}
	}
	for i := base.Len() - 1; i >= 0; i-- {
		be, null := derefNull(base.Index(i))
		if !null && d.sameID(be, me, kf) {
			return be
		}
	}
	return reflect.Value{}
}

// replaceWholeList writes the list as a replacement, as diffObjectList
// does when an element cannot be patched.
func (d *tdiffer) replaceWholeList(patch *map[string]any, k string, m reflect.Value, n *tnode) error {
	if d.ignoreChanges {
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
func addKeyFields(dst map[string]any, e reflect.Value, en *tnode, ks keySet) error {
	for _, name := range ks.fields {
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
func setOrderList(m reflect.Value, en *tnode, ks keySet) ([]any, error) {
	order := make([]any, m.Len())
	for i := range order {
		me, _ := derefNull(m.Index(i))
		entry := make(map[string]any, len(ks.fields)+1)
		if err := addKeyFields(entry, me, en, ks); err != nil {
			return nil, err
		}
		order[i] = withKeyDirective(entry, ks, true)
	}
	return order, nil
}

// diffKeyed is diffObjectList for lists of structs whose elements all have
// their keys, each once on each side, and where no element pairs but by
// its identity (pairElements' server-filled keys do not come into play):
// elements added, removed or moved, without converting the others. done
// is false when the list is not such a list.
func (d *tdiffer) diffKeyed(patch *map[string]any, k string, o, m reflect.Value, n *tnode, c slot, ks, def keySet) (done bool, err error) {
	en, es := n.elem, c.Elem()
	var kfa, dfa [4]*tfield
	kf, ok1 := keyFields(en, ks, kfa[:0])
	df, ok2 := keyFields(en, def, dfa[:0])
	if !ok1 || !ok2 || !keyableList(o, df) || !keyableList(m, df) {
		return false, nil
	}
	oids, err := typedIDs(o, en, kf)
	if err != nil {
		return false, nil
	}
	mids, err := typedIDs(m, en, kf)
	if err != nil || hasDuplicates(oids) || hasDuplicates(mids) {
		return false, nil
	}
	if d.cfg.skewSafe && ks.directive && !d.keyedOnly {
		odef, _ := typedIDs(o, en, df)
		mdef, _ := typedIDs(m, en, df)
		if hasDuplicates(odef) || hasDuplicates(mdef) {
			return false, nil
		}
	}
	opos := make(map[string]int, len(oids))
	for i, id := range oids {
		opos[id] = i
	}
	base := d.tbase
	for _, id := range mids {
		if _, paired := opos[id]; !paired && ks.directive && (d.keyedOnly || d.withBase) {
			return false, nil // pairElements may pair it otherwise
		}
	}
	defer func() { d.tbase = base }()
	var list, recreated []any
	var index *baseIndex
	for i := range m.Len() {
		me, _ := derefNull(m.Index(i))
		p, paired := opos[mids[i]]
		if !paired {
			if !d.ignoreChanges {
				j, err := toJSONValue(me, en, false)
				if err != nil {
					return true, under(err, keyStepOf(me, en, ks))
				}
				add, whole := d.addedElement(j.(map[string]any), es)
				if whole && d.recreates() {
					recreated = append(recreated, d.deletionOf(add, ks))
				} else if whole && !d.keyedOnly {
					return true, d.replaceWholeList(patch, k, m, n)
				}
				list = append(list, withKeyDirective(add, ks, true))
			}
			continue
		}
		oe, _ := derefNull(o.Index(p))
		if d.memorySkips() && d.sameMemory(oe, me, en) {
			continue
		}
		if d.withBase {
			if index == nil {
				index = d.newBaseIndex(base, en, ks)
			}
			d.tbase = index.elem(me)
		}
		sub, up, err := d.diffStruct(oe, me, en, es)
		if err != nil {
			return true, under(err, keyStepOf(me, en, ks))
		}
		if up {
			return true, d.replaceWholeList(patch, k, m, n)
		}
		if len(sub) > 0 {
			if err := addKeyFields(sub, oe, en, ks); err != nil {
				return true, err
			}
			list = append(list, withKeyDirective(sub, ks, true))
		}
	}
	if !d.ignoreDeletions {
		inModified := make(map[string]bool, len(mids))
		for _, id := range mids {
			inModified[id] = true
		}
		var deletions []any
		for i := range o.Len() {
			if inModified[oids[i]] {
				continue
			}
			oe, _ := derefNull(o.Index(i))
			del := map[string]any{keyPatch: patchDelete}
			if err := addKeyFields(del, oe, en, ks); err != nil {
				return true, err
			}
			deletions = append(deletions, withKeyDirective(del, ks, true))
		}
		recreated = append(deletions, recreated...)
	}
	list = append(list, sortDeletions(recreated, ks)...)
	if len(list) > 0 {
		put(patch, k, list)
	}
	orderSame := slices.Equal(oids, mids)
	if m.Len() > 0 && d.wantSetOrder((!d.ignoreChanges && (len(list) > 0 || !orderSame)) || (!d.ignoreDeletions && len(list) > 0)) {
		order, err := setOrderList(m, en, ks)
		if err != nil {
			return true, err
		}
		put(patch, prefixSetOrder+k, order)
	}
	return true, nil
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
			b = appendKeyPart(b, j, ok)
		}
		ids[i] = string(b)
	}
	return ids, nil
}
