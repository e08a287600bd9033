package goval

import (
	"math"
	"reflect"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// A plain deep copy (what a Kubernetes type's generated DeepCopyInto
// makes: every field copied, nil kept nil and empty kept empty) becomes
// the copy CopyValue makes once, in place, what a JSON round trip changes
// is changed: strings that are not UTF-8 repaired, empty slices and maps
// under omitempty made nil, fields omitzero leaves out zeroed, and
// marshallers CopyValue takes through their methods replaced by their
// round trip (remembered, or made now). Types that may hold what that
// cannot fix (unexported or "-" fields, fields behind embedded pointers,
// ",string", untyped values, maps keyed by anything but strings,
// recursive types) have no plan; a value that holds a float that is not
// finite or a map key that is not UTF-8 is left to CopyValue.

// exactKind is how a value's exactness is read.
type exactKind uint8

const (
	exactAlways  exactKind = iota // booleans, integers, marshallers of plain data: kept
	exactString                   // repaired
	exactFloat                    // finite, else no fix
	exactStruct                   // each field
	exactPointer                  // nil, or its element
	exactSlice                    // nil, or each element ([]byte: kept)
	exactMap                      // nil, or keys of valid UTF-8 (else no fix) and each value
	exactTrip                     // a marshaller: its round trip
)

// exactPlan fixes values of one Go type.
type exactPlan struct {
	kind   exactKind
	size   uintptr      // float: 4 or 8; slice: the element's size
	elem   *exactPlan   // pointer, slice and map: the element's (nil: always exact)
	fields []exactField // struct
	mapT   reflect.Type // map
	sliceT reflect.Type // slice
	node   *Node        // trip: the marshaller's node
	goType reflect.Type // trip: the value's type (maybe a pointer)
}

// exactField is one struct field's place and plan.
type exactField struct {
	off       uintptr
	omitEmpty bool   // a slice or map: empty and not nil is left out, nil in the copy
	omitZero  *Field // under omitzero: what omitzero calls zero is left out, zero in the copy
	plan      *exactPlan
}

var exactPlans sync.Map // *Node (a root struct) → *exactPlan, nil without one

// PlainCopies reports whether a plain deep copy of root node n's structs
// can be made CopyValue's copy (FixPlainCopy).
func PlainCopies(n *Node) bool { return plainCopyPlan(n) != nil }

func plainCopyPlan(n *Node) *exactPlan {
	p, ok := exactPlans.Load(n)
	if !ok {
		p, _ = exactPlans.LoadOrStore(n, buildExact(n.GoType, n, map[reflect.Type]bool{}))
	}
	return p.(*exactPlan)
}

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

// buildExact plans values of Go type t at node n; nil when they are
// never exact.
func buildExact(t reflect.Type, n *Node, visiting map[reflect.Type]bool) *exactPlan {
	if n.Marshaler && !n.plainCopy {
		if n.addrSensitive {
			return nil
		}
		return &exactPlan{kind: exactTrip, node: n, goType: t}
	}
	if t.Kind() == reflect.Pointer {
		if e := buildExact(t.Elem(), n, visiting); e != nil {
			return &exactPlan{kind: exactPointer, elem: e}
		}
		return nil
	}
	if n.Marshaler {
		return &exactPlan{kind: exactAlways} // plain data
	}
	switch n.Kind {
	case reflectschema.Scalar:
		return scalarExact(t, n)
	case reflectschema.Struct:
		return structExact(t, n, visiting)
	case reflectschema.List, reflectschema.Atomic:
		if t.Kind() != reflect.Slice || n.Elem == nil {
			return nil
		}
		e := buildExact(t.Elem(), n.Elem, visiting)
		if e == nil {
			return nil
		}
		return &exactPlan{kind: exactSlice, elem: e, size: t.Elem().Size(), sliceT: t}
	case reflectschema.Map:
		if n.keyMode != keyString || t.Key().Kind() != reflect.String || n.Elem == nil {
			return nil
		}
		e := buildExact(t.Elem(), n.Elem, visiting)
		if e == nil {
			return nil
		}
		return &exactPlan{kind: exactMap, elem: e, mapT: t}
	}
	return nil
}

// scalarExact plans a scalar of Go type t.
func scalarExact(t reflect.Type, n *Node) *exactPlan {
	if n.IsNumber {
		return nil
	}
	if n.bytes {
		return &exactPlan{kind: exactSlice, size: 1, sliceT: t} // copied byte for byte
	}
	switch t.Kind() {
	case reflect.String:
		return &exactPlan{kind: exactString}
	case reflect.Float32, reflect.Float64:
		return &exactPlan{kind: exactFloat, size: t.Size()}
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &exactPlan{kind: exactAlways}
	}
	return nil
}

// structExact plans a struct whose every Go field is one of n's JSON
// fields, read as encoding/json reads it.
func structExact(t reflect.Type, n *Node, visiting map[reflect.Type]bool) *exactPlan {
	if t != n.GoType || visiting[t] || !allFieldsJSON(t, nil, n.Fields) {
		return nil
	}
	visiting[t] = true
	defer delete(visiting, t)
	p := &exactPlan{kind: exactStruct}
	for _, f := range n.Fields {
		if f.ViaPtr || f.Quoted {
			return nil
		}
		e := buildExact(f.Meta.GoType, f.Node, visiting)
		if e == nil {
			return nil
		}
		k := f.Meta.GoType.Kind()
		ef := exactField{off: f.Offset, omitEmpty: f.Meta.OmitEmpty && (k == reflect.Slice || k == reflect.Map), plan: e}
		if f.Meta.OmitZero {
			ef.omitZero = f
		}
		p.fields = append(p.fields, ef)
	}
	return p
}

// allFieldsJSON reports whether every field of struct t (index path
// prefix) is exported and one of fields, or an embedded struct whose
// fields all are.
func allFieldsJSON(t reflect.Type, prefix []int, fields []*Field) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(prefix[:len(prefix):len(prefix)], i)
		name, _, _ := cutTag(sf.Tag.Get("json"))
		if sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct {
			if !allFieldsJSON(sf.Type, index, fields) {
				return false
			}
			continue
		}
		if !sf.IsExported() || !hasIndex(fields, index) {
			return false
		}
	}
	return true
}

// cutTag splits a json tag at its first comma.
func cutTag(tag string) (name, opts string, found bool) {
	for i := range len(tag) {
		if tag[i] == ',' {
			return tag[:i], tag[i+1:], true
		}
	}
	return tag, "", false
}

func hasIndex(fields []*Field, index []int) bool {
	return slices.ContainsFunc(fields, func(f *Field) bool { return slices.Equal(f.Index, index) })
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
