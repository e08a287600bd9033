package engine

import (
	"strconv"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// A three-way patch brings current to modified while keeping what others
// changed in current since original: the delta from current to modified
// without deletions, plus the deletions from original to modified. Unless
// overwriting, a patch that changes a field current also changed
// differently is a conflict. Each walker runs the same passes on its own
// documents (ThreeWayDocs), each named (threeWayDoc); RunThreeWay joins
// them.

// threeWayDoc names one document of a three-way patch.
type threeWayDoc uint8

const (
	DocOriginal threeWayDoc = iota
	docModified
	DocCurrent
)

// ThreeWayPass is one pass of a three-way patch: from one document to
// another, following the third (the differ's base).
type ThreeWayPass struct {
	Pass           Pass
	From, To, Base threeWayDoc
}

var (
	deltaPass     = ThreeWayPass{PassDelta, DocCurrent, docModified, DocOriginal}
	deletionsPass = ThreeWayPass{PassDeletions, DocOriginal, docModified, DocCurrent}
	changesPass   = ThreeWayPass{PassChanges, DocOriginal, DocCurrent, docModified}
)

// ThreeWayDocs is one walker's three documents.
type ThreeWayDocs interface {
	// Diff runs a pass; a patch that must replace the root writes the
	// to document whole. d is the differ that ran it.
	Diff(p ThreeWayPass) (patch map[string]any, d *Differ, err error)
	// Narrow drops the deletions of fields that original and current
	// both hold empty or null (NarrowDeletions).
	Narrow(patch map[string]any) error
	// DropEmpty drops the changes from original to current that are only
	// nil becoming empty (DropEmptyChanges).
	DropEmpty(changed map[string]any) error
}

// RunThreeWay makes the three-way patch of docs at root slot s.
func RunThreeWay(docs ThreeWayDocs, s slot, cfg *Config) (map[string]any, error) {
	dp, delta, err := docs.Diff(deltaPass)
	if err != nil {
		return nil, err
	}
	xp, _, err := docs.Diff(deletionsPass)
	if err != nil {
		return nil, err
	}
	patch, err := delta.mergePatches(xp, dp, s, nil)
	if err != nil {
		return nil, err
	}
	if err := docs.Narrow(patch); err != nil {
		return nil, err
	}
	if err := CheckPreconditions(patch, cfg.Preconditions); err != nil {
		return nil, err
	}
	if cfg.Overwrite {
		return patch, nil
	}
	changed, changes, err := docs.Diff(changesPass)
	if err != nil {
		return nil, err
	}
	if err := docs.DropEmpty(changed); err != nil {
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
	cfg  *Config
}

// ThreeWay is RunThreeWay on decoded documents.
func ThreeWay(original, modified, current map[string]any, s slot, cfg *Config) (map[string]any, error) {
	return RunThreeWay(&jsonDocs{docs: [3]map[string]any{original, modified, current}, s: s, cfg: cfg}, s, cfg)
}

func (j *jsonDocs) Diff(p ThreeWayPass) (map[string]any, *Differ, error) {
	d := &Differ{Cfg: j.cfg, Pass: p.Pass, Base: Base[any]{At: j.docs[p.Base]}}
	patch, up, err := d.DiffObject(j.docs[p.From], j.docs[p.To], j.s, nil)
	if err != nil {
		return nil, nil, err
	}
	if up && p.Pass != PassDeletions {
		patch = ReplaceObject(j.docs[p.To])
	}
	return patch, d, nil
}

func (j *jsonDocs) Narrow(patch map[string]any) error {
	return NarrowDeletions(patch, JSONDoc{j.docs[DocOriginal]}, JSONDoc{j.docs[DocCurrent]}, j.s)
}

func (j *jsonDocs) DropEmpty(changed map[string]any) error {
	return DropEmptyChanges(changed, JSONDoc{j.docs[DocOriginal]}, j.s)
}

// checkConflicts fails with an ErrConflict naming every path where the
// patch sets a field the changes since original set differently. The
// typed ThreeWay shares it.
func checkConflicts(patch, changed map[string]any, s slot, d *Differ) error {
	c := &Conflicts{D: d, all: true}
	if _, replace := patch[format.KeyPatch]; replace && changed[format.KeyPatch] == nil {
		c.replaced(patch, changed, s, nil)
	} else {
		c.Values(patch, changed, s, nil)
	}
	if len(c.Paths) == 0 {
		return nil
	}
	msg := "conflict: current changed it since original, and the patch changes it differently"
	if n := len(c.Paths) - 1; n > 0 {
		msg += "; " + strconv.Itoa(n) + " more:"
		msg += " " + listed(c.Paths[1:], errpath.Path.String, " ")
	}
	return &errpath.Error{Kind: errpath.ErrConflict, Path: c.Paths[0], Msg: msg, Conflicts: c.Paths}
}

// replaced finds the conflicts of a patch that replaces the root object
// whole (repl holds every field it keeps): a field current changed since
// original conflicts where the replacement removes it or sets it
// differently. Nothing changed is no conflict; as in Kubernetes, the
// root's $patch is no change of its own.
func (c *Conflicts) replaced(repl, changed map[string]any, s slot, at *pathNode) {
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
			c.Values(rv, cv, s.Child(k), at.Field(k))
		}
	}
}
