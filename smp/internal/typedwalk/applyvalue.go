package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// goValue is engine.MergeValueOf's sink of a Go value: the merge goes
// into dv, a settable zero value at position p; cv is the live value,
// invalid when absent. Structs and maps with string keys merge in Go,
// other objects and lists as JSON where no Go merge reads them.
type goValue struct {
	a      *tapplier
	dv, cv reflect.Value
	p      goval.Pos
}

// Leaf stores v as decoding it would; a failure is soft.
func (v goValue) Leaf(pv any, at *pathNode) (any, bool, error) {
	return nil, true, v.a.soft(goval.FromJSONValue(v.dv, pv, v.p.Node, v.p.Quoted, at))
}

// Undeclared finds no live value: a Go value never sits where the schema
// declares no field, since decoding drops such a key.
func (v goValue) Undeclared() (goValue, any, bool) { return v, nil, false }

func (v goValue) Object(pm map[string]any, s slot, replace bool, at *pathNode) (any, bool, error) {
	n, present := v.p.Node, v.cv.IsValid()
	if n.Kind == reflectschema.Struct || n.StringKeys() {
		var cs reflect.Value // the live object merged into
		if d, null := goval.DerefNull(v.cv); present && !null && !replace {
			cs = d
		}
		keep, err := v.a.mergeObj(goval.AllocChain(v.dv), cs, pm, n, s, at)
		return nil, keep, err
	}
	var om map[string]any
	if present {
		j, err := goval.DocJSON(v.cv, n, v.p.Quoted)
		if err != nil {
			return nil, false, underPath(err, at)
		}
		om, _ = j.(map[string]any)
	}
	m, keep, err := v.a.MergeObject(om, pm, s, replace, at)
	if err != nil || !keep {
		return nil, false, err
	}
	return v.Leaf(m, at)
}

func (v goValue) List(in engine.ListInput, s slot, at *pathNode) (any, bool, error) {
	var list reflect.Value
	if v.cv.IsValid() {
		if l, null := goval.DerefNull(v.cv); !null {
			list, in.OrigPresent = l, true
		}
	}
	return nil, true, v.a.mergeListTyped(v.dv, list, in, v.p.Node, s, at)
}
