package goval

import (
	"reflect"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// What a type's plan records beyond its fields: addressability, lists,
// depth bounds, pointers, quoting and how zero values are told apart.

// markAddr sets addrSensitive on structs and arrays that hold an
// addressability-sensitive value directly (not through a pointer, slice,
// map or interface, whose elements are addressable or not either way).
func markAddr(n *Node, seen map[*Node]bool) bool {
	if n.addrSensitive || seen[n] {
		return n.addrSensitive
	}
	seen[n] = true
	switch n.Kind {
	case reflectschema.Struct:
		for _, f := range n.Fields {
			if f.Meta.GoType.Kind() != reflect.Pointer && markAddr(f.Node, seen) {
				n.addrSensitive = true
			}
		}
	case reflectschema.List, reflectschema.Atomic:
		if n.Elem != nil && n.GoType.Kind() == reflect.Array && n.GoType.Elem().Kind() != reflect.Pointer {
			n.addrSensitive = markAddr(n.Elem, seen)
		}
	}
	return n.addrSensitive
}

// Detach returns a value that encodes as v does when it is not
// addressable, as encoding/json sees map values.
func Detach(v reflect.Value, n *Node) reflect.Value {
	if n.addrSensitive && v.CanAddr() {
		return reflect.ValueOf(v.Interface())
	}
	return v
}

// markLists sets listReach on n if a list or an untyped value is
// reachable from it.
func markLists(n *Node, seen map[*Node]bool) bool {
	if n.listReach || seen[n] {
		return n.listReach
	}
	seen[n] = true
	switch n.Kind {
	case reflectschema.List, reflectschema.Untyped:
		n.listReach = true
	case reflectschema.Atomic:
		n.listReach = !n.Marshaler
	case reflectschema.Struct:
		for _, f := range n.Fields {
			if markLists(f.Node, seen) {
				n.listReach = true
			}
		}
	case reflectschema.Map:
		n.listReach = markLists(n.Elem, seen)
	}
	return n.listReach
}

// depthBound is the deepest level, below a value of n, at which
// jsonval.WalkLimits checks the depth: one more for each object member that is an
// object or array and for each array element. It is -1 for types that
// nest without bound.
func depthBound(n *Node, onPath map[*Node]bool) int {
	if onPath[n] {
		return -1
	}
	onPath[n] = true
	defer delete(onPath, n)
	below := func(c *Node) int {
		if !composite(c) {
			return 0
		}
		d := depthBound(c, onPath)
		if d < 0 {
			return -1
		}
		return d + 1
	}
	switch n.Kind {
	case reflectschema.Untyped:
		return -1
	case reflectschema.Struct:
		deepest := 0
		for _, f := range n.Fields {
			d := below(f.Node)
			if d < 0 {
				return -1
			}
			deepest = max(deepest, d)
		}
		return deepest
	case reflectschema.Map:
		return below(n.Elem)
	case reflectschema.List, reflectschema.Atomic:
		if n.Kind == reflectschema.Atomic && n.Marshaler {
			return 0
		}
		d := below(n.Elem)
		if d < 0 {
			return -1
		}
		return max(d, 1) // scalar elements are checked one level down too
	}
	return 0
}

// crossesPointer reports whether an index path goes through an embedded
// pointer, which may be nil.
func crossesPointer(t reflect.Type, index []int) bool {
	for i, x := range index {
		if t.Kind() == reflect.Pointer {
			return true
		}
		if i < len(index)-1 {
			t = t.Field(x).Type
		}
	}
	return false
}

// quotable reports whether encoding/json honours ",string" on a field of
// type t: strings, numbers and booleans, or an unnamed pointer to one.
func quotable(t reflect.Type) bool {
	if t.Name() == "" && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// zeroModeOf picks the IsZero rule encoding/json uses for omitzero.
func zeroModeOf(t reflect.Type) zeroMode {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return zeroMethodIface
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return zeroMethodPtr
	case t.Implements(isZeroerType):
		return zeroMethodValue
	case reflect.PointerTo(t).Implements(isZeroerType):
		return zeroMethodAddr
	}
	return zeroReflect
}

// pointerFree reports whether a value of t holds no pointer, slice, map,
// interface, channel or function, so that assigning it copies it deeply.
func pointerFree(t reflect.Type, depth int) bool {
	if depth > 32 {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return pointerFree(t.Elem(), depth+1)
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// plainCheck compiles, for type t, the test that a value of it holds no
// non-nil pointer, slice, map, interface, channel or function: then
// assigning it copies it deeply. The test reads the words that must be
// nil; types nested too deep, or holding more than maxNilWords of them,
// are never plain.
func plainCheck(t reflect.Type) func(unsafe.Pointer) bool {
	nw, ok := nilWords(t, 0, nil, 0)
	words := make([]uintptr, len(nw))
	for i, w := range nw {
		words[i] = w.off
	}
	switch {
	case !ok:
		return func(unsafe.Pointer) bool { return false }
	case len(words) == 0:
		return func(unsafe.Pointer) bool { return true }
	case len(words) == 1:
		off := nw[0].off
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(unsafe.Add(p, off)) == nil }
	}
	return func(p unsafe.Pointer) bool {
		for _, off := range words {
			if *(*unsafe.Pointer)(unsafe.Add(p, off)) != nil {
				return false
			}
		}
		return true
	}
}

// maxNilWords bounds the words a plain test reads.
const maxNilWords = 64

// nilWord is a word that is nil when a value holds no pointer: off is its
// offset; iface, that it is an interface's type (whose data word says
// where the value is).
type nilWord struct {
	off   uintptr
	iface bool
}

// nilWords appends the words a value of type t (at base) holds that are
// nil exactly when it holds no pointer: a pointer's, a map's, a channel's
// or a function's, a slice's data and an interface's type. ok is false
// past maxNilWords or too deep a nesting.
func nilWords(t reflect.Type, base uintptr, into []nilWord, depth int) ([]nilWord, bool) {
	if depth > 32 {
		return nil, false
	}
	if pointerFree(t, 0) {
		return into, true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer, reflect.Slice, reflect.Interface:
		if len(into) == maxNilWords {
			return nil, false
		}
		return append(into, nilWord{base, t.Kind() == reflect.Interface}), true
	case reflect.Array:
		var ok bool
		for i := range t.Len() {
			if into, ok = nilWords(t.Elem(), base+uintptr(i)*t.Elem().Size(), into, depth+1); !ok {
				return nil, false
			}
		}
	case reflect.Struct:
		for i := range t.NumField() {
			var ok bool
			if into, ok = nilWords(t.Field(i).Type, base+t.Field(i).Offset, into, depth+1); !ok {
				return nil, false
			}
		}
	}
	return into, true
}
