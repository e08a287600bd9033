package smp

import (
	"slices"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// differ computes a patch from an original to a modified document, the
// way Kubernetes' diffMaps does. The flags select the halves of a
// three-way patch.
type differ struct {
	cfg *config
	// ignoreChanges leaves out additions and changes (the deletions half).
	ignoreChanges bool
	// ignoreDeletions leaves out deletions (the delta half).
	ignoreDeletions bool
	// setOrder writes $setElementOrder for changed merge lists.
	setOrder bool
}

// diffObject returns the patch turning om into mm. replaceUp asks the
// caller to replace the whole object: a list inside it cannot be patched
// key by key (a list of scalars holding duplicates).
func (d *differ) diffObject(om, mm map[string]any, s slot, at *pathNode) (patch map[string]any, replaceUp bool, err error) {
	patch = map[string]any{}
	buildRetain := s.meta.RetainKeys && d.cfg.directives.understood(dirRetainKeys)
	var retain []any
	for _, k := range sortedKeys(mm) {
		mv := mm[k]
		if buildRetain && mv != nil {
			retain = append(retain, k)
		}
		ov, ok := om[k]
		if !ok || kindOf(ov) != kindOf(mv) {
			if !d.ignoreChanges {
				patch[k] = mv
			}
			continue
		}
		c := s.child(k)
		cat := at.field(k)
		switch o := ov.(type) {
		case map[string]any:
			if c.kind() == reflectschema.Atomic || c.meta.Strategy == reflectschema.Replace {
				d.replaceIfChanged(patch, k, ov, mv)
				continue
			}
			sub, up, err := d.diffObject(o, mv.(map[string]any), c, cat)
			if err != nil {
				return nil, false, err
			}
			switch {
			case up && !d.ignoreChanges:
				patch[k] = replaceObject(mv.(map[string]any))
			case len(sub) > 0:
				patch[k] = sub
			}
		case []any:
			if !c.isMergeList() {
				d.replaceIfChanged(patch, k, ov, mv)
				continue
			}
			up, err := d.diffList(patch, k, o, mv.([]any), c, cat)
			if err != nil {
				return nil, false, err
			}
			if up {
				return nil, true, nil
			}
		default:
			d.replaceIfChanged(patch, k, ov, mv)
		}
	}
	if !d.ignoreDeletions {
		for k := range om {
			if _, ok := mm[k]; !ok {
				patch[k] = nil
			}
		}
	}
	if len(retain) > 0 && (len(patch) > 0 || hasAdditionalField(om, mm)) {
		patch[keyRetainKeys] = retain // sorted: keys were visited in order
	}
	return patch, false, nil
}

func (d *differ) replaceIfChanged(patch map[string]any, k string, ov, mv any) {
	if !d.ignoreChanges && !equalJSON(ov, mv) {
		patch[k] = mv
	}
}

// replaceObject is the patch that sets an object to m whatever it was.
func replaceObject(m map[string]any) map[string]any {
	r := make(map[string]any, len(m)+1)
	for k, v := range m {
		r[k] = v
	}
	r[keyPatch] = patchReplace
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

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
