package typedwalk

import (
	"reflect"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Positional diffing of typed lists: when element i of one list pairs
// with element i of the other, and the element keys that decide it.

// maxScan is the longest list positional scans.
const maxScan = 64

// positional reports whether the two lists hold, place by place, elements
// with one identity under ks, all keyable and none repeated: then
// DiffObjectList pairs element i with element i and writes no deletions
// and no new order.
func (d *tdiffer) positional(o, m reflect.Value, en *goval.Node, ks, def format.KeySet) bool {
	l := o.Len()
	if l != m.Len() || l > maxScan {
		return false
	}
	var kfa, dfa [4]*goval.Field
	kf, ok1 := d.keyFields(en, ks, kfa[:0])
	df, ok2 := d.keyFields(en, def, dfa[:0])
	if !ok1 || !ok2 {
		return false
	}
	if len(kf) == 1 && len(df) == 1 && kf[0] == df[0] && kf[0].FastKey() {
		if ok, sure := d.positionalByMemory(o, m, kf[0]); sure {
			return ok
		}
	}
	return d.positionalByValue(o, m, kf, df, d.Cfg.SkewSafe && ks.Directive)
}

// positionalByValue is positional comparing key fields as values; skew
// also refuses two elements of one default identity.
func (d *tdiffer) positionalByValue(o, m reflect.Value, kf, df []*goval.Field, skew bool) bool {
	l := o.Len()
	for i := range l {
		oe, onull := goval.DerefNull(o.Index(i))
		me, mnull := goval.DerefNull(m.Index(i))
		if onull || mnull || !hasKeyFields(oe, df) || !hasKeyFields(me, df) || !d.sameID(oe, me, kf) {
			return false
		}
	}
	for i := range l {
		oi, _ := goval.DerefNull(o.Index(i))
		for j := i + 1; j < l; j++ {
			oj, _ := goval.DerefNull(o.Index(j))
			if d.sameID(oi, oj, kf) || skew && d.sameID(oi, oj, df) {
				return false
			}
		}
	}
	return true
}

// positionalByMemory is positional for lists keyed by one string or
// integer field, also their default key, reading the keys from memory.
// sure is false when it cannot tell (an element not addressable, a key
// that is not valid UTF-8).
func (d *tdiffer) positionalByMemory(o, m reflect.Value, f *goval.Field) (ok, sure bool) {
	keys := d.pairs.takeKeys(o.Len())
	ok, sure = positionalKeys(o, m, f, keys)
	d.pairs.giveKeys(keys)
	return ok, sure
}

// positionalKeys is positionalByMemory reading o's keys into keys.
func positionalKeys(o, m reflect.Value, f *goval.Field, keys []memKey) (ok, sure bool) {
	l := o.Len()
	oa, size := structElems(o)
	ma, _ := structElems(m)
	for i := range l {
		var po, pm unsafe.Pointer
		if oa != nil && ma != nil {
			po, pm = unsafe.Add(oa, uintptr(i)*size), unsafe.Add(ma, uintptr(i)*size)
		} else {
			oe, onull := goval.DerefNull(o.Index(i))
			me, mnull := goval.DerefNull(m.Index(i))
			if onull || mnull {
				return false, true
			}
			var okO, okM bool
			po, okO = goval.StructBase(oe)
			pm, okM = goval.StructBase(me)
			if !okO || !okM {
				return false, false
			}
		}
		if !goval.FastPresent(po, f) || !goval.FastPresent(pm, f) {
			return false, true // not keyable
		}
		ko, sureO := readMemKey(po, f, false)
		km, sureM := readMemKey(pm, f, false)
		if !sureO || !sureM {
			return false, false
		}
		if !validKey(ko) || ko != km && !validKey(km) {
			return false, false // (equal keys are valid alike)
		}
		if ko != km {
			return false, true
		}
		keys[i] = ko
	}
	return !repeatedKey(keys[:l]), true
}

// repeatedKey reports whether two of keys, at most maxScan of them, are
// equal. From eight keys on, each pair compares the keys' fingerprints
// first.
func repeatedKey(keys []memKey) bool {
	if len(keys) >= 8 {
		return repeatedFingerprint(keys)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[i] == keys[j] {
				return true
			}
		}
	}
	return false
}

