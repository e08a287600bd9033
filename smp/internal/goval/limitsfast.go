package goval

import (
	"reflect"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// lenCheck is the list-length limit compiled for the values of a node
// whose nesting is bounded (so that it holds no cycle): it reads list
// lengths from memory and reports whether every list below the value at
// p has at most max items. It visits lists that encoding/json leaves out
// too, so a false answer is only a reason to run the walk, which alone
// makes the error.
type lenCheck func(p unsafe.Pointer, max int) bool

// lenPlan is what planOf records of a node's compiled check: whether one
// could be compiled (maps, untyped values and fields behind embedded
// pointers are left to the walk) and the check, nil when no list is
// reachable.
type lenPlan struct {
	done, ok bool
	check    lenCheck
}

// compileLens compiles n's check, and those of the nodes below it.
func compileLens(n *Node) (lenCheck, bool) {
	if n.lens.done {
		return n.lens.check, n.lens.ok
	}
	n.lens.done = true
	if n.depth < 0 {
		return nil, false
	}
	n.lens.check, n.lens.ok = lensOf(n)
	return n.lens.check, n.lens.ok
}

func lensOf(n *Node) (lenCheck, bool) {
	if !n.listReach || n.Marshaler {
		return nil, true
	}
	switch n.Kind {
	case reflectschema.Struct:
		return structLens(n)
	case reflectschema.List, reflectschema.Atomic:
		return listLens(n)
	}
	return nil, false
}

// structLens checks the fields through which a list is reachable.
func structLens(n *Node) (lenCheck, bool) {
	type step struct {
		off   uintptr
		check lenCheck
	}
	var steps []step
	for _, f := range n.listFields {
		if f.ViaPtr {
			return nil, false
		}
		c, ok := derefLens(f.Meta.GoType, f.Node)
		if !ok {
			return nil, false
		}
		if c != nil {
			steps = append(steps, step{fieldOffset(n.GoType, f.Index), c})
		}
	}
	if len(steps) == 0 {
		return nil, true
	}
	return func(p unsafe.Pointer, max int) bool {
		for _, s := range steps {
			if !s.check(unsafe.Add(p, s.off), max) {
				return false
			}
		}
		return true
	}, true
}

// listLens checks a slice's or an array's length and its elements.
func listLens(n *Node) (lenCheck, bool) {
	t := n.GoType
	if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
		return nil, false
	}
	elem, ok := derefLens(t.Elem(), n.Elem)
	if !ok {
		return nil, false
	}
	size := t.Elem().Size()
	if t.Kind() == reflect.Array {
		length := t.Len()
		return func(p unsafe.Pointer, max int) bool {
			return length <= max && elemsWithin(p, length, size, elem, max)
		}, true
	}
	return func(p unsafe.Pointer, max int) bool {
		s := (*reflectSlice)(p)
		return s.len <= max && elemsWithin(s.data, s.len, size, elem, max)
	}, true
}

func elemsWithin(data unsafe.Pointer, length int, size uintptr, elem lenCheck, max int) bool {
	if elem == nil {
		return true
	}
	for i := range length {
		if !elem(unsafe.Add(data, uintptr(i)*size), max) {
			return false
		}
	}
	return true
}

// derefLens is n's check for a value of Go type t: n's own type behind
// any number of pointers.
func derefLens(t reflect.Type, n *Node) (lenCheck, bool) {
	if t.Kind() != reflect.Pointer {
		if t != n.GoType {
			return nil, false
		}
		return compileLens(n)
	}
	inner, ok := derefLens(t.Elem(), n)
	if !ok || inner == nil {
		return nil, ok
	}
	return func(p unsafe.Pointer, max int) bool {
		q := *(*unsafe.Pointer)(p)
		return q == nil || inner(q, max)
	}, true
}

// listsWithin reports whether the compiled check passes v, an
// addressable value of n; false when there is none to run.
func listsWithin(v reflect.Value, n *Node, max int) bool {
	if !n.lens.ok || !v.CanAddr() {
		return false
	}
	return n.lens.check == nil || n.lens.check(unsafe.Pointer(v.UnsafeAddr()), max)
}
