package typedwalk

import (
	"reflect"
	"strings"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// baseIndex is baseElem for every element of one list: the base list's
// positions by identity, read once, so finding each element's base costs
// a lookup rather than a scan of the base list. Key fields whose Go
// equality is not that of their JSON text (byte slices) keep the scan.
type baseIndex struct {
	d    *tdiffer
	base reflect.Value
	en   *goval.Node
	ks   format.KeySet
	kf   []*goval.Field
	last map[string]int // the last position of each identity; nil: scan
	prev []int          // the position before p of p's identity, or -1
}

func (d *tdiffer) newBaseIndex(base reflect.Value, en *goval.Node, ks format.KeySet) *baseIndex {
	x := &baseIndex{d: d, base: base, en: en, ks: ks}
	if !base.IsValid() || base.Kind() != reflect.Slice && base.Kind() != reflect.Array {
		return x
	}
	kf, ok := d.keyFields(en, ks, nil)
	if !ok {
		return x
	}
	for _, f := range kf {
		switch f.Node.GoType.Kind() {
		case reflect.Slice, reflect.Array, reflect.Interface, reflect.Pointer, reflect.Map, reflect.Struct:
			return x
		}
	}
	x.kf, x.last, x.prev = kf, make(map[string]int, base.Len()), make([]int, base.Len())
	for i := range base.Len() {
		be, null := goval.DerefNull(base.Index(i))
		if null {
			continue
		}
		id, ok := elemID(be, kf)
		if !ok {
			x.last, x.prev = nil, nil
			return x
		}
		x.prev[i] = -1
		if p, ok := x.last[id]; ok {
			x.prev[i] = p
		}
		x.last[id] = i
	}
	return x
}

// elem returns the last base element with me's identity, as baseElem.
func (x *baseIndex) elem(me reflect.Value) reflect.Value {
	if x.last == nil {
		return x.d.baseElem(x.base, me, x.en, x.ks)
	}
	id, ok := elemID(me, x.kf)
	if !ok {
		return x.d.baseElem(x.base, me, x.en, x.ks)
	}
	p, ok := x.last[id]
	for ; ok && p >= 0; p = x.prev[p] {
		// Equal identities are necessary for sameID; it decides.
		if be, _ := goval.DerefNull(x.base.Index(p)); x.d.sameID(be, me, x.kf) {
			return be
		}
	}
	return reflect.Value{}
}

// elemID is an element's identity under kf for the index: each key
// field's jsonval.ScalarKey, joined by NUL bytes. Equal identities are
// necessary for sameID, which decides.
func elemID(e reflect.Value, kf []*goval.Field) (string, bool) {
	if len(kf) == 1 { // the identity is the one key, as joined below
		v, ok := goval.FieldValue(e, kf[0])
		if !ok {
			return format.AbsentMark, true
		}
		key, err := scalarKeyOf(v, kf[0])
		return key, err == nil
	}
	var b strings.Builder
	for j, f := range kf {
		if j > 0 {
			b.WriteByte(0)
		}
		v, ok := goval.FieldValue(e, f)
		if !ok {
			b.WriteString(format.AbsentMark)
			continue
		}
		key, err := scalarKeyOf(v, f)
		if err != nil {
			return "", false
		}
		b.WriteString(key)
	}
	return b.String(), true
}

// baseKeys holds the keys of a base list keyed by one string or integer
// field, read once, to find base elements by comparing them.
type baseKeys struct {
	f    *goval.Field
	keys []memKey // by position: len is the list's length, set by the reader
	ok   uint64   // bit i: element i is an object with the key
	n    int
	memo *pairStack // looks the key field up (fieldOf); nil: by name
}

// maxBaseKeys is the longest base list whose keys are read.
const maxBaseKeys = 64

// read reads the keys, when the list is short and its key one string or
// integer field; otherwise find always defers to baseElem.
func (b *baseKeys) read(base reflect.Value, en *goval.Node, ks format.KeySet) {
	if !base.IsValid() || base.Kind() != reflect.Slice && base.Kind() != reflect.Array || base.Len() > maxBaseKeys || len(ks.Fields) != 1 {
		return
	}
	f := b.memo.fieldOf(en, ks.Fields[0])
	if f == nil || !f.FastKey() {
		return
	}
	if len(b.keys) != base.Len() {
		b.keys = make([]memKey, base.Len())
	}
	elems, size := structElems(base)
	for i := range base.Len() {
		var p unsafe.Pointer
		if elems != nil {
			p = unsafe.Add(elems, uintptr(i)*size)
		} else {
			e, null := goval.DerefNull(base.Index(i))
			if null {
				continue
			}
			var ok bool
			if p, ok = goval.StructBase(e); !ok {
				return
			}
		}
		if goval.FastPresent(p, f) {
			k, sure := readMemKey(p, f, true)
			if !sure {
				return
			}
			b.keys[i], b.ok = k, b.ok|1<<i
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
	p, ok := goval.StructBase(me)
	if !ok || !goval.FastPresent(p, b.f) {
		return reflect.Value{}, false
	}
	k, sure := readMemKey(p, b.f, true)
	if !sure {
		return reflect.Value{}, false
	}
	for i := b.n - 1; i >= 0; i-- {
		if b.ok&(1<<i) != 0 && b.keys[i] == k {
			e, _ := goval.DerefNull(base.Index(i))
			return e, true
		}
	}
	return reflect.Value{}, true
}
