package smp

import "github.com/typedpatch/typedpatch/reflectschema"

// threeWay computes the patch that brings current to modified while
// keeping what others changed in current since original: the delta from
// current to modified without deletions, plus the deletions from original
// to modified. Unless overwriting, a patch that changes a field current
// also changed differently is a conflict.
func threeWay(original, modified, current map[string]any, s slot, cfg *config, fns []PreconditionFunc) (map[string]any, error) {
	delta := &differ{cfg: cfg, pass: passDelta, base: original}
	dp, up, err := delta.diffObject(current, modified, s, nil)
	if err != nil {
		return nil, err
	}
	if up {
		dp = replaceObject(modified)
	}
	deletions := &differ{cfg: cfg, pass: passDeletions, base: current}
	xp, _, err := deletions.diffObject(original, modified, s, nil)
	if err != nil {
		return nil, err
	}
	patch, err := delta.mergePatches(xp, dp, s, nil)
	if err != nil {
		return nil, err
	}
	narrowDeletions(patch, original, current, s)
	if err := checkPreconditions(patch, fns); err != nil {
		return nil, err
	}
	if cfg.overwrite {
		return patch, nil
	}
	changes := &differ{cfg: cfg, pass: passChanges, base: modified}
	changed, up, err := changes.diffObject(original, current, s, nil)
	if err != nil {
		return nil, err
	}
	if up {
		changed = replaceObject(current)
	}
	dropEmptyChanges(changed, original, s)
	if err := checkConflicts(patch, changed, s, changes); err != nil {
		return nil, err
	}
	return patch, nil
}

// checkConflicts fails with an ErrConflict naming every path where the
// patch sets a field the changes since original set differently. The
// typed ThreeWay shares it.
func checkConflicts(patch, changed map[string]any, s slot, d *differ) error {
	c := &conflicts{d: d, all: true}
	if _, replace := patch[keyPatch]; replace && changed[keyPatch] == nil {
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
	for _, k := range sortedKeys(changed) {
		if kind, _ := classify(k); kind != notDirective && kind != dirUnknown {
			continue
		}
		cv := changed[k]
		rv, ok := repl[k]
		rm, rIsMap := rv.(map[string]any)
		cm, cIsMap := cv.(map[string]any)
		switch {
		case !ok:
			if cv != nil {
				c.found(at.field(k))
			}
		case rIsMap && cIsMap && cm[keyPatch] == nil && rm[keyPatch] == nil && s.Child(k).Kind() != reflectschema.Atomic:
			c.replaced(rm, cm, s.Child(k), at.field(k))
		default:
			c.values(rv, cv, s.Child(k), at.field(k))
		}
	}
}
