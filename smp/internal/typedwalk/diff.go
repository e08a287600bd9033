package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// tdiffer is the typed twin of engine.Differ: the same rules (and the same flags,
// so three-way patches reuse it) applied to Go values.
type tdiffer struct {
	*engine.Differ
	*goval.Scratch
	// base is, with WithBase, the followed document's value at the
	// position being diffed (dereferenced; invalid when absent or null):
	// the typed form of Differ.Base.
	base  engine.Base[reflect.Value]
	pairs *pairStack // diffStruct's and diffMap's readers
	// equalBelow, set for the next diffStruct, says the structs' memory
	// is equal below that offset (Scratch.SameMemoryUpTo).
	equalBelow uintptr
	boxes      jsonval.Boxes // the patch's strings
}

// newTDiffer returns a typed differ of the pass, made in one allocation
// with its engine.Differ; the caller gives back its pairs (pairStacks).
func newTDiffer(cfg *config, pass engine.Pass, sc *goval.Scratch) *tdiffer {
	both := &struct {
		t tdiffer
		e engine.Differ
	}{e: engine.Differ{Cfg: cfg, Pass: pass}}
	both.t = tdiffer{Differ: &both.e, Scratch: sc, pairs: pairStacks.Get().(*pairStack)}
	return &both.t
}

// diffRoot diffs two root structs (invalid for the empty object). When a
// list forces it, the patch replaces the whole object.
func (d *tdiffer) diffRoot(root goval.Root, o, m reflect.Value) (map[string]any, error) {
	p, up, err := d.diffStruct(o, m, root.Node, root.Slot())
	if err != nil {
		return nil, err
	}
	if up {
		mm, err := structJSON(m, root.Node)
		if err != nil {
			return nil, err
		}
		return engine.ReplaceObject(mm), nil
	}
	if p == nil {
		p = map[string]any{}
	}
	return p, nil
}

// structJSON converts a root struct, the empty object when invalid.
func structJSON(v reflect.Value, n *goval.Node) (map[string]any, error) {
	if !v.IsValid() {
		return map[string]any{}, nil
	}
	j, err := goval.ToJSONValue(v, n, false)
	if err != nil {
		return nil, err
	}
	return j.(map[string]any), nil
}

// memorySkips reports whether values that are equal in memory need no
// diff: they yield nothing, unless repeated keys are paired (KeyedOnly)
// with elements that differ.
func (d *tdiffer) memorySkips() bool { return !d.KeyedOnly() }

// put sets a patch key, making the patch on first use.
func put(p *map[string]any, k string, v any) { engine.Put(p, k, v) }

// isNullValue reports whether a value encodes as null.
func isNullValue(v reflect.Value, n *goval.Node) bool {
	if n.Marshaler || n.Kind == reflectschema.Untyped {
		j, err := goval.ToJSONValue(v, n, false)
		return err == nil && j == nil
	}
	_, null := goval.DerefNull(v)
	return null
}

// diffValue writes into patch what turns v's original value under k into
// modified's (engine.DiffFieldOf); the caller sets v's values, position,
// and field or key. Objects equal in memory need no diff; marshallers and
// untyped values are diffed by their JSON, once their Go values differ.
func (d *tdiffer) diffValue(patch *map[string]any, k string, v *goValues) (bool, error) {
	n := v.pos.Node
	if n.Marshaler || n.Kind == reflectschema.Untyped {
		if goval.DeepEqualGo(v.ov, v.mv, 0) {
			return false, nil
		}
		oj, mj, err := goval.PairJSON(v.ov, v.mv, n)
		if err != nil {
			return false, err
		}
		return d.DiffJSONField(patch, k, oj, mj, &v.pos.Slot)
	}
	v.od, v.onull = goval.DerefNull(v.ov)
	v.md, v.mnull = goval.DerefNull(v.mv)
	v.equalBelow = 0
	if !v.onull && !v.mnull && (n.Kind == reflectschema.Struct || n.Kind == reflectschema.Map) &&
		v.pos.Slot.Patch.Strategy != reflectschema.Replace && d.memorySkips() {
		// (an object replaced whole is compared by Equal)
		if n.Kind == reflectschema.Map {
			if d.SameMemory(v.od, v.md, n) {
				return false, nil
			}
		} else if same, below := d.SameMemoryUpTo(v.od, v.md, n); same {
			return false, nil
		} else {
			v.equalBelow = below
		}
	}
	return engine.DiffFieldOf(d.Differ, &d.base, v, patch, k, &v.pos.Slot)
}

// goValues is two Go values under one name, a struct's field (f) or a
// map's entry (key), as an engine.ValuePair.
type goValues struct {
	d            *tdiffer
	ov, mv       reflect.Value // as the objects hold them
	od, md       reflect.Value // dereferenced (diffValue)
	onull, mnull bool
	equalBelow   uintptr // of structs, as tdiffer.equalBelow
	pos          *goval.Pos
	f            *goval.Field  // the field, or nil for a map's entry
	key          reflect.Value // the entry's key
}

func (v *goValues) Shapes() (o, m engine.Shape) {
	return goShape(v.onull, v.pos.Node), goShape(v.mnull, v.pos.Node)
}

// goShape is the shape of a value of node n, neither a marshaller nor
// untyped.
func goShape(null bool, n *goval.Node) engine.Shape {
	switch {
	case null:
		return engine.ShapeNull
	case n.Kind == reflectschema.Struct || n.Kind == reflectschema.Map:
		return engine.ShapeObject
	case n.Kind == reflectschema.List || n.Kind == reflectschema.Atomic:
		return engine.ShapeList
	}
	return engine.ShapeScalar
}

func (v *goValues) Equal() bool { return v.d.EqualQuoted(v.ov, v.mv, v.pos.Node, v.pos.Quoted) }

func (v *goValues) Modified() (any, error) {
	return goval.ToJSONValue(v.mv, v.pos.Node, v.pos.Quoted)
}

func (v *goValues) BaseIn(base reflect.Value) reflect.Value {
	if v.f != nil {
		return baseChild(base, v.f)
	}
	return baseEntry(base, v.key)
}

func (v *goValues) DiffObject(s *slot) (map[string]any, bool, error) {
	d, n := v.d, v.pos.Node
	if n.Kind == reflectschema.Struct {
		d.equalBelow = v.equalBelow
		return d.diffStruct(v.od, v.md, n, *s)
	}
	return d.diffMap(v.od, v.md, n, *s)
}

func (v *goValues) DiffList(patch *map[string]any, k string, s *slot) (bool, error) {
	return v.d.diffList(patch, k, v.od, v.md, v.pos.Node, *s)
}

// At is nil: the pairs name a field's errors (under).
func (v *goValues) At() *pathNode { return nil }
