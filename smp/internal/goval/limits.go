package goval

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// CheckTypedLimits applies the depth and list-length limits to a typed
// document as jsonval.CheckLimits does to its JSON, and fails on a value that
// contains itself. A marshaller's value counts as a scalar; MaxBytes does
// not apply to values in memory. The other walks over the document rely
// on this check: they meet no cycle and no nesting past the limit.
//
// Only what can break a limit is visited: the depth is not tracked when
// the type cannot nest deeper than the limit (nor hold a cycle), and then
// only the fields through which a list is reachable are, by a check
// compiled for the type when it can be (limitsfast.go). A walk that
// fails runs again in map key order, so that the error is the same every
// time.
func CheckTypedLimits(v reflect.Value, n *Node, l jsonval.Limits, what string) error {
	if !v.IsValid() {
		return nil
	}
	l = l.Bounded()
	if n.depth >= 0 && n.depth <= l.MaxDepth {
		l.MaxDepth = 0
	}
	if l.MaxListLength > 0 && !n.listReach {
		l.MaxListLength = 0
	}
	if l.MaxDepth <= 0 && l.MaxListLength <= 0 {
		return nil
	}
	if l.MaxDepth <= 0 && listsWithin(v, n, l.MaxListLength) {
		return nil
	}
	w := limitWalk{l: l, what: what, s: GetScratch(), g: jsonval.NewGuard(jsonval.TrackFrom, what)}
	defer PutScratch(w.s)
	err := w.walk(v, n, 0)
	if err != nil {
		w = limitWalk{l: l, what: what, s: w.s, g: jsonval.NewGuard(0, what), sorted: true}
		w.g.EnterRoot(v)
		if err2 := w.walk(v, n, 0); err2 != nil {
			err = err2
		}
	}
	return err
}

type limitWalk struct {
	l      jsonval.Limits
	what   string
	s      *Scratch
	g      jsonval.Guard
	sorted bool // maps in key order
}

// visits reports whether the walk must go into a value of n.
func (w *limitWalk) visits(n *Node) bool {
	if w.l.MaxDepth > 0 {
		return composite(n)
	}
	return n.listReach
}

// walk checks a value at depth, as jsonval.WalkLimits does for every object
// member that is an object or array, and for every array element.
func (w *limitWalk) walk(v reflect.Value, n *Node, depth int) error {
	if w.l.MaxDepth > 0 && depth > w.l.MaxDepth {
		return newError(errpath.ErrLimit, nil, "%s nests deeper than the limit of %d levels", w.what, w.l.MaxDepth)
	}
	if n.Marshaler {
		return nil
	}
	if n.Kind == reflectschema.Untyped {
		// Converted with the walk's guard, which knows the values above.
		e := jsonEnc{sorted: w.sorted, Guard: w.g}
		j, err := e.value(v, n, false)
		if err != nil {
			if jsonval.Guarded(err) {
				return err
			}
			return nil // reported where the value is converted
		}
		return jsonval.WalkLimits(j, w.l, w.what, depth, nil)
	}
	v, null := DerefNull(v)
	if null {
		return nil
	}
	switch n.Kind {
	case reflectschema.Struct:
		return w.structFields(v, n, depth)
	case reflectschema.Map:
		return w.mapValues(v, n, depth)
	case reflectschema.List, reflectschema.Atomic:
		return w.listItems(v, n, depth)
	}
	return nil
}

// child walks a value one level below depth: tracked for cycles once the
// walk is deep enough to need it.
func (w *limitWalk) child(v reflect.Value, n *Node, depth int) error {
	if !w.g.Tracks(depth) {
		return w.walk(v, n, depth+1)
	}
	return w.tracked(v, n, depth+1)
}

// structFields walks a struct's fields (only those that can hold a list
// when no depth limit applies).
func (w *limitWalk) structFields(v reflect.Value, n *Node, depth int) error {
	fields := n.Fields
	if w.l.MaxDepth <= 0 {
		fields = n.listFields
	}
	for _, f := range fields {
		if !w.visits(f.Node) {
			continue
		}
		if fv, ok := FieldValue(v, f); ok {
			if err := w.child(fv, f.Node, depth); err != nil {
				return under(err, errpath.FieldStep(f.Name))
			}
		}
	}
	return nil
}

