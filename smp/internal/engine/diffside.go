package engine

import "github.com/typedpatch/typedpatch/smp/internal/format"

// DiffSide is one list of a merge list of objects being diffed, as
// ObjList reads it: its elements' identities and key fields.
type DiffSide interface {
	ListItems
	// IsObject reports whether element p is an object.
	IsObject(p int) bool
	// HasKeyField reports whether element p is an object holding field
	// f, as KeyField's ok would, without converting the field.
	HasKeyField(p int, f string) bool
}

// sideIDs returns the identities under ks of a side's elements.
func sideIDs(s DiffSide, ks format.KeySet) []string {
	if s == nil {
		return nil
	}
	ids := make([]string, s.Count())
	for p := range ids {
		ids[p] = s.KeyID(p, ks)
	}
	return ids
}

// sideKeyable is keyable for a side: every element an object carrying
// every field of the default key.
func sideKeyable(s DiffSide, def format.KeySet) bool {
	if s == nil {
		return true
	}
	for p := range s.Count() {
		if !keyedBy(s, p, def) {
			return false
		}
	}
	return true
}
