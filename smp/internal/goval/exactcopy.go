package goval

import (
	"reflect"
	"slices"
	"strings"
	"sync"

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
//
// A plan visits only what can need a fix: a struct of numbers and
// booleans, a pointer to one or a slice of them costs nothing; a struct
// held in place is planned as its fields at their offsets, its strings
// and pointers in lists of their own.

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

// exactPlan fixes values of one Go type. A plan of kind exactAlways
// stands for every value that can need no fix: a struct of integers, a
// pointer to one, a slice of them; the walk never visits them.
type exactPlan struct {
	kind   exactKind
	size   uintptr      // float: 4 or 8; slice: the element's size; trip: the value's, if remembered
	elem   *exactPlan   // pointer, slice and map: the element's
	strs   []uintptr    // struct: its strings' offsets, nested structs' included
	ptrs   []exactPtr   // struct: its pointers to what can need a fix, nested structs' included
	fields []exactField // struct: the other fields that can need a fix, nested structs' included
	mapT   reflect.Type // map
	strMap bool         // map: one of strings to strings, as map[string]string
	ranger wordRange    // map: how it is read without reflect, if it is
	node   *Node        // trip: the marshaller's node
	goType reflect.Type // trip: the value's type (maybe a pointer)
}

// exactField is one struct field's place and plan.
type exactField struct {
	off       uintptr
	nilable   bool         // a pointer, slice or map: nil needs no fix
	omitEmpty reflect.Type // a slice or map type under omitempty: empty and not nil is left out, nil in the copy
	omitMap   bool         // omitEmpty is a map type
	omitZero  *Field       // under omitzero: what omitzero calls zero is left out, zero in the copy
	plan      *exactPlan
}

// exactPtr is a pointer field's place and its element's plan.
type exactPtr struct {
	off  uintptr
	plan *exactPlan
}

// exactNothing is the plan of the values that can need no fix.
var exactNothing = &exactPlan{kind: exactAlways}

var exactPlans sync.Map // *Node (a root struct) → *exactPlan, nil without one

// PlainCopies reports whether a plain deep copy of root node n's structs
// can be made CopyValue's copy (FixPlainCopy).
func PlainCopies(n *Node) bool { return plainCopyPlan(n) != nil }

func plainCopyPlan(n *Node) *exactPlan {
	p, ok := exactPlans.Load(n)
	if !ok {
		p, _ = exactPlans.LoadOrStore(n, buildExact(n.GoType, n, &exactBuild{visiting: map[reflect.Type]bool{}, done: map[*Node]*exactPlan{}}))
	}
	return p.(*exactPlan)
}

// buildExact plans values of Go type t at node n; nil when they are
// never exact.
func buildExact(t reflect.Type, n *Node, b *exactBuild) *exactPlan {
	if n.Marshaler && !n.plainCopy {
		if n.addrSensitive {
			return nil
		}
		e := &exactPlan{kind: exactTrip, node: n, goType: t}
		if t == n.GoType && n.trips != nil {
			e.size = t.Size() // remembered by content
		}
		return e
	}
	if t.Kind() == reflect.Pointer {
		e := buildExact(t.Elem(), n, b)
		if e == nil || e.kind == exactAlways {
			return e
		}
		return &exactPlan{kind: exactPointer, elem: e}
	}
	if n.Marshaler {
		return exactNothing // plain data
	}
	switch n.Kind {
	case reflectschema.Scalar:
		return scalarExact(t, n)
	case reflectschema.Struct:
		return b.structExact(t, n)
	case reflectschema.List, reflectschema.Atomic:
		if t.Kind() != reflect.Slice || n.Elem == nil {
			return nil
		}
		e := buildExact(t.Elem(), n.Elem, b)
		if e == nil || e.kind == exactAlways {
			return e
		}
		return &exactPlan{kind: exactSlice, elem: e, size: t.Elem().Size()}
	case reflectschema.Map:
		if n.keyMode != keyString || t.Key().Kind() != reflect.String || n.Elem == nil {
			return nil
		}
		e := buildExact(t.Elem(), n.Elem, b)
		if e == nil {
			return nil
		}
		return &exactPlan{kind: exactMap, elem: e, mapT: t, strMap: e.kind == exactString && t.ConvertibleTo(mapSSType), ranger: wordRangeOf(t)}
	}
	return nil
}

// scalarExact plans a scalar of Go type t.
func scalarExact(t reflect.Type, n *Node) *exactPlan {
	if n.IsNumber {
		return nil
	}
	if n.bytes {
		return exactNothing // copied byte for byte
	}
	switch t.Kind() {
	case reflect.String:
		return &exactPlan{kind: exactString}
	case reflect.Float32, reflect.Float64:
		return &exactPlan{kind: exactFloat, size: t.Size()}
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return exactNothing
	}
	return nil
}

// structExact plans a struct whose every Go field is one of n's JSON
// fields, read as encoding/json reads it.
func (b *exactBuild) structExact(t reflect.Type, n *Node) *exactPlan {
	if p, ok := b.done[n]; ok && t == n.GoType {
		return p
	}
	if t != n.GoType || b.visiting[t] || !allFieldsJSON(t, nil, n.Fields) {
		return nil
	}
	b.visiting[t] = true
	defer delete(b.visiting, t)
	p := b.structFields(n)
	b.done[n] = p // nil on a cycle: every type on it is recursive
	return p
}

// exactBuild is one root's planning: the structs being planned, and those
// planned, each once however often the type occurs.
type exactBuild struct {
	visiting map[reflect.Type]bool
	done     map[*Node]*exactPlan
}

// structFields plans a struct's fields; nil when one has no plan. A
// field that can need no fix is left out, and a struct field not under
// omitzero is planned as its own fields are, at their offsets.
func (b *exactBuild) structFields(n *Node) *exactPlan {
	p := &exactPlan{kind: exactStruct}
	for _, f := range n.Fields {
		if f.ViaPtr || f.Quoted {
			return nil
		}
		e := buildExact(f.Meta.GoType, f.Node, b)
		if e == nil {
			return nil
		}
		k := f.Meta.GoType.Kind()
		ef := exactField{off: f.Offset, plan: e, nilable: k == reflect.Pointer || k == reflect.Slice || k == reflect.Map}
		if f.Meta.OmitEmpty && (k == reflect.Slice || k == reflect.Map) {
			ef.omitEmpty, ef.omitMap = f.Meta.GoType, k == reflect.Map
		}
		if f.Meta.OmitZero {
			ef.omitZero = f
		}
		switch {
		case ef.omitEmpty != nil || ef.omitZero != nil:
			p.fields = append(p.fields, ef)
		case e.kind == exactString:
			p.strs = append(p.strs, f.Offset)
		case e.kind == exactPointer:
			p.ptrs = append(p.ptrs, exactPtr{f.Offset, e.elem})
		case e.kind == exactStruct:
			for _, off := range e.strs {
				p.strs = append(p.strs, f.Offset+off)
			}
			for _, g := range e.ptrs {
				p.ptrs = append(p.ptrs, exactPtr{g.off + f.Offset, g.plan})
			}
			for _, g := range e.fields {
				g.off += f.Offset
				p.fields = append(p.fields, g)
			}
		case e.kind != exactAlways:
			p.fields = append(p.fields, ef)
		}
	}
	if len(p.strs) == 0 && len(p.ptrs) == 0 && len(p.fields) == 0 {
		return exactNothing
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
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
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

func hasIndex(fields []*Field, index []int) bool {
	return slices.ContainsFunc(fields, func(f *Field) bool { return slices.Equal(f.Index, index) })
}