// repeatedFingerprint is repeatedKey by fingerprints first.
func repeatedFingerprint(keys []memKey) bool {
	var fpa [maxScan]uint64
	fps := fpa[:len(keys)]
	for i, k := range keys {
		fps[i] = k.fingerprint()
	}
	for i, fi := range fps {
		for j := i + 1; j < len(fps); j++ {
			if fps[j] == fi && keys[i] == keys[j] {
				return true
			}
		}
	}
	return false
}

// structElems is the memory of a non-empty slice of structs held by
// value, each of the element node's type, and the elements' size; nil
// for other lists, whose elements are read through reflect.
func structElems(l reflect.Value) (unsafe.Pointer, uintptr) {
	if l.Kind() != reflect.Slice || l.Len() == 0 {
		return nil, 0
	}
	if et := l.Type().Elem(); et.Kind() == reflect.Struct {
		return l.UnsafePointer(), et.Size()
	}
	return nil, 0
}

// memKey is a key field's value as read from memory: a string, or an
// integer's 64 bits. Two values of one field are one identity exactly
// when their memKey values are equal.
type memKey struct {
	s string
	n uint64
}

// fingerprint is a word equal for equal keys: the integer, and the
// string's length and first, middle and last bytes.
func (k memKey) fingerprint() uint64 {
	f := k.n*0x9e3779b97f4a7c15 ^ uint64(len(k.s))
	if l := len(k.s); l > 0 {
		f ^= uint64(k.s[0])<<8 | uint64(k.s[l/2])<<16 | uint64(k.s[l-1])<<24
	}
	return f
}

// readMemKey reads key field f of the struct at p. sure is false when
// the value cannot stand for the identity: a string that is not valid
// UTF-8 (checked when validate asks, else by validKey), whose JSON is not
// its bytes.
func readMemKey(p unsafe.Pointer, f *goval.Field, validate bool) (k memKey, sure bool) {
	if f.Fast == goval.FastString {
		k.s = *(*string)(unsafe.Add(p, f.Offset))
		return k, !validate || validKey(k)
	}
	n, ok := goval.FastInteger(p, f)
	return memKey{n: n}, ok
}

// validKey reports whether a key's string is valid UTF-8.
func validKey(k memKey) bool { return goval.ValidUTF8(k.s) }

// keyFields resolves a key set's fields; ok is false when one is not a
// field of the element (absent from every element).
func (d *tdiffer) keyFields(en *goval.Node, ks format.KeySet, into []*goval.Field) ([]*goval.Field, bool) {
	for _, name := range ks.Fields {
		f := d.pairs.fieldOf(en, name)
		if f == nil {
			return nil, false
		}
		into = append(into, f)
	}
	return into, true
}

// hasKeyFields reports whether a struct element carries every field of
// the default key (keyable).
func hasKeyFields(e reflect.Value, def []*goval.Field) bool {
	for _, f := range def {
		if _, ok := goval.FieldValue(e, f); !ok {
			return false
		}
	}
	return true
}

// sameID reports whether two struct elements have one identity under the
// key fields, as format.KeySet.ID compares them.
func (d *tdiffer) sameID(a, b reflect.Value, kf []*goval.Field) bool {
	for _, f := range kf {
		va, pa := goval.FieldValue(a, f)
		vb, pb := goval.FieldValue(b, f)
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
		if !d.Equal(va, vb, f.Node) {
			return false
		}
	}
	return true
}

// plainKey reports whether JSON equality of a key field's values is
// equality of their identities: strings, integers, booleans, bytes. Floats
// are not (-0 and 0 differ in JSON but are one key), nor are numbers held
// as text.
func plainKey(f *goval.Field) bool {
	if f.Node.Kind != reflectschema.Scalar || f.Node.IsNumber || f.Quoted {
		return false
	}
	switch f.Node.GoType.Kind() {
	case reflect.Float32, reflect.Float64:
		return false
	}
	return true
}

