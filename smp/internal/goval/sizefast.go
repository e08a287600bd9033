package goval

import (
	"reflect"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// sizeCheck is the measure compiled for a node's values (size.go's walk
// without reflection): it returns a with the units of the value at p
// added, reading lengths and pointers from memory, and the structs and
// elements it visited added to a.work; once those reach memoFrom it gives
// up, and the walk, which remembers values, must measure instead. Units
// counted without a visit (a list of flat structs, a map) cost no work,
// so a long list of them is measured in constant time. Maps with composite values, untyped values and fields behind
// embedded pointers are left to the walk: no check is compiled for a node
// that holds them.
//
// The check also reads every list's length against maxList (the
// list-length limit), and gives up on a longer one, so that a value it
// passes needs no other check of its lengths.
type sizeCheck func(p unsafe.Pointer, a sizeAcc, maxList int) sizeAcc

// sizeAcc is what a compiled measure has counted: units, and the work
// done to count them (memoFrom or more: given up).
type sizeAcc struct{ units, work int }

// giveUp is a with its work at memoFrom.
func (a sizeAcc) giveUp() sizeAcc { a.work = memoFrom; return a }

// sizePlan is what planOf records of a node's compiled measure: whether
// one could be compiled, and the check (nil for a node whose values are
// scalars to the measure).
type sizePlan struct {
	done, ok bool
	check    sizeCheck
	// flat is the units of a struct whose type holds no list, map or
	// untyped value at any depth, nor itself, counted as if every
	// pointer in it were set (the measure's bound for such a value); -1
	// for other nodes. flatDone: flat is known.
	flat     int
	flatDone bool
	// body is the compiled measure of a struct that is not flat, once
	// it is compiled; nil for other nodes.
	body *structBody
}

// flatUnits returns n's flat units (sizePlan.flat), working them out
// the first time; visiting holds the nodes being worked out.
func flatUnits(n *Node, visiting map[*Node]bool) int {
	if n.size.flatDone {
		return n.size.flat
	}
	if n.Kind != reflectschema.Struct || n.GoType.Kind() != reflect.Struct || n.Marshaler || visiting[n] {
		return -1 // not memoised for a node met again: its outer call decides
	}
	visiting[n] = true
	units := 1 + len(n.Fields)
	for _, f := range n.Fields {
		if f.Node.Marshaler || !composite(f.Node) {
			continue
		}
		u := flatUnits(f.Node, visiting)
		if u < 0 || f.ViaPtr {
			units = -1
			break
		}
		units += u
	}
	delete(visiting, n)
	n.size.flat, n.size.flatDone = units, true
	return units
}

// compileSize compiles n's measure, and those of the nodes below it. A
// node met again while it is being compiled (a recursive type) is
// measured through its plan once the compilation is done.
func compileSize(n *Node) (sizeCheck, bool) {
	if n.size.done {
		if n.size.check == nil && n.size.ok && composite(n) && !n.Marshaler {
			// Being compiled: read the result when the check runs.
			return func(p unsafe.Pointer, a sizeAcc, maxList int) sizeAcc {
				switch {
				case !n.size.ok:
					return a.giveUp()
				case n.size.check == nil:
					return a
				}
				return n.size.check(p, a, maxList)
			}, true
		}
		return n.size.check, n.size.ok
	}
	n.size.done, n.size.ok = true, true
	flatUnits(n, map[*Node]bool{})
	check, ok := sizeOf(n)
	n.size.check, n.size.ok = check, ok
	return check, ok
}

func sizeOf(n *Node) (sizeCheck, bool) {
	if n.Marshaler || !composite(n) {
		return nil, true
	}
	switch n.GoType.Kind() {
	case reflect.Struct:
		return structSize(n)
	case reflect.Slice, reflect.Array:
		return listSize(n)
	case reflect.Map:
		if n.Elem != nil && composite(n.Elem) && !n.Elem.Marshaler {
			return nil, false
		}
		return func(p unsafe.Pointer, a sizeAcc, _ int) sizeAcc {
			// Every map has the runtime's map header: len reads its count.
			a.units += 1 + len(*(*map[unsafe.Pointer]struct{})(p))
			a.work++
			return a
		}, true
	}
	return nil, false
}

// structSize counts a struct and its members, and measures the composite
// ones: a flat struct by its units, any other by its body (sizebody.go),
// recorded in n's plan for the lists that hold n's structs.
func structSize(n *Node) (sizeCheck, bool) {
	if u := n.size.flat; u >= 0 {
		return func(_ unsafe.Pointer, a sizeAcc, _ int) sizeAcc {
			a.units += u
			a.work++
			return a
		}, true
	}
	units, steps, ok := structSteps(n, 0)
	if !ok {
		return nil, false
	}
	b := newBody(units, n.GoType.Size(), steps)
	n.size.body = b
	return b.one, true
}

// sizeStep is one member of a struct that structSize measures: at an
// offset, a list whose length is all there is to count (stepLen), a map
// (stepMap), a pointer to follow (stepPtr), a slice whose elements to
// check (stepList), or a value to check.
type sizeStep struct {
	off   uintptr
	kind  uint8
	units int // of stepFlat, stepLen
	check sizeCheck
	list  listStep // of stepList
}

const (
	stepCheck uint8 = iota
	stepLen
	stepMap
	stepPtr
	stepFlat // a pointer to a flat struct: its units when set
	stepList
)

// structSteps returns the units of a struct of n at offset off and the
// steps of its composite members, inline structs' members included.
func structSteps(n *Node, off uintptr) (units int, steps []sizeStep, ok bool) {
	units = 1 + len(n.Fields)
	for _, f := range n.Fields {
		if f.Node.Marshaler || !composite(f.Node) {
			continue
		}
		if f.ViaPtr {
			return 0, nil, false
		}
		at := off + fieldOffset(n.GoType, f.Index)
		t := f.Meta.GoType
		flat := flatUnits(f.Node, map[*Node]bool{})
		switch {
		case t == f.Node.GoType && flat >= 0:
			units += flat
			continue
		case t.Kind() == reflect.Pointer && t.Elem() == f.Node.GoType && flat >= 0:
			steps = append(steps, sizeStep{off: at, kind: stepFlat, units: flat})
			continue
		case t == f.Node.GoType && t.Kind() == reflect.Struct && f.Node.Kind == reflectschema.Struct:
			u, inner, ok := structSteps(f.Node, at)
			if !ok {
				return 0, nil, false
			}
			units += u
			steps = append(steps, inner...)
			continue
		case t == f.Node.GoType && t.Kind() == reflect.Slice && (f.Node.bytes || f.Node.Elem == nil || !composite(f.Node.Elem) || f.Node.Elem.Marshaler):
			steps = append(steps, sizeStep{off: at, kind: stepLen})
			continue
		case t == f.Node.GoType && t.Kind() == reflect.Slice && t.Elem() == f.Node.Elem.GoType && flatUnits(f.Node.Elem, map[*Node]bool{}) >= 0:
			steps = append(steps, sizeStep{off: at, kind: stepLen, units: f.Node.Elem.size.flat})
			continue
		case t == f.Node.GoType && t.Kind() == reflect.Map && (f.Node.Elem == nil || !composite(f.Node.Elem) || f.Node.Elem.Marshaler):
			steps = append(steps, sizeStep{off: at, kind: stepMap})
			continue
		case t == f.Node.GoType && t.Kind() == reflect.Slice && !f.Node.bytes && f.Node.Elem != nil:
			l, ok := listOf(t, f.Node.Elem)
			if !ok {
				return 0, nil, false
			}
			l.off = at
			steps = append(steps, sizeStep{off: at, kind: stepList, list: l})
			continue
		case t.Kind() == reflect.Pointer && t.Elem() == f.Node.GoType:
			c, ok := compileSize(f.Node)
			if !ok {
				return 0, nil, false
			}
			if c != nil {
				steps = append(steps, sizeStep{off: at, kind: stepPtr, check: c})
			}
			continue
		}
		c, ok := derefSize(t, f.Node)
		if !ok {
			return 0, nil, false
		}
		if c != nil {
			steps = append(steps, sizeStep{off: at, check: c})
		}
	}
	return units, steps, true
}

// listSize counts a slice or an array and its elements, and measures the
// composite ones.
func listSize(n *Node) (sizeCheck, bool) {
	t := n.GoType
	var elem *Node
	if !n.bytes {
		elem = n.Elem
	}
	l, ok := listOf(t, elem)
	if !ok {
		return nil, false
	}
	if t.Kind() == reflect.Array {
		length := t.Len()
		return func(p unsafe.Pointer, a sizeAcc, maxList int) sizeAcc {
			return l.measure(p, length, a, maxList)
		}, true
	}
	return func(p unsafe.Pointer, a sizeAcc, maxList int) sizeAcc {
		s := (*reflectSlice)(p)
		return l.measure(s.data, s.len, a, maxList)
	}, true
}

// listOf compiles the measure of a list of Go type t whose elements are
// values of elem (nil: scalars to the measure). Elements of a struct type
// whose body is compiled are measured by that body, all in one call.
func listOf(t reflect.Type, elem *Node) (listStep, bool) {
	l := listStep{size: t.Elem().Size()}
	if elem == nil {
		return l, true
	}
	c, ok := derefSize(t.Elem(), elem)
	if !ok {
		return l, false
	}
	l.check = c
	if t.Elem() == elem.GoType {
		l.body = elem.size.body
	}
	return l, true
}

// derefSize is n's check for a value of Go type t: n's own type behind
// any number of pointers.
func derefSize(t reflect.Type, n *Node) (sizeCheck, bool) {
	if t.Kind() != reflect.Pointer {
		if t != n.GoType {
			return nil, false
		}
		return compileSize(n)
	}
	inner, ok := derefSize(t.Elem(), n)
	if !ok || inner == nil {
		return nil, ok
	}
	return func(p unsafe.Pointer, a sizeAcc, maxList int) sizeAcc {
		if q := *(*unsafe.Pointer)(p); q != nil {
			return inner(q, a, maxList)
		}
		return a
	}, true
}

// fastSize measures v, a value of n, by n's compiled check: its units,
// and whether the check could tell (a compiled check, less work than
// memoFrom, and no list longer than maxList).
func fastSize(v reflect.Value, n *Node, maxList int) (int, bool) {
	if !n.size.ok {
		return 0, false
	}
	if n.size.check == nil {
		return 0, true
	}
	if !v.CanAddr() {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	}
	a := n.size.check(unsafe.Pointer(v.UnsafeAddr()), sizeAcc{}, maxList)
	return a.units, a.work < memoFrom
}
