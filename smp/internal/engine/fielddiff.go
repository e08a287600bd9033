package engine

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// One field diffed, written once for every representation: a ValuePair
// reads the two values an object holds under one name (decoded JSON here,
// jsonField; Go values in typedwalk) and DiffFieldOf decides what the
// patch says of them.

// Shape is what the field diff tells values apart by: values of two
// shapes are written whole (addField), and among scalars a change is a
// change whatever their JSON types.
type Shape uint8

// The shapes of values.
const (
	ShapeNull   Shape = iota // null
	ShapeScalar              // a string, number or boolean
	ShapeObject              // an object: a struct or a map
	ShapeList                // an array
)

// valueShape is a decoded value's shape.
func valueShape(v any) Shape {
	switch v.(type) {
	case nil:
		return ShapeNull
	case map[string]any:
		return ShapeObject
	case []any:
		return ShapeList
	}
	return ShapeScalar
}

// A ModifiedValue reads modified's value at one position.
type ModifiedValue interface {
	// Modified is modified's value as decoded JSON.
	Modified() (any, error)
}

// A Change reads an original's value and modified's at one position.
type Change interface {
	ModifiedValue
	// Equal reports whether the two values encode to the same JSON.
	Equal() bool
}

// A ValuePair reads the values two objects hold under one name, for
// DiffFieldOf; B is how the representation holds the document a
// three-way pass follows (Differ.Base).
type ValuePair[B any] interface {
	Change
	// Shapes are the shapes of the original's value and modified's.
	Shapes() (o, m Shape)
	// BaseIn is the value under the name of base, the followed document's
	// object holding it (the zero B when absent).
	BaseIn(base B) B
	// DiffObject diffs two objects (DiffObjectOf): sub empty when they
	// agree; replaceUp as DiffObjectOf's.
	DiffObject(s *slot) (sub map[string]any, replaceUp bool, err error)
	// DiffList writes into patch under k what turns one merge list into
	// the other (Differ.DiffList).
	DiffList(patch *map[string]any, k string, s *slot) (replaceUp bool, err error)
	// At is the value's path, for errors; nil where the caller names it.
	At() *pathNode
}

// Base is the value a three-way pass follows (see Pass) at the position
// being diffed, in one representation: decoded JSON for the JSON walkers
// (Differ.Base), Go values for the typed ones.
type Base[B any] struct{ At B }

// Descend moves the base to child and returns the one to restore.
func (b *Base[B]) Descend(child B) (saved B) {
	saved, b.At = b.At, child
	return saved
}

// Restore puts back a base Descend returned.
func (b *Base[B]) Restore(saved B) { b.At = saved }

// DiffFieldOf writes into patch what turns the original's value under k
// into modified's, both objects holding k, at slot c; base is the
// followed document's, descended into k for the field's diff. replaceUp
// asks the caller to replace the whole object (addField, DiffObjectOf).
func DiffFieldOf[B any, V ValuePair[B]](d *Differ, base *Base[B], v V, patch *map[string]any, k string, c *slot) (replaceUp bool, err error) {
	os, ms := v.Shapes()
	if os != ms {
		return AddFieldOf(d, v, patch, k, c)
	}
	switch os {
	case ShapeNull:
		return false, nil
	case ShapeObject, ShapeList:
		if c.Undeclared && !d.Cfg.MergeUnknown && !v.Equal() {
			return false, unknownChange(os, v.At())
		}
	}
	descend := d.WithBase()
	var saved B
	if descend {
		saved = base.Descend(v.BaseIn(base.At))
	}
	switch {
	case os == ShapeObject:
		err = diffObjectField(d, v, patch, k, c)
	case os == ShapeList && c.IsMergeList():
		replaceUp, err = v.DiffList(patch, k, c)
	default:
		err = ReplaceIfChanged(d, v, patch, k)
	}
	if descend {
		base.Restore(saved)
	}
	return replaceUp, err
}

