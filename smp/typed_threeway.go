package smp

import (
	"reflect"
)

// ThreeWay returns the patch that brings current to modified while keeping
// what others changed in current since original (the last applied
// configuration): the patch [ThreeWayJSON] computes from the three values'
// JSON, found by walking the Go values. T is a struct or a pointer to one;
// a nil pointer is the empty object.
//
// A patch that changes a field current also changed since original fails
// with an *Error of kind ErrConflict naming the paths, unless
// WithOverwrite(true).
func ThreeWay[T any](original, modified, current T, opts ...Option) (Patch, error) {
	cfg := newConfig(opts)
	root, err := rootFor(reflect.TypeFor[T]())
	if err != nil {
		return Patch{}, err
	}
	o := root.value(reflect.ValueOf(any(original)))
	m := root.value(reflect.ValueOf(any(modified)))
	c := root.value(reflect.ValueOf(any(current)))
	for _, doc := range [...]struct {
		v    reflect.Value
		what string
	}{{o, "original document"}, {m, "modified document"}, {c, "current document"}} {
		if err := checkTypedLimits(doc.v, root.node, cfg.limits, doc.what); err != nil {
			return Patch{}, err
		}
	}
	if cfg.repeatReplaced {
		p, err := typedViaJSON(root, cfg, o, m, c)
		return Patch{m: p}, err
	}
	p, err := typedThreeWay(root, o, m, c, cfg)
	if err != nil {
		return Patch{}, err
	}
	return Patch{m: p}, nil
}

// typedThreeWay is threeWay on typed documents: the typed differ with the
// same flags for each half, then the JSON engine's merge of the two
// halves and its conflict check.
func typedThreeWay(root typedRoot, o, m, c reflect.Value, cfg *config) (map[string]any, error) {
	n, s := root.node, root.slot()
	sc := getScratch()
	defer putScratch(sc)
	delta := &tdiffer{differ: &differ{cfg: cfg, pass: passDelta}, scratch: sc, tbase: o}
	dp, err := delta.diffRoot(root, c, m)
	if err != nil {
		return nil, err
	}
	deletions := &tdiffer{differ: &differ{cfg: cfg, pass: passDeletions}, scratch: sc, tbase: c}
	xp, _, err := deletions.diffStruct(o, m, n, s)
	if err != nil {
		return nil, err
	}
	patch, err := delta.mergePatches(xp, dp, s, nil)
	if err != nil {
		return nil, err
	}
	if err := narrowTyped(patch, o, c, n, s); err != nil {
		return nil, err
	}
	if err := checkPreconditions(patch, cfg.preconditions); err != nil {
		return nil, err
	}
	if cfg.overwrite {
		return patch, nil
	}
	changes := &tdiffer{differ: &differ{cfg: cfg, pass: passChanges}, scratch: sc, tbase: m}
	changed, err := changes.diffRoot(root, o, c)
	if err != nil {
		return nil, err
	}
	if err := dropEmptyTyped(changed, o, n, s); err != nil {
		return nil, err
	}
	if err := checkConflicts(patch, changed, s, changes.differ); err != nil {
		return nil, err
	}
	return patch, nil
}
