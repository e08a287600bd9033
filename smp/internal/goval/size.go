package goval

import (
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// A Go value in memory may reach one pointer, map or slice along many
// paths: ten levels of nodes whose two children are one pointer stand for
// a tree of 1,024 leaves. Every walk of the engine follows paths, so it
// costs what that tree costs. Budget bounds it: before anything else, an
// operation measures each value it takes as the tree it stands for, in
// time linear in the distinct values in memory, and refuses a value
// larger than what is left of jsonval.Limits.MaxNodes. Past that check
// every walk's cost is bounded by the budget.

// memoFrom is how many units a measure counts by walking paths alone;
// past it, the pointers, maps and slices met are remembered with the size
// of the tree below them, so that each is measured once. Values smaller
// than this, nearly all, pay a counter and no map.
const memoFrom = 1 << 15

// Budget is what an operation may still visit of Go values in memory,
// counted as described at MeasureTyped.
type Budget struct {
	left int
	max  int
}

// NewBudget returns the budget l allows one operation.
func NewBudget(l jsonval.Limits) Budget {
	m := l.Nodes()
	return Budget{left: m, max: m}
}

// MeasureTyped takes from b the size of v, a value of n's type, and fails
// with an ErrLimit error naming the path where the budget ran out. The
// size is that of the JSON the value stands for: one unit for each
// object and array, and one for each member and element, a value reached
// along several paths counting once per path. A struct counts a member
// for every field, also one its JSON leaves out: an upper bound. A value that contains
// itself counts its way around once; the walks that follow report it.
func (b *Budget) MeasureTyped(v reflect.Value, n *Node, what string) error {
	if !v.IsValid() {
		return nil
	}
	return b.run(what, func(m *measure) error { _, err := m.typed(v, n, 0); return err })
}

// CheckTyped measures v, a typed document, against b and checks it
// against l's depth and list-length limits (CheckTypedLimits): in one
// compiled pass where the type allows it, else by the walks, which name
// the path of a failure.
func (b *Budget) CheckTyped(v reflect.Value, n *Node, l jsonval.Limits, what string) error {
	if !v.IsValid() {
		return nil
	}
	if v.Type() == n.GoType && n.depth >= 0 && n.depth <= l.Bounded().MaxDepth {
		maxList := l.MaxListLength
		if maxList <= 0 {
			maxList = math.MaxInt
		}
		if k, ok := fastSize(v, n, maxList); ok && k <= b.left {
			b.left -= k
			return nil
		}
	}
	if err := b.MeasureTyped(v, n, what); err != nil {
		return err
	}
	return CheckTypedLimits(v, n, l, what)
}

// MeasureAny is MeasureTyped for a value held in an interface, as the map
// API's objects are: maps, slices and Go values of any type.
func (b *Budget) MeasureAny(x any, what string) error {
	return b.run(what, func(m *measure) error { _, err := m.anyValue(x, 0); return err })
}

// run measures with walk, and again with maps in key order when the
// budget runs out, so that the error names the same path every time.
func (b *Budget) run(what string, walk func(*measure) error) error {
	m := measure{left: b.left, max: b.max, what: what}
	err := walk(&m)
	if err != nil {
		m = measure{left: b.left, max: b.max, what: what, sorted: true}
		if err2 := walk(&m); err2 != nil {
			err = err2
		}
	}
	b.left = m.left
	return err
}

// measure is one value's measuring walk.
type measure struct {
	left, max int
	what      string
	sorted    bool             // maps in key order
	spent     int              // units counted so far
	memo      map[visitKey]int // size below each pointer, map, slice; nil until memoFrom
	plans     map[reflect.Type]*Node
}

// visitKey names a pointer, map or slice (with its length: part of a
// slice is another value) of a type.
type visitKey struct {
	t reflect.Type
	p unsafe.Pointer
	n int
}

// inProgress marks a value being measured in memo: met again below
// itself, it is a cycle.
const inProgress = -1

// take counts k units, failing when the budget runs out.
func (m *measure) take(k int) error {
	m.spent += k
	if k > m.left {
		m.left = 0
		return errpath.New(errpath.ErrLimit, nil, "%s stands for more than %s values of JSON (a value reached along several paths counts once per path): more than the limit MaxNodes allows", m.name(), strconv.Itoa(m.max))
	}
	m.left -= k
	return nil
}

func (m *measure) name() string {
	if m.what == "" {
		return "value"
	}
	return m.what
}

// enter looks v up before it is measured: done reports a value measured
// before (its size taken again) or being measured (a cycle, counted as
// one unit); key is what leave records, the zero key when nothing is
// remembered.
func (m *measure) enter(v reflect.Value) (key visitKey, done bool, err error) {
	if m.memo == nil {
		if m.spent < memoFrom {
			return visitKey{}, false, nil
		}
		m.memo = map[visitKey]int{}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Map:
		if v.IsNil() {
			return visitKey{}, false, nil
		}
		key = visitKey{v.Type(), v.UnsafePointer(), -1}
	case reflect.Slice:
		if v.IsNil() || v.Len() == 0 {
			return visitKey{}, false, nil
		}
		key = visitKey{v.Type(), v.UnsafePointer(), v.Len()}
	default:
		return visitKey{}, false, nil
	}
	size, seen := m.memo[key]
	switch {
	case !seen:
		m.memo[key] = inProgress
		return key, false, nil
	case size == inProgress:
		return visitKey{}, true, m.take(1)
	}
	return visitKey{}, true, m.take(size)
}

// leave records the size of the value enter was given, spent since from.
func (m *measure) leave(key visitKey, from int) {
	if key.p != nil {
		m.memo[key] = m.spent - from
	}
}

// typed measures a value of n's type at depth; it returns the units spent.
func (m *measure) typed(v reflect.Value, n *Node, depth int) (int, error) {
	if n.Marshaler || !composite(n) || depth > jsonval.MaxNesting {
		return 0, nil // a scalar, counted by its parent; too deep: refused by the limits
	}
	if n.Kind == reflectschema.Untyped {
		if v.Kind() == reflect.Interface {
			if v.IsNil() {
				return 0, nil
			}
			v = v.Elem()
		}
		if !v.CanInterface() {
			return 0, nil
		}
		return m.anyValue(v.Interface(), depth)
	}
	from := m.spent
	key, done, err := m.enter(v)
	if done || err != nil {
		return m.spent - from, err
	}
	v, null := DerefNull(v)
	switch {
	case null:
	case n.size.flatDone && n.size.flat >= 0:
		err = m.take(n.size.flat)
	default:
		err = m.typedBody(v, n, depth)
	}
	if err == nil {
		m.leave(key, from)
	}
	return m.spent - from, err
}

// typedBody measures a non-null value: a struct's fields, a map's entries
// or a list's elements, each a unit, and the composite ones below.
func (m *measure) typedBody(v reflect.Value, n *Node, depth int) error {
	switch v.Kind() {
	case reflect.Struct:
		if err := m.take(1 + len(n.Fields)); err != nil {
			return err
		}
		for _, f := range n.Fields {
			if !composite(f.Node) || f.Node.Marshaler {
				continue
			}
			if fv, ok := FieldValue(v, f); ok {
				if _, err := m.typed(fv, f.Node, depth+1); err != nil {
					return under(err, errpath.FieldStep(f.Name))
				}
			}
		}
	case reflect.Map:
		if err := m.take(1 + v.Len()); err != nil || n.Elem == nil || !composite(n.Elem) || n.Elem.Marshaler {
			return err
		}
		return m.eachEntry(v, func(k, e reflect.Value) error {
			_, err := m.typed(e, n.Elem, depth+1)
			return err
		})
	case reflect.Slice, reflect.Array:
		if err := m.take(1 + v.Len()); err != nil || n.bytes || n.Elem == nil || !composite(n.Elem) || n.Elem.Marshaler {
			return err
		}
		for i := range v.Len() {
			if _, err := m.typed(v.Index(i), n.Elem, depth+1); err != nil {
				return under(err, errpath.IndexStep(i))
			}
		}
	}
	return nil
}
