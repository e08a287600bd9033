package engine

import (
	"slices"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// Three-way patches treat a missing or null collection and an empty one
// alike (kubernetes#48164). Kubernetes deletes a whole object that the new
// configuration dropped, and so reports a conflict (or, overwriting,
// removes them) when another writer added entries to it meanwhile; it also
// treats an empty object turned absent as a change. Here, such a deletion
// removes only the entries the original had, and an empty collection
// turning absent is no change. Where no other writer added entries, the
// patch is Kubernetes' own.

// NarrowDeletions rewrites, in the merged three-way patch, the deletion of
// an object field (null) into deletions of the original's entries, at any
// depth, where current holds entries the original did not; it drops the
// deletion of an empty original object or list when current's is not
// empty. A patch object that replaces its object ($patch: replace), and a
// list that replaces its list, say the whole value: nothing in them is
// narrowed or dropped, empty objects included. It reads the documents only
// where the patch leads, and in JSON form only where it narrows.
func NarrowDeletions[D Doc[D]](patch map[string]any, original, current D, s slot) error {
	if _, directive := patch[format.KeyPatch]; directive {
		return nil
	}
	for k := range patch {
		ov, inO := original.Child(k)
		if !inO {
			continue
		}
		cv, _ := current.Child(k)
		if err := narrowAt(patch, k, ov, cv, s.Child(k)); err != nil {
			return err
		}
	}
	return nil
}

// narrowAt is NarrowDeletions at patch key k, where the original holds ov
// and current cv.
func narrowAt[D Doc[D]](patch map[string]any, k string, ov, cv D, s slot) error {
	switch pv := patch[k].(type) {
	case []any:
		if !narrowsList(pv, s) {
			return nil
		}
		oj, cj, err := bothJSON(ov, cv)
		if err != nil {
			return err
		}
		if pl := narrowList(pv, oj, cj, s); len(pl) == 0 {
			delete(patch, k)
		} else {
			patch[k] = pl
		}
	case nil:
		if emptyCollection(ov) && !cv.Null() && !emptyCollection(cv) {
			delete(patch, k)
			return nil
		}
		if !ov.Object() || !cv.Object() || !narrowable(s) || clearedByRetainKeys(patch, k) {
			return nil
		}
		oj, cj, err := bothJSON(ov, cv)
		if err != nil {
			return err
		}
		om, ok1 := oj.(map[string]any)
		cm, ok2 := cj.(map[string]any)
		if ok1 && ok2 && addedBelow(cm, om, s) {
			patch[k] = narrowed(om, cm, s)
		}
	case map[string]any:
		if len(pv) == 0 || !ov.Object() || !cv.Object() {
			return nil
		}
		if err := NarrowDeletions(pv, ov, cv, s); err != nil {
			return err
		}
		if len(pv) == 0 {
			delete(patch, k) // all it did was delete what current lacks
		}
	}
	return nil
}

// bothJSON returns two documents' values in JSON form.
func bothJSON[D Doc[D]](a, b D) (aj, bj any, err error) {
	if aj, err = a.JSON(); err == nil {
		bj, err = b.JSON()
	}
	return aj, bj, err
}

// addedBelow reports whether current's object cm holds a non-null value
// where the original's om has none, directly or in objects the narrowing
// reaches.
func addedBelow(cm, om map[string]any, s slot) bool {
	for k, cv := range cm {
		if cv == nil {
			continue
		}
		ov := om[k]
		if ov == nil {
			return true
		}
		c := s.Child(k)
		cvm, ok1 := cv.(map[string]any)
		ovm, ok2 := ov.(map[string]any)
		if ok1 && ok2 && narrowable(c) && addedBelow(cvm, ovm, c) {
			return true
		}
	}
	return false
}

// narrowed is the deletion of the original's object om narrowed to its
// own entries: each deleted whole, or narrowed in turn where current's
// cm added entries below it; empty ones are left alone (nil ≡ empty).
func narrowed(om, cm map[string]any, s slot) map[string]any {
	dels := make(map[string]any, len(om))
	for k, ov := range om {
		if ov == nil || isEmptyCollection(ov) {
			continue
		}
		c := s.Child(k)
		ovm, ok1 := ov.(map[string]any)
		cvm, ok2 := cm[k].(map[string]any)
		if ok1 && ok2 && narrowable(c) && addedBelow(cvm, ovm, c) {
			dels[k] = narrowed(ovm, cvm, c)
			continue
		}
		dels[k] = nil
	}
	return dels
}

// clearedByRetainKeys reports whether the patch object's $retainKeys
// leaves out field k: the applier clears it whole, and a narrowed
// deletion there would be rejected.
func clearedByRetainKeys(patch map[string]any, k string) bool {
	rk, ok := patch[format.KeyRetainKeys].([]any)
	return ok && !slices.Contains(rk, any(k))
}

// narrowsList reports whether narrowList may change the patch list pl: a
// merge list of objects that deletes something, and replaces nothing. A
// list replaced whole is modified's, nulls and all.
func narrowsList(pl []any, s slot) bool {
	return s.IsMergeList() && s.IsObjectList() && hasNull(pl) && !hasReplaceMarker(pl)
}

// narrowList is NarrowDeletions inside the elements of a merge-list patch
// pl that the original list ol and current's cl both hold; an element left
// with nothing but its keys is dropped. It returns the list left.
func narrowList(pl []any, ol, cl any, s slot) []any {
	ks := listKeysOf(pl, s)
	os, cs := byIdentity(ol, ks), byIdentity(cl, ks)
	if os == nil || cs == nil {
		return pl
	}
	out := pl[:0:0]
	for _, e := range pl {
		pe, ok := e.(map[string]any)
		if !ok || pe[format.KeyPatch] != nil {
			out = append(out, e)
			continue
		}
		id := format.IDOf(ks, pe)
		om, ok1 := os[id].(map[string]any)
		cm, ok2 := cs[id].(map[string]any)
		if ok1 && ok2 {
			before := len(pe)
			_ = NarrowDeletions(pe, JSONDoc{om}, JSONDoc{cm}, s.Elem()) // JSON documents give no error
			if len(pe) < before && onlyKeys(pe, ks) {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// dropEmptyListChanges is DropEmptyChanges inside the elements of a
// merge-list change list that the original list ol holds.
func dropEmptyListChanges(pl []any, ol any, s slot) {
	if !s.IsMergeList() || !s.IsObjectList() {
		return // a list replaced whole changed as a whole
	}
	ks := listKeysOf(pl, s)
	os := byIdentity(ol, ks)
	if os == nil && ol != nil && !isEmptyCollection(ol) {
		return // the original's elements cannot be told apart
	}
	for _, e := range pl {
		pe, ok := e.(map[string]any)
		if !ok || pe[format.KeyPatch] != nil {
			continue
		}
		oe, inO := os[format.IDOf(ks, pe)]
		if _, ok := oe.(map[string]any); ok || !inO {
			_ = DropEmptyChanges(pe, JSONDoc{oe}, s.Elem()) // oe nil: an element current added
		}
	}
}

// byIdentity indexes a merge list's elements by their identity under ks.
// It returns nil for a value that is not a list or for a list that holds
// an identity twice.
func byIdentity(l any, ks format.KeySet) map[string]any {
	list, ok := l.([]any)
	if !ok {
		return nil
	}
	out := make(map[string]any, len(list))
	for _, e := range list {
		id := format.IDOf(ks, e)
		if _, dup := out[id]; dup {
			return nil
		}
		out[id] = e
	}
	return out
}

// listKeysOf is the key set a patch list's elements are named by: every
// declared key field when they carry $patchMergeKey, else the default key.
func listKeysOf(pl []any, s slot) format.KeySet {
	for _, e := range pl {
		if pe, ok := e.(map[string]any); ok {
			if _, ok := pe[format.KeyPatchMergeKey]; ok {
				return format.KeysOf(s).FullSet()
			}
		}
	}
	return format.KeysOf(s).DefaultSet()
}

// onlyKeys reports whether a patch element holds nothing but its key
// fields and $patchMergeKey.
func onlyKeys(pe map[string]any, ks format.KeySet) bool {
	for k := range pe {
		if k == format.KeyPatchMergeKey || slices.Contains(ks.Fields, k) {
			continue
		}
		return false
	}
	return true
}

// hasNull reports whether a null appears anywhere in v.
func hasNull(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range v {
			if hasNull(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if hasNull(e) {
				return true
			}
		}
	}
	return false
}

// narrowable reports whether the deletion of an object field narrows to
// the original's entries: a map, or an untyped object, whose keys are
// free, so that entries another writer added are its own (labels,
// annotations, matchLabels); not atomic, not replaced whole. A struct's
// fields the configuration never set are the server's defaults, which go
// with it: a struct is deleted whole, as Kubernetes deletes it.
func narrowable(s slot) bool {
	k := s.Kind()
	return (k == reflectschema.Map || k == reflectschema.Untyped) &&
		s.Patch.Strategy != reflectschema.Replace && !s.Patch.RetainKeys
}

// DropEmptyChanges removes from the original→current changes the deletion
// of a collection that was empty, the addition of an empty one, and an
// empty one reshaped ([] for {}, or {"a":{}} for {}): no change under
// nil ≡ empty; and an object left with no change. It reads the original
// only where the changes lead, and in JSON form only inside merge lists.
func DropEmptyChanges[D Doc[D]](changed map[string]any, original D, s slot) error {
	for k, v := range changed {
		ov, inO := original.Child(k)
		switch {
		case v == nil && inO && emptyCollection(ov):
			delete(changed, k)
		case isEmptyCollection(v) && (ov.Null() || emptyCollection(ov)):
			delete(changed, k) // an empty collection added, or reshaped
		case v != nil:
			if err := dropEmptyAt(changed, k, ov, s.Child(k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// dropEmptyAt is DropEmptyChanges below change key k, where the original
// holds ov.
func dropEmptyAt[D Doc[D]](changed map[string]any, k string, ov D, s slot) error {
	switch cv := changed[k].(type) {
	case []any:
		if !s.IsMergeList() || !s.IsObjectList() {
			return nil // a list replaced whole changed as a whole
		}
		ol, err := ov.JSON()
		if err != nil {
			return err
		}
		dropEmptyListChanges(cv, ol, s)
	case map[string]any:
		if len(cv) == 0 || !ov.Object() && !ov.Null() {
			return nil
		}
		if err := DropEmptyChanges(cv, ov, s); err != nil {
			return err
		}
		if len(cv) == 0 {
			delete(changed, k) // only empty changes below
		}
	}
	return nil
}

// isEmptyCollection reports whether v is an empty list, or an object
// holding only nulls and empty collections: nothing, under nil ≡ empty.
func isEmptyCollection(v any) bool { return emptyCollection(JSONDoc{v}) }

// emptyCollection is isEmptyCollection for either document.
func emptyCollection[D Doc[D]](d D) bool {
	switch {
	case d.List():
		return d.All(func(D) bool { return false })
	case d.Object():
		return d.All(func(e D) bool { return e.Null() || emptyCollection(e) })
	}
	return false
}
