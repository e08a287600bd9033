package goval

import (
	"math"
	"reflect"
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
	w := exactWalk{}
	defer w.release()
	return plan.fix(&w, v.Addr().UnsafePointer())
}

// exactWalk is one fix's scratch: a marshaller's content, the keys and
// values map entries are read into, and a count of the values changed.
type exactWalk struct {
	buf     [maxContentBytes]byte
	s       *Scratch
	changed int
}

func (w *exactWalk) release() {
	if w.s != nil {
		PutScratch(w.s)
	}
}

// fix makes the value at p what CopyValue makes of it.
func (e *exactPlan) fix(w *exactWalk, p unsafe.Pointer) bool {
	switch e.kind {
	case exactAlways:
		return true
	case exactString:
		if s := (*string)(p); !utf8.ValidString(*s) {
			*s = WireString(*s)
			w.changed++
		}
		return true
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
		s := (*reflectSlice)(p)
		if e.elem == nil || e.elem.kind == exactAlways {
			return true
		}
		for i := range s.len {
			if !e.elem.fix(w, unsafe.Add(s.data, uintptr(i)*e.size)) {
				return false
			}
		}
		return true
	case exactMap:
		return e.fixMap(w, p)
	case exactTrip:
		return w.fixTrip(e, p)
	}
	return false
}

// fixStruct fixes a struct's fields, and clears those encoding/json
// leaves out.
func (e *exactPlan) fixStruct(w *exactWalk, p unsafe.Pointer) bool {
	for i := range e.fields {
		f := &e.fields[i]
		fp := unsafe.Add(p, f.off)
		if f.omitZero != nil {
			v := reflect.NewAt(f.omitZero.Meta.GoType, fp).Elem()
			if isZeroField(v, f.omitZero.zeroMode) {
				if !v.IsZero() {
					v.SetZero()
					w.changed++
				}
				continue
			}
		}
		if f.omitEmpty && emptyNotNil(f.plan, fp) {
			reflect.NewAt(f.plan.goTypeAt(), fp).Elem().SetZero()
			w.changed++
			continue
		}
		if !f.plan.fix(w, fp) {
			return false
		}
	}
	return true
}

// emptyNotNil reports whether the slice or map at p is empty but not nil.
func emptyNotNil(e *exactPlan, p unsafe.Pointer) bool {
	if e.kind == exactMap {
		return *(*unsafe.Pointer)(p) != nil && reflect.NewAt(e.mapT, p).Elem().Len() == 0
	}
	s := (*reflectSlice)(p)
	return s.data != nil && s.len == 0
}

// fixMap fixes a map keyed by strings: its values, in the map.
func (e *exactPlan) fixMap(w *exactWalk, p unsafe.Pointer) bool {
	if *(*unsafe.Pointer)(p) == nil {
		return true
	}
	m := reflect.NewAt(e.mapT, p).Elem()
	if e.elem.kind == exactString && m.Type().ConvertibleTo(mapSSType) {
		sm := AsStringMap(m)
		for k, v := range sm {
			if !utf8.ValidString(k) {
				return false
			}
			if !utf8.ValidString(v) {
				sm[k] = WireString(v)
				w.changed++
			}
		}
		return true
	}
	var it reflect.MapIter
	it.Reset(m)
	if w.s == nil {
		w.s = GetScratch()
	}
	k, ev := w.s.Take(e.mapT.Key()), w.s.Take(e.mapT.Elem())
	defer func() { w.s.Give(k); w.s.Give(ev) }()
	for it.Next() {
		k.SetIterKey(&it)
		if !utf8.ValidString(k.String()) {
			return false
		}
		if e.elem.kind == exactAlways {
			continue
		}
		ev.SetIterValue(&it)
		before := w.changed
		if !e.elem.fix(w, ev.Addr().UnsafePointer()) {
			return false
		}
		if w.changed != before {
			m.SetMapIndex(k, ev)
		}
	}
	return true
}

// fixTrip replaces the marshaller's value at p by its round trip, unless
// that is remembered to change nothing.
func (w *exactWalk) fixTrip(e *exactPlan, p unsafe.Pointer) bool {
	n := e.node
	v := reflect.NewAt(e.goType, p).Elem()
	if e.goType == n.GoType && n.trips != nil && n.plainNow(p) {
		size := n.GoType.Size()
		if n.trips.contentLen(p, size) <= maxContentBytes {
			if done := n.trips.done.Load(); done != nil {
				if tr, ok := (*done)[string(n.trips.content(w.buf[:0], p, size))]; ok {
					if !tr.same {
						v.Set(tr.v)
						w.changed++
					}
					return true
				}
			}
		}
	}
	if w.s == nil {
		w.s = GetScratch()
	}
	old := w.s.Take(e.goType)
	defer func() { old.SetZero(); w.s.Give(old) }()
	old.Set(v)
	v.SetZero()
	var c Copier
	defer c.Release()
	w.changed++
	return c.CopyValue(v, old, n) == nil
}

// goTypeAt is the Go type of a slice or map plan's values.
func (e *exactPlan) goTypeAt() reflect.Type {
	if e.kind == exactMap {
		return e.mapT
	}
	return e.sliceT
}
