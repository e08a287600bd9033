package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// tapplier applies patches to typed values: struct by struct where the
// patch leads, through the JSON applier for the values it changes.
type tapplier struct {
	*engine.Applier
	goval.Copier
	// decodeErr is the first failure to store a merged value in Go (what
	// json.Unmarshal of ApplyJSON's result would report). The merge goes
	// on, so that an error of the patch itself, which ApplyJSON reports
	// first, wins.
	decodeErr error
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

// mergeStruct is mergeObject for a struct: it fills dst (a settable zero
// struct) with the merge of patch object pm into cur (invalid when absent
// or null, or replaced). Fields the patch does not name are deep-copied
// from cur.
func (a *tapplier) mergeStruct(dst, cur reflect.Value, pm map[string]any, n *goval.Node, s slot, at *pathNode) (bool, error) {
	op, cur, err := a.openPatch(pm, cur, s, at)
	if err != nil || op.deleted {
		return false, err
	}
	p, keep := op.p, op.keep
	for _, name := range p.Names {
		if f := n.Schema.Field(name); f != nil && f.Name != name {
			// A key naming a field in another case: json.Unmarshal
			// decides between the two spellings, so merge as JSON.
			return a.objectAsJSON(dst, cur, pm, n, s, at)
		}
	}
	if cur.IsValid() && a.Share && cur.Type() == dst.Type() && !viaPointer(n) {
		// The whole struct, unexported fields too; then the fields the
		// patch names or $retainKeys drops start from zero, as below.
		dst.Set(cur)
		op.zeroReplaced(dst, n)
	} else if cur.IsValid() {
		copied := op.copied()
		for _, f := range n.Fields {
			if !copied(f.Name) {
				continue
			}
			if fv, ok := goval.FieldValue(cur, f); ok {
				if err := a.CopyField(dst, fv, f); err != nil {
					a.soft(underPath(err, at))
				}
			}
		}
	}
	// As in mergeObject, the least name's error wins.
	m := structMerge{dst: dst, cur: cur, pm: pm, p: p, n: n, s: s, keep: keep, at: at}
	var first errpath.KeyedErr
	for _, name := range p.Names {
		first.Keep(name, a.mergeName(&m, name))
	}
	return first.Err == nil, first.Err
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

// structMerge is one struct being merged: the destination (a settable
// zero struct), the current value (invalid when absent), the patch object
// sorted out, and the fields $retainKeys keeps (nil: all).
type structMerge struct {
	dst, cur reflect.Value
	pm       map[string]any
	p        engine.ObjectPatch
	n        *goval.Node
	s        slot
	keep     map[string]bool
	at       *pathNode
}

// openedPatch is a patch object's directives read as MergeObject reads
// them, in its order: $patch, $retainKeys, then its keys sorted out.
type openedPatch struct {
	deleted bool            // $patch: delete
	keep    map[string]bool // the fields $retainKeys keeps (nil: all)
	p       engine.ObjectPatch
}

// copied returns whether a live field or entry of that name is copied
// as it is: the patch does not name it and $retainKeys keeps it.
func (op openedPatch) copied() func(name string) bool {
	named := make(map[string]bool, len(op.p.Names))
	for _, name := range op.p.Names {
		named[name] = true
	}
	return func(name string) bool { return !named[name] && (op.keep == nil || op.keep[name]) }
}

// zeroReplaced zeroes the fields of dst, a struct of n's copied whole,
// that are not copied as they are: those the patch names and those
// $retainKeys drops.
func (op openedPatch) zeroReplaced(dst reflect.Value, n *goval.Node) {
	if op.keep != nil {
		copied := op.copied()
		for _, f := range n.Fields {
			if !copied(f.Name) {
				dst.FieldByIndex(f.Index).SetZero()
			}
		}
		return
	}
	for _, name := range op.p.Names {
		if f := n.ByName[name]; f != nil {
			dst.FieldByIndex(f.Index).SetZero()
		}
	}
}

// openPatch reads patch object pm's directives (an error is the one
// MergeObject reports first) and returns the live object cur merges into:
// invalid where the patch replaces it.
func (a *tapplier) openPatch(pm map[string]any, cur reflect.Value, s slot, at *pathNode) (op openedPatch, into reflect.Value, err error) {
	into = cur
	if raw, ok := pm[format.KeyPatch]; ok {
		d, err := format.PatchDirective(raw, false, at)
		if err != nil || d == format.PatchDelete {
			return openedPatch{deleted: true}, into, err
		}
		into = reflect.Value{} // $patch: replace
	}
	if op.keep, err = a.retained(pm, s, at); err != nil {
		return op, into, err
	}
	op.p, err = a.SplitObjectPatch(pm, s, at, make([]string, 0, len(pm)))
	return op, into, err
}

// retained validates a $retainKeys directive as mergeObject does and
// returns the fields it keeps (nil without one).
func (a *tapplier) retained(pm map[string]any, s slot, at *pathNode) (map[string]bool, error) {
	raw, ok := pm[format.KeyRetainKeys]
	if !ok || !a.Cfg.Directives.Understood(format.DirRetainKeys) {
		return nil, nil
	}
	if err := a.RetainKeys(map[string]any{}, pm, s, at); err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, v := range raw.([]any) {
		keep[v.(string)] = true
	}
	return keep, nil
}

// mergeName is the body of mergeObject's loop for one name.
func (a *tapplier) mergeName(m *structMerge, name string) error {
	dst, cur, pm, p, n, s, keep, at := m.dst, m.cur, m.pm, m.p, m.n, m.s, m.keep, m.at
	cat := at.Field(name)
	pv, inPatch := pm[name]
	f := n.ByName[name]
	if f == nil {
		// Not a field: the JSON result would hold it and decoding would
		// drop it, but the patch value must still be valid.
		if inPatch && pv != nil {
			_, _, err := a.MergeValue(nil, false, pv, s.Child(name), cat)
			return err
		}
		return nil
	}
	if inPatch && pv == nil {
		return nil // deleted: stays zero
	}
	var cv reflect.Value
	present := false
	if cur.IsValid() && (keep == nil || keep[name]) {
		cv, present = goval.FieldValue(cur, f)
	}
	directed := p.Directed(name)
	if !directed {
		return a.mergeField(dst, f, cv, present, pv, cat)
	}
	in, err := p.ListInput(pm, name, at)
	if err != nil {
		return err
	}
	var list reflect.Value
	if present {
		if l, null := goval.DerefNull(cv); !null {
			list, in.OrigPresent = l, true
		}
	}
	if !in.OrigPresent && !inPatch {
		if present {
			// A null list stays null, but decoding the key would make
			// the embedded structs on its way.
			_, err := goval.SettableField(dst, f)
			return underPath(err, cat)
		}
		return nil
	}
	return a.intoField(dst, f, cat, func(fv reflect.Value) (bool, error) {
		return true, a.mergeListTyped(fv, list, in, f.Node, f.Slot, cat)
	})
}

// intoField runs fill on field f of dst. A field behind an embedded
// pointer is filled in a temporary first, so that a value the merge drops
// makes no embedded struct.
func (a *tapplier) intoField(dst reflect.Value, f *goval.Field, at *pathNode, fill func(reflect.Value) (bool, error)) error {
	if !f.ViaPtr {
		fv := dst.FieldByIndex(f.Index)
		keep, err := fill(fv)
		if err == nil && !keep {
			fv.SetZero()
		}
		return err
	}
	tmp := reflect.New(f.Meta.GoType).Elem()
	keep, err := fill(tmp)
	if err != nil || !keep {
		return err
	}
	fv, err := goval.SettableField(dst, f)
	if err != nil {
		return underPath(err, at)
	}
	fv.Set(tmp)
	return nil
}

// mergeField merges patch value pv (not null) into field f.
func (a *tapplier) mergeField(dst reflect.Value, f *goval.Field, cv reflect.Value, present bool, pv any, at *pathNode) error {
	if !present {
		cv = reflect.Value{}
	}
	return a.intoField(dst, f, at, func(fv reflect.Value) (bool, error) {
		return a.mergeValueTyped(fv, cv, pv, f.Pos, at)
	})
}

// mergeValueTyped is Applier.MergeValue into dv, a settable zero value, at
// position p; cv is the current value, invalid when absent. Structs and
// maps with string keys merge in Go, other values through the JSON
// applier on their JSON.
// keep is false when the value is to be removed.
func (a *tapplier) mergeValueTyped(dv, cv reflect.Value, pv any, p goval.Pos, at *pathNode) (bool, error) {
	n, c, quoted, present := p.Node, p.Slot, p.Quoted, cv.IsValid()
	if pv == nil {
		return false, nil
	}
	if err := a.CheckType(pv, c, at); err != nil {
		return false, err
	}
	if c.Kind() == reflectschema.Atomic {
		return true, a.soft(goval.FromJSONValue(dv, pv, n, quoted, at))
	}
	switch pv := pv.(type) {
	case map[string]any:
		if n.Kind == reflectschema.Struct || n.StringKeys() {
			var cs reflect.Value // the live object merged into
			if d, null := goval.DerefNull(cv); present && !null && c.Patch.Strategy != reflectschema.Replace {
				cs = d
			}
			return a.mergeObj(goval.AllocChain(dv), cs, pv, n, c, at)
		}
		var om map[string]any
		if present {
			j, err := goval.DocJSON(cv, n, quoted)
			if err != nil {
				return false, underPath(err, at)
			}
			om, _ = j.(map[string]any)
		}
		v, keep, err := a.MergeObject(om, pv, c, c.Patch.Strategy == reflectschema.Replace, at)
		if err != nil || !keep {
			return false, err
		}
		return true, a.soft(goval.FromJSONValue(dv, v, n, quoted, at))
	case []any:
		if c.Kind() == reflectschema.Untyped || !c.IsMergeList() {
			l, err := a.FinalizeList(pv, c, at)
			if err != nil {
				return false, err
			}
			return true, a.soft(goval.FromJSONValue(dv, l, n, quoted, at))
		}
		in := engine.ListInput{Patch: pv, InPatch: true}
		var list reflect.Value
		if present {
			if l, null := goval.DerefNull(cv); !null {
				list, in.OrigPresent = l, true
			}
		}
		return true, a.mergeListTyped(dv, list, in, n, c, at)
	}
	return true, a.soft(goval.FromJSONValue(dv, pv, n, quoted, at))
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
