package strategicpatch

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/typedpatch/typedpatch/smp"
)

// dfplPrefix starts the key of a $deleteFromPrimitiveList directive.
const dfplPrefix = "$deleteFromPrimitiveList/"

// conflictCheckLookups fails where Kubernetes' conflict check fails: it
// looks up every key the patch and the changes since the original
// (original to current) share, the directives included, and no struct has
// a field "$deleteFromPrimitiveList/...". So a patch deleting from a set
// that current has also deleted from fails with the lookup's error, as in
// Kubernetes. Run only without overwrite, on a patch holding such a
// deletion (nothing else can meet a failing lookup the schema passed).
func conflictCheckLookups(original, current, patch []byte, t smpSchema, schema LookupPatchMeta) error {
	if !bytes.Contains(patch, []byte(dfplPrefix)) {
		return nil
	}
	changed, err := smp.DiffJSON(original, current, t, engineOpts()...)
	if err != nil {
		return kubeError(err)
	}
	p, c, err := decodePair(patch, changed)
	if err != nil {
		return err
	}
	// Kubernetes describes the changes without $setElementOrder.
	dropKeys(c, []string{"$setElementOrder/"})
	return sharedLookups(p, c, schema)
}

// sharedLookups walks two patches together as Kubernetes'
// mapsHaveConflicts does, returning the first lookup error.
func sharedLookups(left, right map[string]interface{}, schema LookupPatchMeta) error {
	for _, k := range slices.Sorted(maps.Keys(left)) {
		rv, ok := right[k]
		if !ok || k == "$patch" || k == "$retainKeys" {
			continue
		}
		switch lv := left[k].(type) {
		case []interface{}:
			sub, meta, err := schema.LookupPatchMetadataForSlice(k)
			if err != nil {
				return err
			}
			if rl, ok := rv.([]interface{}); ok {
				if err := sharedListLookups(lv, rl, sub, meta); err != nil {
					return err
				}
			}
		case map[string]interface{}:
			sub, meta, err := schema.LookupPatchMetadataForStruct(k)
			if err != nil {
				return err
			}
			rm, ok := rv.(map[string]interface{})
			if ok && !slices.Contains(meta.GetPatchStrategies(), "replace") {
				if err := sharedLookups(lv, rm, sub); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// sharedListLookups pairs the objects of two lists (by merge key in a
// merge list, by index in a list of equal length otherwise) and walks
// each pair.
func sharedListLookups(left, right []interface{}, sub LookupPatchMeta, meta PatchMeta) error {
	merge := slices.Contains(meta.GetPatchStrategies(), "merge")
	key := meta.GetPatchMergeKey()
	if !merge && len(left) != len(right) || merge && key == "" {
		return nil
	}
	byKey := map[string]map[string]interface{}{}
	if merge {
		for _, e := range right {
			if m, ok := e.(map[string]interface{}); ok && m[key] != nil {
				byKey[fmt.Sprintf("%s", m[key])] = m
			}
		}
	}
	for i, e := range left {
		lm, ok := e.(map[string]interface{})
		if !ok {
			continue
		}
		var rm map[string]interface{}
		if merge {
			rm = byKey[fmt.Sprintf("%s", lm[key])]
		} else {
			rm, _ = right[i].(map[string]interface{})
		}
		if rm != nil {
			if err := sharedLookups(lm, rm, sub); err != nil {
				return err
			}
		}
	}
	return nil
}
