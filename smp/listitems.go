package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// listItems is the live list of a merge list of objects as a list plan
// (listPlan) reads it: the identities and key fields of its elements. The
// JSON applier reads JSON values (jsonItems); the typed applier reads Go
// values (structItems). Both merge by the same plan.
type listItems interface {
	// count is the number of live elements.
	count() int
	// keyID is the identity under ks of live element p, as format.IDOf gives it
	// for the element's JSON.
	keyID(p int, ks format.KeySet) string
	// keyField is live element p's field f, when p is an object holding
	// it.
	keyField(p int, f string) (any, bool)
}

// jsonItems is a live JSON list, its items possibly still raw.
type jsonItems []any

func (j jsonItems) count() int { return len(j) }

func (j jsonItems) keyID(p int, ks format.KeySet) string { return format.IDOf(ks, j[p]) }

func (j jsonItems) isObject(p int) bool {
	switch m := j[p].(type) {
	case map[string]any:
		return true
	case jsonval.Raw:
		return jsonval.RawKind(m) == jsonval.KindObject
	}
	return false
}

func (j jsonItems) keyField(p int, f string) (any, bool) {
	switch m := j[p].(type) {
	case map[string]any:
		v, ok := m[f]
		return v, ok
	case jsonval.Raw:
		if jsonval.RawKind(m) != jsonval.KindObject {
			return nil, false
		}
		var val jsonval.Raw
		jsonval.EachRawMember(m, func(k []byte, v jsonval.Raw) bool {
			if jsonval.KeyIs(k, f) {
				val = v
			}
			return true
		})
		if val == nil {
			return nil, false
		}
		return jsonval.Expand(val), true
	}
	return nil, false
}
