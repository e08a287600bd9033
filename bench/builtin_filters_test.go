package bench

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// The predicates of TestDifferentialBuiltin's filters: each recognises,
// from the inputs or the patches, a difference docs/compat.md lists.

// vacuousDropped reports whether, at some field reached through objects,
// the original holds an empty collection (or objects of them), current
// lacks it (or holds null) and modified holds a value.
func vacuousDropped(o, m, c any) bool {
	om, _ := o.(map[string]any)
	mm, _ := m.(map[string]any)
	cm, _ := c.(map[string]any)
	for k, ov := range om {
		if ov == nil || mm[k] == nil {
			continue
		}
		if cm[k] == nil && vacuous(ov) {
			return true
		}
		if vacuousDropped(ov, mm[k], cm[k]) {
			return true
		}
	}
	return false
}

// vacuousAdded reports whether, at some field reached through objects
// (current's objects the original lacks included), current holds an
// empty collection (or objects of them) where the original has nothing,
// null or another empty shape: no change under nil ≡ empty, a change to
// Kubernetes.
func vacuousAdded(o, c any) bool {
	om, _ := o.(map[string]any)
	cm, _ := c.(map[string]any)
	for k, cv := range cm {
		ov := om[k]
		if cv != nil && vacuous(cv) && (ov == nil || vacuous(ov)) && !cmp.Equal(ov, cv) {
			return true
		}
		if _, isMap := cv.(map[string]any); isMap && vacuousAdded(ov, cv) {
			return true
		}
	}
	return false
}

// droppedWhileExtended reports whether kubernetes#48164 applies at any
// depth (docs/compat.md, "nil and empty collections are alike"): modified
// drops a field whose current value holds something the original's
// lacked, which Kubernetes deletes whole and this project deletes only
// the original's entries of. It looks through objects and through the
// elements of keyed merge lists, paired by key; t is the schema there.
func droppedWhileExtended(o, m, c any, t *rs.Type) bool {
	om, _ := o.(map[string]any)
	mm, _ := m.(map[string]any)
	cm, _ := c.(map[string]any)
	for k, ov := range om {
		mv, inM := mm[k]
		cv := cm[k]
		if (!inM || mv == nil) && cv != nil && extends(ov, cv) {
			return true
		}
		var ft *rs.Type
		var meta rs.PatchMeta
		if t != nil && t.Kind == rs.Struct {
			if f := t.Field(k); f != nil {
				ft, meta = f.Type, f.Patch
			}
		} else if t != nil && t.Kind == rs.Map {
			ft = t.Elem
		}
		if droppedWhileExtended(ov, mv, cv, ft) || droppedInElements(ov, mv, cv, ft, meta) {
			return true
		}
	}
	return false
}

// droppedInElements applies droppedWhileExtended to the elements of a
// keyed merge list the three documents share.
func droppedInElements(o, m, c any, t *rs.Type, meta rs.PatchMeta) bool {
	if t == nil || t.Kind != rs.List || len(meta.MergeKey) == 0 {
		return false
	}
	index := func(v any) map[string]any {
		out := map[string]any{}
		l, _ := v.([]any)
		for _, e := range l {
			em, _ := e.(map[string]any)
			key := ""
			for _, k := range meta.MergeKey {
				key += fmt.Sprint(em[k]) + "\x00"
			}
			out[key] = e
		}
		return out
	}
	mi, ci := index(m), index(c)
	for key, oe := range index(o) {
		if me, ok := mi[key]; ok {
			if ce, ok := ci[key]; ok && droppedWhileExtended(oe, me, ce, t.Elem) {
				return true
			}
		}
	}
	return false
}

// extends reports whether c holds something o lacks: an entry at any
// depth of objects, or a list element o does not hold.
func extends(o, c any) bool {
	if vacuous(o) && !vacuous(c) {
		return true
	}
	switch cv := c.(type) {
	case map[string]any:
		om, _ := o.(map[string]any)
		for k, e := range cv {
			if e == nil {
				continue
			}
			if oe, had := om[k]; !had || extends(oe, e) {
				return true
			}
		}
	case []any:
		ol, _ := o.([]any)
		for _, e := range cv {
			if !slices.ContainsFunc(ol, func(x any) bool { return cmp.Equal(x, e) }) {
				return true
			}
		}
	}
	return false
}

// scalarOrders lists the $setElementOrder directives of lists of scalars
// in a patch, each as its name and value, sorted.
func scalarOrders(v any, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.HasPrefix(k, "$setElementOrder/") && isScalarList(e) {
				b, _ := json.Marshal(e)
				out = append(out, k+"="+string(b))
				continue
			}
			out = scalarOrders(e, out)
		}
	case []any:
		for _, e := range x {
			out = scalarOrders(e, out)
		}
	}
	slices.Sort(out)
	return out
}
