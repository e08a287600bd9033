package strategicpatch

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// MergeStrategicMergeMapPatchUsingLookupPatchMeta merges patches into one,
// later ones winning where two set the same field: nulls, directives and
// $setElementOrder lists are kept (the last one of a list wins), merge
// lists are merged by key, $deleteFromPrimitiveList lists joined. Use
// MergingMapsHaveConflicts first to refuse patches that overlap. No
// argument is changed.
func MergeStrategicMergeMapPatchUsingLookupPatchMeta(schema LookupPatchMeta, patches ...JSONMap) (JSONMap, error) {
	docs := make([]map[string]interface{}, len(patches))
	for i, p := range patches {
		data, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		if docs[i], err = decodeMap(data); err != nil {
			return nil, err
		}
	}
	t, err := schemaOf(schema, docs...)
	if err != nil {
		return nil, err
	}
	merged := map[string]interface{}{}
	for _, p := range docs {
		merged = mergePatchObjects(merged, p, t)
	}
	return merged, nil
}

// mergePatchObjects merges patch object b into a (b is later).
func mergePatchObjects(a, b map[string]interface{}, t *reflectschema.Type) map[string]interface{} {
	if d, ok := b["$patch"]; ok && (d == "replace" || d == "delete") {
		return b
	}
	res := make(map[string]interface{}, len(a)+len(b))
	for k, v := range a {
		res[k] = v
	}
	for k, v := range b {
		switch {
		case strings.HasPrefix(k, "$deleteFromPrimitiveList/"):
			list := strings.TrimPrefix(k, "$deleteFromPrimitiveList/")
			dels, _ := v.([]interface{})
			res[k] = unionScalars(res[k], dels)
			if l, ok := res[list].([]interface{}); ok {
				res[list] = withoutScalars(l, dels)
			}
		case strings.HasPrefix(k, "$"):
			res[k] = v
		default:
			res[k] = mergePatchValues(res, k, v, t)
		}
	}
	return res
}

// mergePatchValues merges the later value v of field k into res[k].
func mergePatchValues(res map[string]interface{}, k string, v interface{}, t *reflectschema.Type) interface{} {
	f := t.Field(k)
	var ft *reflectschema.Type
	var meta reflectschema.PatchMeta
	if f != nil {
		ft, meta = f.Type, f.Patch
	}
	switch bv := v.(type) {
	case map[string]interface{}:
		if av, ok := res[k].(map[string]interface{}); ok && meta.Strategy != reflectschema.Replace {
			return mergePatchObjects(av, bv, ft)
		}
	case []interface{}:
		av, ok := res[k].([]interface{})
		if !ok || ft == nil || ft.Kind != reflectschema.List || !meta.IsMergeList() {
			return v
		}
		if len(meta.MergeKey) == 0 {
			dk := "$deleteFromPrimitiveList/" + k
			if dels, ok := res[dk].([]interface{}); ok {
				res[dk] = withoutScalars(dels, bv)
			}
			return unionScalars(av, bv)
		}
		return mergeKeyedLists(av, bv, meta.MergeKey, ft.Elem)
	}
	return v
}

// mergeKeyedLists merges the elements of b into a by merge key.
func mergeKeyedLists(a, b []interface{}, key []string, elem *reflectschema.Type) []interface{} {
	out := append([]interface{}(nil), a...)
	at := map[string]int{}
	for i, e := range out {
		if id, ok := elementID(e, key); ok {
			at[id] = i
		}
	}
	for _, e := range b {
		id, ok := elementID(e, key)
		i, found := at[id]
		if !ok || !found {
			out = append(out, e)
			if ok {
				at[id] = len(out) - 1
			}
			continue
		}
		am, aok := out[i].(map[string]interface{})
		bm, bok := e.(map[string]interface{})
		if aok && bok && am["$patch"] == nil {
			out[i] = mergePatchObjects(am, bm, elem)
		} else {
			out[i] = e
		}
	}
	return out
}

// elementID is the text of an element's merge key values.
func elementID(e interface{}, key []string) (string, bool) {
	m, ok := e.(map[string]interface{})
	if !ok {
		return "", false
	}
	var b strings.Builder
	for _, k := range key {
		v, ok := m[k]
		if !ok {
			return "", false
		}
		j := jsonText(v)
		fmt.Fprintf(&b, "%d:%s", len(j), j)
	}
	return b.String(), true
}

// unionScalars appends to a's list the values of b it lacks.
func unionScalars(a interface{}, b []interface{}) []interface{} {
	l, _ := a.([]interface{})
	out := append([]interface{}(nil), l...)
	seen := map[string]bool{}
	for _, v := range out {
		seen[jsonText(v)] = true
	}
	for _, v := range b {
		if j := jsonText(v); !seen[j] {
			seen[j] = true
			out = append(out, v)
		}
	}
	return out
}

// withoutScalars returns l without the values of drop.
func withoutScalars(l, drop []interface{}) []interface{} {
	gone := map[string]bool{}
	for _, v := range drop {
		gone[jsonText(v)] = true
	}
	out := make([]interface{}, 0, len(l))
	for _, v := range l {
		if !gone[jsonText(v)] {
			out = append(out, v)
		}
	}
	return out
}

// jsonText is v's JSON text, which identifies decoded values by value.
func jsonText(v interface{}) string {
	j, _ := json.Marshal(v)
	return string(j)
}
