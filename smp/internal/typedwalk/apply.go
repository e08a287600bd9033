package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// tapplier applies patches to typed values: struct by struct where the
// patch leads, through the JSON applier for the values it changes.
type tapplier struct {
	engine.Applier
	goval.Copier
	// decodeErr is the first failure to store a merged value in Go (what
	// json.Unmarshal of ApplyJSON's result would report). The merge goes
	// on, so that an error of the patch itself, which ApplyJSON reports
	// first, wins.
	decodeErr error
	// fields holds the named fields of the structs being merged
	// (structObj), outermost first, in fieldBuf while they fit.
	fields   []*goval.Field
	fieldBuf [16]*goval.Field
	// items holds the live lists of the list merges under way, one per
	// level of nesting, while they fit (newItems); objs the structs.
	items  [2]objItems
	nitems int
	objs   [6]structObj
	nobjs  int
}

// soft records a decoding failure and lets the merge go on.
func (a *tapplier) soft(err error) error {
	if err != nil && (a.decodeErr == nil || errpath.Compare(errPath(err), errPath(a.decodeErr)) < 0) {
		a.decodeErr = err
	}
	return nil
}

// errPath is err's path, nil when it has none.
func errPath(err error) errpath.Path {
	if e, ok := err.(*errpath.Error); ok {
		return e.Path
	}
	return nil
}

// mergeStruct is MergeObject for a struct: it fills dst (a settable zero
// struct) with the merge of patch object pm into cur (invalid when absent
// or null, or replaced). Fields the patch does not name are deep-copied
// from cur.
func (a *tapplier) mergeStruct(dst, cur reflect.Value, pm map[string]any, n *goval.Node, s slot, at *pathNode) (bool, error) {
	base := len(a.fields)
	o := a.newStructObj()
	*o = structObj{a: a, dst: dst, cur: cur, n: n}
	_, keep, err := engine.MergeObjectOf(&a.Applier, o, pm, s, false, at)
	a.fields = a.fields[:base]
	a.nobjs--
	return keep, err
}

// newStructObj returns a structObj for a struct's merge, reused from
// a.objs at its level of nesting while it fits; mergeStruct gives it back.
func (a *tapplier) newStructObj() *structObj {
	a.nobjs++
	if a.nobjs > len(a.objs) {
		return new(structObj)
	}
	return &a.objs[a.nobjs-1]
}

// viaPointer reports whether a field of n is reached through an
// embedded pointer, which a struct copied whole would share.
func viaPointer(n *goval.Node) bool {
	for _, f := range n.Fields {
		if f.ViaPtr {
			return true
		}
	}
	return false
}

// mergeObj is mergeStruct or mergeMap, by n's kind.
func (a *tapplier) mergeObj(dst, cur reflect.Value, pm map[string]any, n *goval.Node, s slot, at *pathNode) (bool, error) {
	if n.Kind == reflectschema.Struct {
		return a.mergeStruct(dst, cur, pm, n, s, at)
	}
	return a.mergeMap(dst, cur, pm, n, s, at)
}

// objectAsJSON merges a patch into a struct or a map entirely as JSON.
func (a *tapplier) objectAsJSON(dst, cur reflect.Value, pm map[string]any, n *goval.Node, s slot, at *pathNode) (bool, error) {
	var om map[string]any
	if cur.IsValid() {
		j, err := goval.DocJSON(cur, n, false)
		if err != nil {
			return false, underPath(err, at)
		}
		om, _ = j.(map[string]any)
	}
	v, keep, err := a.MergeObject(om, pm, s, false, at)
	if err != nil || !keep {
		return false, err
	}
	return true, a.soft(goval.FromJSONValue(dst, v, n, false, at))
}
