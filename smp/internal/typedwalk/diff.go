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
	// tbase is, with WithBase, the original's value at the position being
	// diffed (dereferenced; invalid when absent or null): the typed form of
	// Differ.Base.
	tbase reflect.Value
	pairs *pairStack // diffStruct's and diffMap's readers
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

// diffValue is the body of Differ.DiffObject's loop for a key both objects hold,
// at position p: it writes into patch what turns ov into mv.
func (d *tdiffer) diffValue(patch *map[string]any, k string, ov, mv reflect.Value, p goval.Pos) (bool, error) {
	n, c, quoted := p.Node, p.Slot, p.Quoted
	if n.Marshaler || n.Kind == reflectschema.Untyped {
		if goval.DeepEqualGo(ov, mv, 0) {
			return false, nil
		}
		oj, mj, err := goval.PairJSON(ov, mv, n)
		if err != nil {
			return false, err
		}
		return d.diffJSONValue(patch, k, oj, mj, c)
	}
	od, onull := goval.DerefNull(ov)
	md, mnull := goval.DerefNull(mv)
	if onull || mnull {
		if onull != mnull && !d.IgnoreChanges() {
			j, err := goval.ToJSONValue(mv, n, quoted)
			if err != nil {
				return false, err
			}
			return d.AddField(patch, k, j, c), nil
		}
		return false, nil
	}
	switch n.Kind {
	case reflectschema.Struct, reflectschema.Map:
		if c.Patch.Strategy == reflectschema.Replace {
			return false, d.replaceIfChanged(patch, k, ov, mv, n, quoted)
		}
		var sub map[string]any
		var up bool
		var err error
		if d.memorySkips() && d.SameMemory(od, md, n) {
			return false, nil
		}
		if n.Kind == reflectschema.Struct {
			sub, up, err = d.diffStruct(od, md, n, c)
		} else {
			sub, up, err = d.diffMap(od, md, n, c)
		}
		switch {
		case err != nil:
			return false, err
		case up && !d.IgnoreChanges():
			j, err := goval.ToJSONValue(md, n, false)
			if err != nil {
				return false, err
			}
			put(patch, k, engine.ReplaceObject(j.(map[string]any)))
		case len(sub) > 0:
			put(patch, k, sub)
		}
		return false, nil
	case reflectschema.List:
		if !c.IsMergeList() {
			return false, d.replaceIfChanged(patch, k, ov, mv, n, quoted)
		}
		return d.diffList(patch, k, od, md, n, c)
	}
	return false, d.replaceIfChanged(patch, k, ov, mv, n, quoted)
}

// replaceIfChanged sets k to mv when it differs from ov.
func (d *tdiffer) replaceIfChanged(patch *map[string]any, k string, ov, mv reflect.Value, n *goval.Node, quoted bool) error {
	if d.IgnoreChanges() || d.EqualQuoted(ov, mv, n, quoted) {
		return nil
	}
	j, err := goval.ToJSONValue(mv, n, quoted)
	if err != nil {
		return err
	}
	put(patch, k, j)
	return nil
}

// diffJSONValue is diffValue for values already in decoded form: the body
// of Differ.DiffObject's loop, for marshallers and untyped values.
func (d *tdiffer) diffJSONValue(patch *map[string]any, k string, ov, mv any, c slot) (bool, error) {
	if jsonval.KindOf(ov) != jsonval.KindOf(mv) {
		return d.AddField(patch, k, mv, c), nil
	}
	switch o := ov.(type) {
	case map[string]any:
		if c.Kind() == reflectschema.Atomic || c.Patch.Strategy == reflectschema.Replace {
			d.ReplaceIfChanged(patch, k, ov, mv)
			return false, nil
		}
		sub, up, err := d.DiffObject(o, mv.(map[string]any), c, nil)
		switch {
		case err != nil:
			return false, err
		case up && !d.IgnoreChanges():
			put(patch, k, engine.ReplaceObject(mv.(map[string]any)))
		case len(sub) > 0:
			put(patch, k, sub)
		}
		return false, nil
	case []any:
		if !c.IsMergeList() {
			d.ReplaceIfChanged(patch, k, ov, mv)
			return false, nil
		}
		if *patch == nil {
			*patch = map[string]any{}
		}
		return d.Differ.DiffList(*patch, k, o, mv.([]any), c, nil)
	}
	d.ReplaceIfChanged(patch, k, ov, mv)
	return false, nil
}