// scalarKeyOf is jsonval.ScalarKey of a field value's JSON.
func scalarKeyOf(v reflect.Value, f *goval.Field) (string, error) {
	j, err := goval.ToJSONValue(v, f.Node, f.Quoted)
	if err != nil {
		return "", err
	}
	k, _ := jsonval.ScalarKey(j)
	return k, nil
}

// tstructList is a typed merge list of structs whose elements keep their
// keys and places, diffed in place (diffPositional).
type tstructList struct {
	d     *tdiffer
	k     string
	o, m  reflect.Value
	n, en *goval.Node // the list's node; its elements'
	es    slot
	ks    format.KeySet
}

// diffPositional diffs lists that positional accepted: element i of one
// with element i of the other.
func (x *tstructList) diffPositional(patch *map[string]any) error {
	d, k, o, m, n, en, es, ks := x.d, x.k, x.o, x.m, x.n, x.en, x.es, x.ks
	base := d.base.At
	defer d.base.Restore(base)
	var bases baseKeys
	if d.WithBase() && base.IsValid() && (base.Kind() == reflect.Slice || base.Kind() == reflect.Array) && base.Len() <= maxBaseKeys {
		bases.keys, bases.memo = d.pairs.takeKeys(base.Len()), d.pairs
		defer d.pairs.giveKeys(bases.keys)
		bases.read(base, en, ks)
	}
	var list []any
	var index *baseIndex // for the elements bases does not hold
	// Slices of structs compare in memory before any reflect.Value is made.
	oa, size := structElems(o)
	ma, _ := structElems(m)
	inMemory := oa != nil && ma != nil && o.Type().Elem() == en.GoType && d.memorySkips()
	for i := range m.Len() {
		var same bool
		var below uintptr
		if inMemory {
			off := uintptr(i) * size
			if same, below = d.SameMemoryAt(unsafe.Add(oa, off), unsafe.Add(ma, off), en); same {
				continue
			}
		}
		oe, _ := goval.DerefNull(o.Index(i))
		me, _ := goval.DerefNull(m.Index(i))
		if !inMemory && d.memorySkips() {
			if same, below = d.SameMemoryUpTo(oe, me, en); same {
				continue
			}
		}
		if d.WithBase() {
			if e, ok := bases.find(base, me); ok {
				d.base.At = e
			} else {
				if index == nil {
					index = d.newBaseIndex(base, en, ks)
				}
				d.base.At = index.elem(me)
			}
			if !d.base.At.IsValid() && d.IgnoreChanges() {
				continue // as objList.changed: current lacks the element
			}
		}
		d.equalBelow = below
		sub, up, err := d.diffStruct(oe, me, en, es)
		if err != nil {
			return under(err, goval.KeyStepOf(me, en, ks))
		}
		if up {
			return d.replaceWholeList(patch, k, m, n)
		}
		if len(sub) > 0 {
			// The live element's keys name it.
			if err := addKeyFields(sub, oe, en, ks); err != nil {
				return err
			}
			list = append(list, engine.WithKeyDirective(sub, ks, true))
		}
	}
	if len(list) > 0 {
		put(patch, k, d.boxes.List(list))
	}
	if d.WantListOrder(len(list) > 0, true) {
		order, err := d.setOrderList(m, en, ks)
		if err != nil {
			return err
		}
		put(patch, format.PrefixSetOrder+k, d.boxes.List(order))
	}
	return nil
}

// baseElem finds in the base list the element DiffObjectList descends
// into for modified element me: the last with its identity under ks.
func (d *tdiffer) baseElem(base, me reflect.Value, en *goval.Node, ks format.KeySet) reflect.Value {
	if !base.IsValid() || base.Kind() != reflect.Slice && base.Kind() != reflect.Array {
		return reflect.Value{}
	}
	var kfa [4]*goval.Field
	kf, ok := d.keyFields(en, ks, kfa[:0])
	if !ok {
		return reflect.Value{}
	}
	for i := base.Len() - 1; i >= 0; i-- {
		be, null := goval.DerefNull(base.Index(i))
		if !null && d.sameID(be, me, kf) {
			return be
		}
	}
	return reflect.Value{}
}
