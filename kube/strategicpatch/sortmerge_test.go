package strategicpatch

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/mergepatch"
)

// sortMergeListsByName is the one unexported helper Kubernetes' own
// patch_test.go calls (the harness in ../upstreamtest compiles that file
// with this one): it sorts, recursively, every merge list of a JSON object
// by its merge key (a list of scalars is sorted and deduplicated), and
// the lists of $retainKeys and $deleteFromPrimitiveList, so that patches
// compare without regard to merge lists' order. Written on the exported
// LookupPatchMeta.
func sortMergeListsByName(doc []byte, schema LookupPatchMeta) ([]byte, error) {
	var m map[string]interface{}
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, mergepatch.ErrBadJSONDoc
	}
	sorted, err := sortObject(m, schema)
	if err != nil {
		return nil, err
	}
	return json.Marshal(sorted)
}

func sortObject(m map[string]interface{}, schema LookupPatchMeta) (map[string]interface{}, error) {
	out := make(map[string]interface{}, len(m))
	for k, v := range m {
		var err error
		switch {
		case k == "$retainKeys" || strings.HasPrefix(k, "$deleteFromPrimitiveList/"):
			l, ok := v.([]interface{})
			if !ok {
				if k == "$retainKeys" {
					return nil, mergepatch.ErrBadPatchFormatForRetainKeys
				}
				return nil, mergepatch.ErrBadPatchFormatForPrimitiveList
			}
			v = sortedScalars(l)
		case strings.HasPrefix(k, "$setElementOrder/"):
			if _, ok := v.([]interface{}); !ok {
				return nil, mergepatch.ErrBadPatchFormatForSetElementOrderList
			}
		case k == "$patch":
		default:
			v, err = sortValue(k, v, schema)
		}
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

func sortValue(k string, v interface{}, schema LookupPatchMeta) (interface{}, error) {
	switch tv := v.(type) {
	case map[string]interface{}:
		sub, _, err := schema.LookupPatchMetadataForStruct(k)
		if err != nil {
			return nil, err
		}
		return sortObject(tv, sub)
	case []interface{}:
		sub, meta, err := schema.LookupPatchMetadataForSlice(k)
		if err != nil {
			return nil, err
		}
		isMerge := false
		for _, s := range meta.GetPatchStrategies() {
			isMerge = isMerge || s == "merge"
		}
		if !isMerge || len(tv) == 0 {
			return tv, nil
		}
		return sortMergeList(tv, sub, meta.GetPatchMergeKey())
	}
	return v, nil
}

func sortMergeList(l []interface{}, elem LookupPatchMeta, key string) ([]interface{}, error) {
	var maps []map[string]interface{}
	for _, e := range l {
		switch te := e.(type) {
		case map[string]interface{}:
			sorted, err := sortObject(te, elem)
			if err != nil {
				return nil, err
			}
			maps = append(maps, sorted)
		case []interface{}:
			return nil, mergepatch.ErrNoListOfLists
		}
	}
	if len(maps) == 0 {
		return sortedScalars(l), nil
	}
	if len(maps) != len(l) {
		return nil, fmt.Errorf("list element types are not identical: %v", l)
	}
	ss := SortableSliceOfMaps{s: maps, k: key}
	sort.Stable(ss)
	out := make([]interface{}, len(maps))
	for i, m := range ss.s {
		out[i] = m
	}
	return out, nil
}

// sortedScalars returns the distinct values of l sorted by their text.
func sortedScalars(l []interface{}) []interface{} {
	seen := map[interface{}]bool{}
	var out []interface{}
	for _, v := range l {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Stable(SortableSliceOfScalars{s: out})
	if out == nil {
		out = []interface{}{}
	}
	return out
}
