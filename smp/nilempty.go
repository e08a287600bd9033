package smp

import "github.com/typedpatch/typedpatch/reflectschema"

// Three-way patches treat a missing or null collection and an empty one
// alike (kubernetes#48164). Kubernetes deletes a whole object that the new
// configuration dropped, and so reports a conflict (or, overwriting,
// removes them) when another writer added entries to it meanwhile; it also
// treats an empty object turned absent as a change. Here, such a deletion
// removes only the entries the original had, and an empty collection
// turning absent is no change. Where no other writer added entries, the
// patch is Kubernetes' own.

// narrowDeletions rewrites, in the merged three-way patch, the deletion of
// an object field (null) into deletions of the original's entries when
// current holds entries the original did not; it drops the deletion of an
// empty original object or list when current's is not empty.
func narrowDeletions(patch, original, current map[string]any, s slot) {
	for k, pv := range patch {
		ov, inO := original[k]
		cv := current[k]
		if !inO {
			continue
		}
		if pv == nil {
			if isEmptyCollection(ov) && cv != nil && !isEmptyCollection(cv) {
				delete(patch, k)
				continue
			}
			om, ok1 := ov.(map[string]any)
			cm, ok2 := cv.(map[string]any)
			if ok1 && ok2 && hasExtraKeys(cm, om) && narrowable(s.child(k)) {
				dels := make(map[string]any, len(om))
				for ok := range om {
					dels[ok] = nil
				}
				patch[k] = dels
			}
			continue
		}
		pm, ok1 := pv.(map[string]any)
		om, ok2 := ov.(map[string]any)
		cm, ok3 := cv.(map[string]any)
		if ok1 && ok2 && ok3 {
			if _, directive := pm[keyPatch]; !directive {
				narrowDeletions(pm, om, cm, s.child(k))
				if len(pm) == 0 {
					delete(patch, k)
				}
			}
		}
	}
}

// narrowable reports whether an object field may be patched entry by
// entry: not atomic, not replaced whole.
func narrowable(s slot) bool {
	k := s.kind()
	return (k == reflectschema.Map || k == reflectschema.Struct || k == reflectschema.Untyped) &&
		s.meta.Strategy != reflectschema.Replace && !s.meta.RetainKeys
}

// dropEmptyChanges removes from the original→current changes the deletion
// of a collection that was empty: no change under nil ≡ empty.
func dropEmptyChanges(changed, original map[string]any) {
	for k, v := range changed {
		ov, inO := original[k]
		switch {
		case v == nil && inO && isEmptyCollection(ov):
			delete(changed, k)
		case v != nil:
			cm, ok1 := v.(map[string]any)
			om, ok2 := ov.(map[string]any)
			if ok1 && ok2 {
				dropEmptyChanges(cm, om)
			}
		}
	}
}

// isEmptyCollection reports whether v is an empty list, or an object
// holding only nulls and empty collections: nothing, under nil ≡ empty.
func isEmptyCollection(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			if e != nil && !isEmptyCollection(e) {
				return false
			}
		}
		return true
	case []any:
		return len(v) == 0
	}
	return false
}

func hasExtraKeys(cm, om map[string]any) bool {
	for k, v := range cm {
		if _, ok := om[k]; !ok && v != nil {
			return true
		}
	}
	return false
}
