package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// A three-way patch brings current to modified while keeping what others
// changed in current since original: the delta from current to modified
// without deletions, plus the deletions from original to modified. Unless
// overwriting, a patch that changes a field current also changed
// differently is a conflict. Each walker runs the same passes on its own
// documents (threeWayDocs), each named (threeWayDoc); runThreeWay joins
// them.

// threeWayDoc names one document of a three-way patch.
type threeWayDoc uint8

const (
	docOriginal threeWayDoc = iota
	docModified
	docCurrent
)

// threeWayPass is one pass of a three-way patch: from one document to
// another, following the third (the differ's base).
type threeWayPass struct {
	pass           pass
	from, to, base threeWayDoc
}

var (
	deltaPass     = threeWayPass{passDelta, docCurrent, docModified, docOriginal}
	deletionsPass = threeWayPass{passDeletions, docOriginal, docModified, docCurrent}
	changesPass   = threeWayPass{passChanges, docOriginal, docCurrent, docModified}
)

// threeWayDocs is one walker's three documents.
type threeWayDocs interface {
	// diff runs a pass; a patch that must replace the root writes the
	// to document whole. d is the differ that ran it.
	diff(p threeWayPass) (patch map[string]any, d *differ, err error)
	// narrow drops the deletions of fields that original and current
	// both hold empty or null (narrowDeletions).
	narrow(patch map[string]any) error
	// dropEmpty drops the changes from original to current that are only
	// nil becoming empty (dropEmptyChanges).
	dropEmpty(changed map[string]any) error
}

// runThreeWay makes the three-way patch of docs at root slot s.
func runThreeWay(docs threeWayDocs, s slot, cfg *config) (map[string]any, error) {
	dp, delta, err := docs.diff(deltaPass)
	if err != nil {
		return nil, err
	}
	xp, _, err := docs.diff(deletionsPass)
	if err != nil {
		return nil, err
	}
	patch, err := delta.mergePatches(xp, dp, s, nil)
	if err != nil {
		return nil, err
	}
	if err := docs.narrow(patch); err != nil {
		return nil, err
	}
	if err := checkPreconditions(patch, cfg.preconditions); err != nil {
		return nil, err
	}
	if cfg.overwrite {
		return patch, nil
	}
	changed, changes, err := docs.diff(changesPass)
	if err != nil {
		return nil, err
	}
	if err := docs.dropEmpty(changed); err != nil {
		return nil, err
	}
	if err := checkConflicts(patch, changed, s, changes); err != nil {
		return nil, err
	}
	return patch, nil
}

// jsonDocs are a three-way patch's decoded documents, by doc.
type jsonDocs struct {
	docs [3]map[string]any
	s    slot
	cfg  *config
}

// threeWay is runThreeWay on decoded documents.
func threeWay(original, modified, current map[string]any, s slot, cfg *config) (map[string]any, error) {
	return runThreeWay(&jsonDocs{docs: [3]map[string]any{original, modified, current}, s: s, cfg: cfg}, s, cfg)
}

func (j *jsonDocs) diff(p threeWayPass) (map[string]any, *differ, error) {
	d := &differ{cfg: j.cfg, pass: p.pass, base: j.docs[p.base]}
	patch, up, err := d.diffObject(j.docs[p.from], j.docs[p.to], j.s, nil)
	if err != nil {
		return nil, nil, err
	}
	if up && p.pass != passDeletions {
		patch = replaceObject(j.docs[p.to])
	}
	return patch, d, nil
}

func (j *jsonDocs) narrow(patch map[string]any) error {
	narrowDeletions(patch, j.docs[docOriginal], j.docs[docCurrent], j.s)
	return nil
}

func (j *jsonDocs) dropEmpty(changed map[string]any) error {
	dropEmptyChanges(changed, j.docs[docOriginal], j.s)
	return nil
}

// checkConflicts fails with an ErrConflict naming every path where the
// patch sets a field the changes since original set differently. The
// typed ThreeWay shares it.
func checkConflicts(patch, changed map[string]any, s slot, d *differ) error {
	c := &conflicts{d: d, all: true}
	if _, replace := patch[format.KeyPatch]; replace && changed[format.KeyPatch] == nil {
		c.replaced(patch, changed, s, nil)
	} else {
		c.values(patch, changed, s, nil)
	}
	if len(c.paths) == 0 {
		return nil
	}
	msg := "conflict: current changed it since original, and the patch changes it differently"
	if n := len(c.paths) - 1; n > 0 {
		msg += "; " + itoa(n) + " more:"
		msg += " " + listed(c.paths[1:], Path.String, " ")
	}
	return &Error{Kind: ErrConflict, Path: c.paths[0], Msg: msg, Conflicts: c.paths}
}

// replaced finds the conflicts of a patch that replaces the root object
// whole (repl holds every field it keeps): a field current changed since
// original conflicts where the replacement removes it or sets it
// differently. Nothing changed is no conflict; as in Kubernetes, the
// root's $patch is no change of its own.
func (c *conflicts) replaced(repl, changed map[string]any, s slot, at *pathNode) {
	for _, k := range jsonval.SortedKeys(changed) {
		if kind, _ := format.Classify(k); kind != format.NotDirective && kind != format.DirUnknown {
			continue
		}
		cv := changed[k]
		rv, ok := repl[k]
		rm, rIsMap := rv.(map[string]any)
		cm, cIsMap := cv.(map[string]any)
		switch {
		case !ok:
			if cv != nil {
				c.found(at.Field(k))
			}
		case rIsMap && cIsMap && cm[format.KeyPatch] == nil && rm[format.KeyPatch] == nil && s.Child(k).Kind() != reflectschema.Atomic:
			c.replaced(rm, cm, s.Child(k), at.Field(k))
		default:
			c.values(rv, cv, s.Child(k), at.Field(k))
		}
	}
}
