package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/errpath"

	"errors"
	"reflect"
	"unsafe"
)

// Values built in Go, unlike decoded JSON, may contain themselves (a map
// holding itself, a struct pointing to itself) or nest without end. Every
// walk that follows them is bounded: no value nests deeper than maxNesting
// levels, whatever the limits (encoding/json's decoder has the same
// ceiling), and a walk past trackFrom levels remembers the pointers, maps
// and slices on its way down, as encoding/json does, so that a cycle is an
// error rather than endless recursion. Shallow values pay one counter.

const (
	// maxNesting is the deepest nesting any operation accepts.
	maxNesting = 10000
	// trackFrom is the depth past which walks look for cycles.
	trackFrom = 1000
)

// errCycle and errTooDeep mark the errors a guard makes.
var (
	errCycle   = errors.New("cycle")
	errTooDeep = errors.New("too deep")
)

// visit identifies a pointer, map or slice by its type and address (and
// a slice by its length, as encoding/json does: part of a slice is a
// different value). The type tells a struct from its first field.
type visit struct {
	t reflect.Type
	p unsafe.Pointer
	n int
}

// guard counts a walk's depth and, past from, tracks what is on its way
// down.
type guard struct {
	depth  int
	from   int
	what   string // the document, for messages; "value" when empty
	onPath map[visit]struct{}
}

// newGuard returns a guard that tracks from depth from.
func newGuard(from int) guard { return guard{from: from} }

// down enters v, one level deeper. It fails past maxNesting levels and
// when v is a pointer, map or slice that contains itself.
func (g *guard) down(v reflect.Value) (visit, error) {
	g.depth++
	if g.depth <= g.from {
		return visit{}, nil
	}
	return g.track(v)
}

// downAny is down for a decoded-style value held in an interface.
func (g *guard) downAny(x any) (visit, error) {
	g.depth++
	if g.depth <= g.from {
		return visit{}, nil
	}
	return g.track(reflect.ValueOf(x))
}

// up leaves the value down entered.
func (g *guard) up(k visit) {
	g.depth--
	g.untrack(k)
}

// untrack forgets what track remembered.
func (g *guard) untrack(k visit) {
	if k.p != nil {
		delete(g.onPath, k)
	}
}

// track remembers v, a value on the way down, failing if it is there
// already or the walk is too deep.
func (g *guard) track(v reflect.Value) (visit, error) {
	if g.depth > maxNesting {
		return visit{}, errpath.Wrap(ErrLimit, g.name()+" nests deeper than "+itoa(maxNesting)+" levels", errTooDeep)
	}
	var k visit
	switch v.Kind() {
	case reflect.Pointer, reflect.Map:
		if v.IsNil() {
			return visit{}, nil
		}
		k = visit{t: v.Type(), p: v.UnsafePointer(), n: -1}
	case reflect.Slice:
		if v.IsNil() || v.Len() == 0 {
			return visit{}, nil
		}
		k = visit{t: v.Type(), p: v.UnsafePointer(), n: v.Len()}
	default:
		return visit{}, nil
	}
	if _, ok := g.onPath[k]; ok {
		return visit{}, errpath.Wrap(ErrInvalidValue, g.name()+" holds a cycle: this "+v.Type().String()+" contains itself", errCycle)
	}
	if g.onPath == nil {
		g.onPath = map[visit]struct{}{}
	}
	g.onPath[k] = struct{}{}
	return k, nil
}

// enterRoot marks an addressable root struct as on the way down, as a
// pointer to it would be, when every value is tracked.
func (g *guard) enterRoot(v reflect.Value) {
	if g.from > 0 || !v.CanAddr() {
		return
	}
	if g.onPath == nil {
		g.onPath = map[visit]struct{}{}
	}
	p := v.Addr()
	g.onPath[visit{t: p.Type(), p: p.UnsafePointer(), n: -1}] = struct{}{}
}

func (g *guard) name() string {
	if g.what == "" {
		return "value"
	}
	return g.what
}

// guarded reports whether err is a guard's: a cycle or nesting too deep.
func guarded(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Unwrap() == errCycle || e.Unwrap() == errTooDeep)
}
