package typedwalk

import (
	"github.com/typedpatch/typedpatch/smp/internal/jsonwalk"

	"github.com/typedpatch/typedpatch/smp/internal/goval"

	"github.com/typedpatch/typedpatch/smp/internal/format"

	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// narrowTyped is narrowDeletions with typed original and current (struct
// or map values; invalid when absent): it reads them only
// where the patch leads. Marshallers, untyped values, merge lists the
// patch deletes inside, and objects it deletes where current added
// entries are handed to narrowDeletions in JSON form.
func narrowTyped(patch map[string]any, o, c reflect.Value, n *goval.Node, s slot) error {
	if _, directive := patch[format.KeyPatch]; directive {
		return nil // a replacement says the whole object
	}
	for k, pv := range patch {
		ov, cn, inO := childOf(o, n, k)
		if !inO {
			continue
		}
		cv, _, inC := childOf(c, n, k)
		od, onull := goval.DerefNull(ov)
		cd, cnull := goval.DerefNull(cv)
		cnull = cnull || !inC
		oObj, cObj := !onull && isObjectNode(cn), !cnull && isObjectNode(cn)
		_, list := pv.([]any)
		if opaque(cn) || list && jsonwalk.HasNull(pv) || pv == nil && oObj && cObj && jsonwalk.Narrowable(s.Child(k)) && !jsonwalk.ClearedByRetainKeys(patch, k) {
			var held reflect.Value // current's value, when it has one
			if inC {
				held = cv
			}
			if err := jsonWrapped(patch, k, ov, held, cn, func(p, o, c map[string]any) { jsonwalk.NarrowDeletions(p, o, c, s) }); err != nil {
				return err
			}
			continue
		}
		if pv == nil {
			if !onull && isEmptyColl(od, cn) && !cnull && !isEmptyColl(cd, cn) {
				delete(patch, k)
			}
			continue
		}
		pm, ok := pv.(map[string]any)
		if !ok || !oObj || !cObj {
			continue
		}
		if len(pm) == 0 {
			continue // an empty object the patch sets
		}
		if err := narrowTyped(pm, od, cd, cn, s.Child(k)); err != nil {
			return err
		}
		if len(pm) == 0 {
			delete(patch, k)
		}
	}
	return nil
}

// dropEmptyTyped is dropEmptyChanges with a typed original.
func dropEmptyTyped(changed map[string]any, o reflect.Value, n *goval.Node, s slot) error {
	for k, v := range changed {
		ov, cn, inO := childOf(o, n, k)
		if _, list := v.([]any); inO && (opaque(cn) || list) {
			if err := jsonWrapped(changed, k, ov, reflect.Value{}, cn, func(p, o, _ map[string]any) { jsonwalk.DropEmptyChanges(p, o, s) }); err != nil {
				return err
			}
			continue
		}
		od, onull := goval.DerefNull(ov)
		switch {
		case v == nil && inO && !onull && isEmptyColl(od, cn):
			delete(changed, k)
		case jsonwalk.IsEmptyCollection(v) && (!inO || onull || isEmptyColl(od, cn)):
			delete(changed, k) // as dropEmptyChanges
		case v != nil:
			if l, ok := v.([]any); ok && (!inO || onull) {
				jsonwalk.DropEmptyListChanges(l, nil, s.Child(k))
			}
			cm, ok := v.(map[string]any)
			if !ok || len(cm) == 0 {
				continue
			}
			if !inO || onull {
				jsonwalk.DropEmptyChanges(cm, nil, s.Child(k)) // added by current
			} else if isObjectNode(cn) {
				if err := dropEmptyTyped(cm, od, cn, s.Child(k)); err != nil {
					return err
				}
			}
			if len(cm) == 0 {
				delete(changed, k)
			}
		}
	}
	return nil
}

// jsonWrapped runs a JSON-engine rewrite on the single patch key k, with
// the documents' values there converted (cv invalid where current has
// none).
func jsonWrapped(patch map[string]any, k string, ov, cv reflect.Value, n *goval.Node, fn func(p, o, c map[string]any)) error {
	oj, err := goval.ToJSONValue(ov, n, false)
	if err != nil {
		return err
	}
	cur := map[string]any{}
	if cv.IsValid() {
		cj, err := goval.ToJSONValue(cv, n, false)
		if err != nil {
			return err
		}
		cur[k] = cj
	}
	sub := map[string]any{k: patch[k]}
	fn(sub, map[string]any{k: oj}, cur)
	if v, ok := sub[k]; ok {
		patch[k] = v
	} else {
		delete(patch, k)
	}
	return nil
}

// opaque reports a node whose JSON shape only its encoding tells.
func opaque(n *goval.Node) bool { return n.Marshaler || n.Kind == reflectschema.Untyped }

// isObjectNode reports whether non-null values of n are JSON objects.
func isObjectNode(n *goval.Node) bool {
	return n.Kind == reflectschema.Struct || n.Kind == reflectschema.Map
}

// childOf returns the value of key k in an object (struct or map; invalid
// when absent), its node, and whether it is present.
func childOf(v reflect.Value, n *goval.Node, k string) (reflect.Value, *goval.Node, bool) {
	if !v.IsValid() {
		return reflect.Value{}, nil, false
	}
	switch n.Kind {
	case reflectschema.Struct:
		f := n.ByName[k]
		if f == nil {
			return reflect.Value{}, nil, false
		}
		fv, ok := goval.FieldValue(v, f)
		return fv, f.Node, ok
	case reflectschema.Map:
		kv, err := goval.MapKeyFromText(k, v.Type().Key(), nil)
		if err != nil {
			return reflect.Value{}, nil, false
		}
		e := v.MapIndex(kv)
		return e, n.Elem, e.IsValid()
	}
	return reflect.Value{}, nil, false
}

// isEmptyColl is isEmptyCollection for a non-null value: an empty list,
// or an object holding only nulls and empty collections.
func isEmptyColl(v reflect.Value, n *goval.Node) bool {
	if opaque(n) {
		j, err := goval.ToJSONValue(v, n, false)
		return err == nil && jsonwalk.IsEmptyCollection(j)
	}
	switch n.Kind {
	case reflectschema.Struct:
		for _, f := range n.Fields {
			fv, ok := goval.FieldValue(v, f)
			if ok && !nullOrEmpty(fv, f.Node) {
				return false
			}
		}
		return true
	case reflectschema.Map:
		if n.StringMap {
			return v.Len() == 0
		}
		it := v.MapRange()
		for it.Next() {
			if !nullOrEmpty(it.Value(), n.Elem) {
				return false
			}
		}
		return true
	case reflectschema.List, reflectschema.Atomic:
		return v.Len() == 0
	}
	return false
}

// nullOrEmpty reports a value that is null or an empty collection.
func nullOrEmpty(v reflect.Value, n *goval.Node) bool {
	if opaque(n) {
		j, err := goval.ToJSONValue(v, n, false)
		return err == nil && (j == nil || jsonwalk.IsEmptyCollection(j))
	}
	d, null := goval.DerefNull(v)
	return null || isEmptyColl(d, n)
}