// mapValues walks a map's values.
func (w *limitWalk) mapValues(v reflect.Value, n *Node, depth int) error {
	if !w.visits(n.Elem) || v.Len() == 0 {
		return nil
	}
	if w.sorted {
		return w.mapInOrder(v, n, depth)
	}
	t := v.Type()
	key, val := w.s.Take(t.Key()), w.s.Take(t.Elem())
	defer func() { w.s.Give(key); w.s.Give(val) }()
	var it reflect.MapIter
	it.Reset(v)
	for it.Next() {
		key.SetIterKey(&it)
		val.SetIterValue(&it)
		if err := w.child(val, n.Elem, depth); err != nil {
			return under(err, errpath.FieldStep(FmtKey(key)))
		}
	}
	return nil
}

// listItems checks a list's length and walks its items.
func (w *limitWalk) listItems(v reflect.Value, n *Node, depth int) error {
	if w.l.MaxListLength > 0 && v.Len() > w.l.MaxListLength {
		return newError(errpath.ErrLimit, nil, "%s has a list of %d items, more than %d", w.what, v.Len(), w.l.MaxListLength)
	}
	if !w.visits(n.Elem) {
		if v.Len() > 0 && w.l.MaxDepth > 0 && depth+1 > w.l.MaxDepth {
			return newError(errpath.ErrLimit, (*pathNode)(nil).Index(0), "%s nests deeper than the limit of %d levels", w.what, w.l.MaxDepth)
		}
		return nil
	}
	for i := range v.Len() {
		if err := w.child(v.Index(i), n.Elem, depth); err != nil {
			return under(err, errpath.IndexStep(i))
		}
	}
	return nil
}

// tracked walks a value below the guard's depth: its pointer, map or
// slice is remembered on the way down, so that a value containing itself
// fails.
func (w *limitWalk) tracked(v reflect.Value, n *Node, depth int) error {
	k, err := w.g.Track(v)
	if err != nil {
		return err
	}
	err = w.walk(v, n, depth)
	w.g.Untrack(k)
	return err
}

// mapInOrder walks a map's entries in json.Marshal's order.
func (w *limitWalk) mapInOrder(v reflect.Value, n *Node, depth int) error {
	entries, err := jsonMapEntries(v, n)
	if err != nil {
		return err
	}
	for _, e := range entries {
		var err error
		if !w.g.Tracks(depth) {
			err = w.walk(v.MapIndex(e.key), n.Elem, depth+1)
		} else {
			err = w.tracked(v.MapIndex(e.key), n.Elem, depth+1)
		}
		if err != nil {
			return under(err, errpath.FieldStep(e.text))
		}
	}
	return nil
}

// composite reports whether values of n may be JSON objects or arrays.
func composite(n *Node) bool {
	switch n.Kind {
	case reflectschema.Struct, reflectschema.Map, reflectschema.List, reflectschema.Untyped:
		return true
	case reflectschema.Atomic:
		return !n.Marshaler
	}
	return false
}

// CheckDecodedLimits is jsonval.CheckLimits for a decoded value, with the path of
// a failure made only when one happens: the first in key order.
func CheckDecodedLimits(v any, l jsonval.Limits, what string) error {
	l = l.Bounded()
	if err := decodedLimits(v, l, what, 0); err != nil {
		return jsonval.WalkLimits(v, l, what, 0, nil)
	}
	return nil
}

// decodedLimits is jsonval.WalkLimits without a path on the way down.
func decodedLimits(v any, l jsonval.Limits, what string, depth int) error {
	if l.MaxDepth > 0 && depth > l.MaxDepth {
		return newError(errpath.ErrLimit, nil, "%s nests deeper than the limit of %d levels", what, l.MaxDepth)
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			switch e.(type) {
			case map[string]any, []any:
				if err := decodedLimits(e, l, what, depth+1); err != nil {
					return under(err, errpath.FieldStep(k))
				}
			}
		}
	case []any:
		if l.MaxListLength > 0 && len(v) > l.MaxListLength {
			return newError(errpath.ErrLimit, nil, "%s has a list of %d items, more than %d", what, len(v), l.MaxListLength)
		}
		for i, e := range v {
			if err := decodedLimits(e, l, what, depth+1); err != nil {
				return under(err, errpath.IndexStep(i))
			}
		}
	}
	return nil
}