// diffObjectField is DiffFieldOf for two objects: replaced whole by their
// strategy (or every time, RepeatReplaced), else diffed key by key.
func diffObjectField[B any, V ValuePair[B]](d *Differ, v V, patch *map[string]any, k string, c *slot) error {
	replace := c.Patch.Strategy == reflectschema.Replace
	if replace && d.Cfg.RepeatReplaced {
		return writeOf(d, v, patch, k, true)
	}
	if replace || c.Kind() == reflectschema.Atomic {
		return ReplaceIfChanged(d, v, patch, k)
	}
	sub, up, err := v.DiffObject(c)
	switch {
	case err != nil:
		return err
	case up:
		return Write(d, replacedObject[V]{v}, patch, k)
	case len(sub) > 0:
		Put(patch, k, sub)
	}
	return nil
}

// ReplaceIfChanged writes modified's value under k when it differs from
// the original's.
func ReplaceIfChanged[C Change](d *Differ, c C, patch *map[string]any, k string) error {
	return writeOf(d, c, patch, k, false)
}

// writeOf writes modified's value under k, unless the pass leaves out
// changes, or, unless always, the values are equal.
func writeOf[C Change](d *Differ, c C, patch *map[string]any, k string, always bool) error {
	if d.IgnoreChanges() || !always && c.Equal() {
		return nil
	}
	mv, err := c.Modified()
	if err != nil {
		return err
	}
	Put(patch, k, mv)
	return nil
}

// Write writes modified's value under k, unless the pass leaves out
// changes.
func Write[C ModifiedValue](d *Differ, c C, patch *map[string]any, k string) error {
	return writeOf(d, unequal[C]{c}, patch, k, true)
}

// unequal is a value written whatever the original holds.
type unequal[C ModifiedValue] struct{ c C }

func (u unequal[C]) Equal() bool { return false }

func (u unequal[C]) Modified() (any, error) { return u.c.Modified() }

// replacedObject is modified's object replaced whole ($patch: replace).
type replacedObject[C ModifiedValue] struct{ c C }

func (r replacedObject[C]) Modified() (any, error) {
	mv, err := r.c.Modified()
	if err != nil {
		return nil, err
	}
	return ReplaceObject(mv.(map[string]any)), nil
}

// AddFieldOf is addField of modified's value, read only when the pass
// writes additions.
func AddFieldOf[C ModifiedValue](d *Differ, c C, patch *map[string]any, k string, s *slot) (replaceUp bool, err error) {
	if d.IgnoreChanges() {
		return false, nil
	}
	mv, err := c.Modified()
	if err != nil {
		return false, err
	}
	return d.addField(patch, k, mv, *s), nil
}

// decoded is a decoded value modified holds, as a ModifiedValue.
type decoded struct{ v any }

func (d decoded) Modified() (any, error) { return d.v, nil }

// DiffJSONField is DiffFieldOf for decoded values whose errors the caller
// names.
func (d *Differ) DiffJSONField(patch *map[string]any, k string, ov, mv any, c *slot) (bool, error) {
	return DiffFieldOf(d, &d.Base, jsonField{d: d, ov: ov, mv: mv, k: k}, patch, k, c)
}

// jsonField is two decoded values under one name as a ValuePair.
type jsonField struct {
	d      *Differ
	ov, mv any
	k      string
	// parent is the path of the objects holding k, when named; the
	// field's own is made only when an object, a list or an error needs it.
	parent *pathNode
	named  bool
}

func (v jsonField) Shapes() (o, m Shape) { return valueShape(v.ov), valueShape(v.mv) }

func (v jsonField) Equal() bool { return jsonval.Equal(v.ov, v.mv) }

func (v jsonField) Modified() (any, error) { return v.mv, nil }

func (v jsonField) BaseIn(base any) any {
	bm, _ := base.(map[string]any)
	return bm[v.k]
}

func (v jsonField) DiffObject(s *slot) (map[string]any, bool, error) {
	return v.d.DiffObject(v.ov.(map[string]any), v.mv.(map[string]any), *s, v.At())
}

func (v jsonField) DiffList(patch *map[string]any, k string, s *slot) (bool, error) {
	if *patch == nil {
		*patch = map[string]any{}
	}
	return v.d.DiffList(*patch, k, v.ov.([]any), v.mv.([]any), *s, v.At())
}

func (v jsonField) At() *pathNode {
	if !v.named {
		return nil
	}
	return v.parent.Field(v.k)
}
