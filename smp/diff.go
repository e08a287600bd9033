package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// differ computes a patch from one document to another, the way
// Kubernetes' diffMaps does, in one of the passes below.
type differ struct {
	cfg  *config
	pass pass
	// base is, in a three-way pass, the value at the current position of
	// the third document the pass follows (see pass).
	base any
	// spared holds the deletions the delta pass wrote to re-create an
	// element (deletionOf), which merging the passes keeps.
	spared map[uintptr]bool
	// elem0 and elems are the objLists' walkers, one per depth of nested
	// lists, reused from list to list (jsonElemsAt).
	elem0     jsonElems
	elems     []*jsonElems
	elemsUsed int
}

// pass names what a differ computes. A two-way patch is one pass; a
// three-way patch is made of three, each following the third document
// alongside the two it compares.
type pass uint8

const (
	// passTwoWay: original → modified, all of it, with $setElementOrder.
	passTwoWay pass = iota
	// passDelta: current → modified, changes and additions only; it
	// follows the original, which pairElements consults.
	passDelta
	// passDeletions: original → modified, deletions only; it follows
	// current.
	passDeletions
	// passChanges: original → current, for the conflict check, key by key
	// (never a list replaced for duplicates, as Kubernetes describes
	// them); it follows modified.
	passChanges
	// passCompare: two patches compared by PatchesConflict; no order.
	passCompare
)

// ignoreChanges leaves out additions and changes (the deletions pass).
func (d *differ) ignoreChanges() bool { return d.pass == passDeletions }

// ignoreDeletions leaves out deletions (the delta pass).
func (d *differ) ignoreDeletions() bool { return d.pass == passDelta }

// setOrder writes $setElementOrder for changed merge lists.
func (d *differ) setOrder() bool { return d.pass <= passDeletions }

// keyedOnly never falls back to replacing a list or object when
// duplicates make a keyed patch lossy (the changes pass).
func (d *differ) keyedOnly() bool { return d.pass == passChanges }

// withBase reports whether the pass follows a third document (base).
func (d *differ) withBase() bool { return d.pass >= passDelta && d.pass <= passChanges }

// descend sets the base to child and returns a function restoring it.
func (d *differ) descend(child any) func() {
	saved := d.base
	d.base = child
	return func() { d.base = saved }
}

// diffObject returns the patch turning om into mm. replaceUp asks the
// caller to replace the whole object: a list inside it cannot be patched
// key by key (a list of scalars holding duplicates).
func (d *differ) diffObject(om, mm map[string]any, s slot, at *pathNode) (patch map[string]any, replaceUp bool, err error) {
	patch = map[string]any{}
	buildRetain := s.Patch.RetainKeys && d.cfg.directives.Understood(format.DirRetainKeys)
	var retain []any
	for _, k := range jsonval.SortedKeys(mm) {
		mv := mm[k]
		if buildRetain && mv != nil {
			retain = append(retain, k)
		}
		ov, ok := om[k]
		if !ok || jsonval.KindOf(ov) != jsonval.KindOf(mv) {
			if !d.ignoreChanges() {
				c := s.Child(k)
				if setWithDuplicates(mv, c) {
					return nil, true, nil // a set with a value twice: replace this object
				}
				patch[k] = d.added(mv, c)
			}
			continue
		}
		up, err := d.diffField(patch, k, ov, mv, s.Child(k), at.Field(k))
		if err != nil {
			return nil, false, err
		}
		if up {
			return nil, true, nil
		}
	}
	if !d.ignoreDeletions() {
		for k := range om {
			if _, ok := mm[k]; !ok {
				patch[k] = nil
			}
		}
	}
	if len(retain) > 0 && (len(patch) > 0 || hasAdditionalField(om, mm)) {
		patch[format.KeyRetainKeys] = retain // sorted: keys were visited in order
	}
	return patch, false, nil
}

// diffField diffs one field present in both objects with the same JSON
// type, writing into patch.
func (d *differ) diffField(patch map[string]any, k string, ov, mv any, c slot, at *pathNode) (replaceUp bool, err error) {
	if err := unknownChange(d.cfg, ov, mv, c, at); err != nil {
		return false, err
	}
	if d.withBase() {
		bm, _ := d.base.(map[string]any)
		defer d.descend(bm[k])()
	}
	switch o := ov.(type) {
	case map[string]any:
		if d.repeatReplaced(patch, k, mv, c) {
			return false, nil
		}
		if c.Kind() == reflectschema.Atomic || c.Patch.Strategy == reflectschema.Replace {
			d.replaceIfChanged(patch, k, ov, mv)
			return false, nil
		}
		sub, up, err := d.diffObject(o, mv.(map[string]any), c, at)
		if err != nil {
			return false, err
		}
		switch {
		case up && !d.ignoreChanges():
			patch[k] = replaceObject(mv.(map[string]any))
		case len(sub) > 0:
			patch[k] = sub
		}
	case []any:
		if !c.IsMergeList() {
			d.replaceIfChanged(patch, k, ov, mv)
			return false, nil
		}
		return d.diffList(patch, k, o, mv.([]any), c, at)
	default:
		d.replaceIfChanged(patch, k, ov, mv)
	}
	return false, nil
}

// repeatReplaced writes modified's value of a replace-strategy object,
// changed or not, under WithRepeatedReplaceFields, reporting whether it
// handled the field.
func (d *differ) repeatReplaced(patch map[string]any, k string, mv any, c slot) bool {
	if !d.cfg.repeatReplaced || c.Patch.Strategy != reflectschema.Replace {
		return false
	}
	if !d.ignoreChanges() {
		patch[k] = mv
	}
	return true
}

func (d *differ) replaceIfChanged(patch map[string]any, k string, ov, mv any) {
	if !d.ignoreChanges() && !jsonval.Equal(ov, mv) {
		patch[k] = mv
	}
}

// replaceObject is the patch that sets an object to m whatever it was.
func replaceObject(m map[string]any) map[string]any {
	r := make(map[string]any, len(m)+1)
	for k, v := range m {
		r[k] = v
	}
	r[format.KeyPatch] = format.PatchReplace
	return r
}

// hasAdditionalField reports whether om has a non-null field mm lacks.
func hasAdditionalField(om, mm map[string]any) bool {
	for k, v := range om {
		if _, ok := mm[k]; !ok && v != nil {
			return true
		}
	}
	return false
}
