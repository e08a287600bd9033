package goval

import (
	"encoding/binary"
	"math"
	"reflect"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// FixPlainCopy makes v, an addressable struct of root node n that is a
// plain deep copy sharing nothing with any other value, the copy
// CopyValue makes of the value it was copied from. False means it could
// not (v is then partly changed, to be dropped): copy through CopyValue.
func FixPlainCopy(n *Node, v reflect.Value) bool {
	plan := plainCopyPlan(n)
	if plan == nil || !v.CanAddr() {
		return false
	}
	w := exactWalks.Get().(*exactWalk)
	defer w.release()
	return plan.fix(w, v.Addr().UnsafePointer())
}

// exactWalks keeps walks' scratch between fixes.
var exactWalks = sync.Pool{New: func() any { return new(exactWalk) }}

// exactWalk is one fix's scratch: a marshaller's content, the keys and
// values map entries are read into, and a count of the values changed.
// A frozen walk changes nothing: where a value needs a change, it stops
// and sets blocked (wordmaps.go).
type exactWalk struct {
	buf     [maxContentBytes]byte
	s       *Scratch
	readers [4]mapReader // the first plans' readers, the others in more
	more    []*mapReader
	changed int

	frozen, blocked bool
	depth           int                                 // maps read as words, one inside another
	vals            [maxWordDepth][maxWordValue]uintptr // their values, read
}

// change reports whether the walk may change a value, and counts the
// change; a frozen walk may not, and is blocked.
func (w *exactWalk) change() bool {
	if w.frozen {
		w.blocked = true
		return false
	}
	w.changed++
	return true
}

// release gives back the walk, holding nothing of the value it fixed.
func (w *exactWalk) release() {
	if w.s != nil {
		PutScratch(w.s)
	}
	for i := 0; i < len(w.readers) && w.readers[i].plan != nil; i++ {
		w.readers[i] = mapReader{}
	}
	w.s, w.more, w.changed = nil, nil, 0
	exactWalks.Put(w)
}

// fix makes the value at p what CopyValue makes of it.
func (e *exactPlan) fix(w *exactWalk, p unsafe.Pointer) bool {
	switch e.kind {
	case exactAlways:
		return true
	case exactString:
		return fixString(w, (*string)(p))
	case exactFloat:
		f := float64(*(*float32)(p))
		if e.size == 8 {
			f = *(*float64)(p)
		}
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	case exactStruct:
		return e.fixStruct(w, p)
	case exactPointer:
		q := *(*unsafe.Pointer)(p)
		return q == nil || e.elem.fix(w, q)
	case exactSlice:
		return e.fixSlice(w, (*reflectSlice)(p))
	case exactMap:
		return e.fixMap(w, p)
	case exactTrip:
		return w.fixTrip(e, p)
	}
	return false
}

// fixSlice fixes a slice's elements: strings read together, as a
// struct's are, and structs without a dispatch each.
func (e *exactPlan) fixSlice(w *exactWalk, s *reflectSlice) bool {
	switch e.elem.kind {
	case exactString:
		var high uint64
		for _, str := range unsafe.Slice((*string)(s.data), s.len) {
			high |= asciiHigh(str)
		}
		if high&highBits == 0 {
			return true
		}
	case exactStruct:
		for i := range s.len {
			if !e.elem.fixStruct(w, unsafe.Add(s.data, uintptr(i)*e.size)) {
				return false
			}
		}
		return true
	}
	for i := range s.len {
		if !e.elem.fix(w, unsafe.Add(s.data, uintptr(i)*e.size)) {
			return false
		}
	}
	return true
}

// fixString repairs the string at s to what it reads back as.
func fixString(w *exactWalk, s *string) bool {
	if len(*s) != 0 && !validUTF8(*s) {
		if !w.change() {
			return false
		}
		*s = WireString(*s)
	}
	return true
}

// validUTF8 is utf8.ValidString, reading ASCII eight bytes at a time to
// the end (the strings of Kubernetes' objects are nearly all ASCII).
func validUTF8(s string) bool {
	return asciiHigh(s)&highBits == 0 || utf8.ValidString(s)
}

// highBits are the bits of eight bytes that are set past ASCII.
const highBits = 0x8080808080808080

// asciiHigh ORs together the bytes of s, eight at a time: only ASCII
// leaves highBits clear.
func asciiHigh(s string) uint64 {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	var high uint64
	switch n := len(b); {
	case n >= 8:
		high = binary.LittleEndian.Uint64(b[n-8:])
		for ; len(b) >= 8; b = b[8:] {
			high |= binary.LittleEndian.Uint64(b)
		}
	case n >= 4:
		high = uint64(binary.LittleEndian.Uint32(b) | binary.LittleEndian.Uint32(b[n-4:]))
	default:
		for _, c := range b {
			high |= uint64(c)
		}
	}
	return high
}

// fixStruct fixes a struct's strings and other fields, and clears those
// encoding/json leaves out. Its strings are read together: only when
// one is not ASCII are they checked one by one.
func (e *exactPlan) fixStruct(w *exactWalk, p unsafe.Pointer) bool {
	var high uint64
	for _, off := range e.strs {
		high |= asciiHigh(*(*string)(unsafe.Add(p, off)))
	}
	for i := 0; high&highBits != 0 && i < len(e.strs); i++ {
		if s := (*string)(unsafe.Add(p, e.strs[i])); !utf8.ValidString(*s) {
			if !w.change() {
				return false
			}
			*s = WireString(*s)
		}
	}
	for _, f := range e.ptrs {
		if q := *(*unsafe.Pointer)(unsafe.Add(p, f.off)); q != nil && !f.plan.fix(w, q) {
			return false
		}
	}
	for i := range e.fields {
		f := &e.fields[i]
		fp := unsafe.Add(p, f.off)
		if f.nilable && *(*unsafe.Pointer)(fp) == nil {
			continue // nil, also to omitzero and omitempty
		}
		if f.omitZero != nil {
			v := reflect.NewAt(f.omitZero.Meta.GoType, fp).Elem()
			if isZeroField(v, f.omitZero.zeroMode) {
				if !v.IsZero() {
					if !w.change() {
						return false
					}
					v.SetZero()
				}
				continue
			}
		}
		if f.omitEmpty != nil && empty(fp, f.omitMap) { // and not nil
			if !w.change() {
				return false
			}
			reflect.NewAt(f.omitEmpty, fp).Elem().SetZero()
			continue
		}
		if !f.plan.fix(w, fp) {
			return false
		}
	}
	return true
}

// empty reports whether the slice, or the map, at p is empty.
func empty(p unsafe.Pointer, isMap bool) bool {
	if isMap {
		// Every map has the runtime's map header: len reads its count.
		return len(*(*map[unsafe.Pointer]struct{})(p)) == 0
	}
	return (*reflectSlice)(p).len == 0
}

// fixMap fixes a map keyed by strings: its values, in the map.
func (e *exactPlan) fixMap(w *exactWalk, p unsafe.Pointer) bool {
	if e.strMap {
		sm := *(*map[string]string)(p)
		for k, v := range sm {
			if !validUTF8(k) {
				return false
			}
			if !validUTF8(v) {
				if !w.change() {
					return false
				}
				sm[k] = WireString(v)
			}
		}
		return true
	}
	if e.ranger != nil {
		outer := w.frozen
		w.frozen, w.blocked = true, false
		ok := e.ranger(w, e.elem, p)
		w.frozen = outer
		if ok || !w.blocked || outer {
			return ok
		}
		w.blocked = false // changes to make: through reflect
	}
	r := w.mapReader(e)
	*(*unsafe.Pointer)(r.mp) = *(*unsafe.Pointer)(p) // r.m is the map at p
	r.it.Reset(r.m)
	for r.it.Next() {
		r.k.SetIterKey(&r.it)
		if !validUTF8(r.k.String()) {
			return false
		}
		if e.elem.kind == exactAlways {
			continue
		}
		r.ev.SetIterValue(&r.it)
		before := w.changed
		if !e.elem.fix(w, r.evp) {
			return false
		}
		if w.changed != before { // never in a frozen walk
			r.m.SetMapIndex(r.k, r.ev)
		}
	}
	return true
}

// mapReader is where one map plan's walk reads a map: the map, its
// iterator, and its entries. A plan's map holds no map of the same plan
// (recursive types have none), so a walk needs one reader per plan.
type mapReader struct {
	plan     *exactPlan
	m, k, ev reflect.Value
	mp, evp  unsafe.Pointer
	it       reflect.MapIter
}

// mapReader returns the walk's reader of plan e's maps.
func (w *exactWalk) mapReader(e *exactPlan) *mapReader {
	var r *mapReader
	for i := range w.readers {
		if r = &w.readers[i]; r.plan == e {
			return r
		}
		if r.plan == nil {
			break
		}
		r = nil
	}
	for _, m := range w.more {
		if m.plan == e {
			return m
		}
	}
	if r == nil {
		r = new(mapReader)
		w.more = append(w.more, r)
	}
	if w.s == nil {
		w.s = GetScratch()
	}
	r.plan, r.m, r.k, r.ev = e, w.s.Take(e.mapT), w.s.Take(e.mapT.Key()), w.s.Take(e.mapT.Elem())
	r.mp, r.evp = unsafe.Pointer(r.m.UnsafeAddr()), unsafe.Pointer(r.ev.UnsafeAddr())
	return r
}

// fixTrip replaces the marshaller's value at p by its round trip, unless
// that is remembered to change nothing.
func (w *exactWalk) fixTrip(e *exactPlan, p unsafe.Pointer) bool {
	n := e.node
	if done := n.trips.done.Load(); e.size != 0 && done != nil && n.trips.keyable(n, p) &&
		n.trips.contentLen(p, e.size) <= maxContentBytes {
		if tr, ok := done.find(n.trips.content(w.buf[:0], p, e.size)); ok {
			if !tr.same {
				if !w.change() {
					return false
				}
				reflect.NewAt(e.goType, p).Elem().Set(tr.v)
			}
			return true
		}
	}
	if !w.change() {
		return false
	}
	if w.s == nil {
		w.s = GetScratch()
	}
	v := reflect.NewAt(e.goType, p).Elem()
	old := w.s.Take(e.goType)
	defer func() { old.SetZero(); w.s.Give(old) }()
	old.Set(v)
	v.SetZero()
	var c Copier
	defer c.Release()
	return c.CopyValue(v, old, n) == nil
}
