package engine

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// ListItems is the live list of a merge list of objects as a list plan
// (ListPlan) reads it: the identities and key fields of its elements. The
// JSON applier reads JSON values (jsonItems); the typed applier reads Go
// values (objItems). Both merge by the same plan.
type ListItems interface {
	// Count is the number of live elements.
	Count() int
	// KeyID is the identity under ks of live element p, as format.IDOf gives it
	// for the element's JSON.
	KeyID(p int, ks format.KeySet) string
	// KeyField is live element p's field f, when p is an object holding
	// it.
	KeyField(p int, f string) (any, bool)
}

// keyIDLister is a ListItems that can write the identities of all its
// elements at once, cheaper than one KeyID call each.
type keyIDLister interface {
	// KeyIDs writes KeyID(p, ks) into ids[p] for every live element.
	KeyIDs(ks format.KeySet, ids []string)
}

// keyIDs writes the identities under ks of src's elements into ids.
func keyIDs(src ListItems, ks format.KeySet, ids []string) {
	if l, ok := src.(keyIDLister); ok {
		l.KeyIDs(ks, ids)
		return
	}
	for p := range ids {
		ids[p] = src.KeyID(p, ks)
	}
}

// jsonItems is a live JSON list, its items possibly still raw.
type jsonItems []any

func (j jsonItems) Count() int { return len(j) }

func (j jsonItems) KeyID(p int, ks format.KeySet) string { return format.IDOf(ks, j[p]) }

func (j jsonItems) IsObject(p int) bool {
	switch m := j[p].(type) {
	case map[string]any:
		return true
	case jsonval.Raw:
		return jsonval.RawKind(m) == jsonval.KindObject
	}
	return false
}

func (j jsonItems) HasKeyField(p int, f string) bool {
	switch m := j[p].(type) {
	case map[string]any:
		_, ok := m[f]
		return ok
	case jsonval.Raw:
		return rawMember(m, f) != nil
	}
	return false
}

func (j jsonItems) KeyField(p int, f string) (any, bool) {
	switch m := j[p].(type) {
	case map[string]any:
		v, ok := m[f]
		return v, ok
	case jsonval.Raw:
		if val := rawMember(m, f); val != nil {
			return jsonval.Expand(val), true
		}
	}
	return nil, false
}

// rawMember is member f of a raw object (the last, as encoding/json
// keeps it), nil when m is not an object or has no such member.
func rawMember(m jsonval.Raw, f string) jsonval.Raw {
	if jsonval.RawKind(m) != jsonval.KindObject {
		return nil
	}
	var val jsonval.Raw
	jsonval.EachRawMember(m, func(k []byte, v jsonval.Raw) bool {
		if jsonval.KeyIs(k, f) {
			val = v
		}
		return true
	})
	return val
}
