package jsonval

import (
	"errors"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// Values built in Go, unlike decoded JSON, may contain themselves (a map
// holding itself, a struct pointing to itself) or nest without end. Every
// walk that follows them is bounded: no value nests deeper than maxNesting
// levels, whatever the limits (encoding/json's decoder has the same
// ceiling), and a walk past TrackFrom levels remembers the pointers, maps
// and slices on its way down, as encoding/json does, so that a cycle is an
// error rather than endless recursion. Shallow values pay one counter.

const (
	// maxNesting is the deepest nesting any operation accepts.
	maxNesting = 10000
	// MaxNesting is maxNesting, for the walks of other packages.
	MaxNesting = maxNesting
	// TrackFrom is the depth past which walks look for cycles.
	TrackFrom = 1000
)

// errCycle and errTooDeep mark the errors a guard makes.
var (
	errCycle   = errors.New("cycle")
	errTooDeep = errors.New("too deep")
)

// Visit identifies a pointer, map or slice by its type and address (and
// a slice by its length, as encoding/json does: part of a slice is a
// different value). The type tells a struct from its first field.
type Visit struct {
	t reflect.Type
	p unsafe.Pointer
	n int
}

// Guard counts a walk's depth and, past from, tracks what is on its way
// down.
type Guard struct {
	depth  int
	from   int
	what   string // the document, for messages; "value" when empty
	onPath map[Visit]struct{}
}

// Tracks reports whether the guard tracks values at depth: from its
// starting depth on.
func (g *Guard) Tracks(depth int) bool { return depth >= g.from }

// Shallow reports whether the walk is above the depth where tracking
// starts; Step moves it down (1) or up (-1) a level there, untracked.
func (g *Guard) Shallow() bool { return g.depth < g.from }

// Step: see Shallow.
func (g *Guard) Step(by int) { g.depth += by }

// NewGuard returns a guard that tracks from depth from, in the document
// what names for messages ("value" when empty).
func NewGuard(from int, what string) Guard { return Guard{from: from, what: what} }

// Down enters v, one level deeper. It fails past maxNesting levels and
// when v is a pointer, map or slice that contains itself.
func (g *Guard) Down(v reflect.Value) (Visit, error) {
	g.depth++
	if g.depth <= g.from {
		return Visit{}, nil
	}
	return g.Track(v)
}

// DownAny is down for a decoded-style value held in an interface.
func (g *Guard) DownAny(x any) (Visit, error) {
	g.depth++
	if g.depth <= g.from {
		return Visit{}, nil
	}
	return g.Track(reflect.ValueOf(x))
}

// Up leaves the value down entered.
func (g *Guard) Up(k Visit) {
	g.depth--
	g.Untrack(k)
}

// Untrack forgets what track remembered.
func (g *Guard) Untrack(k Visit) {
	if k.p != nil {
		delete(g.onPath, k)
	}
}

// Track remembers v, a value on the way down, failing if it is there
// already or the walk is too deep.
func (g *Guard) Track(v reflect.Value) (Visit, error) {
	if g.depth > maxNesting {
		return Visit{}, errpath.Wrap(errpath.ErrLimit, g.Name()+" nests deeper than "+strconv.Itoa(maxNesting)+" levels", errTooDeep)
	}
	var k Visit
	switch v.Kind() {
	case reflect.Pointer, reflect.Map:
		if v.IsNil() {
			return Visit{}, nil
		}
		k = Visit{t: v.Type(), p: v.UnsafePointer(), n: -1}
	case reflect.Slice:
		if v.IsNil() || v.Len() == 0 {
			return Visit{}, nil
		}
		k = Visit{t: v.Type(), p: v.UnsafePointer(), n: v.Len()}
	default:
		return Visit{}, nil
	}
	if _, ok := g.onPath[k]; ok {
		return Visit{}, errpath.Wrap(errpath.ErrInvalidValue, g.Name()+" holds a cycle: this "+v.Type().String()+" contains itself", errCycle)
	}
	if g.onPath == nil {
		g.onPath = map[Visit]struct{}{}
	}
	g.onPath[k] = struct{}{}
	return k, nil
}

// EnterRoot marks an addressable root struct as on the way down, as a
// pointer to it would be, when every value is tracked.
func (g *Guard) EnterRoot(v reflect.Value) {
	if g.from > 0 || !v.CanAddr() {
		return
	}
	if g.onPath == nil {
		g.onPath = map[Visit]struct{}{}
	}
	p := v.Addr()
	g.onPath[Visit{t: p.Type(), p: p.UnsafePointer(), n: -1}] = struct{}{}
}

func (g *Guard) Name() string {
	if g.what == "" {
		return "value"
	}
	return g.what
}

// Guarded reports whether err is a guard's: a cycle or nesting too deep.
func Guarded(err error) bool {
	var e *errpath.Error
	return errors.As(err, &e) && (e.Unwrap() == errCycle || e.Unwrap() == errTooDeep)
}
