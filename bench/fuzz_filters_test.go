package bench

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// agreeInput is one FuzzKubernetesAgreement input, decoded.
type agreeInput struct{ original, patch any }

// agreeFilter recognises one difference docs/compat.md lists. applies
// says whether the input can show it; normalize removes it from copies of
// the two results (ours, Kubernetes'). The filters are tried in order,
// each normalizing what the previous left, until the results are equal:
// every filter used is counted.
type agreeFilter struct {
	heading   string // the docs/compat.md heading
	applies   func(in agreeInput, ours, theirs any) bool
	normalize func(in agreeInput, ours, theirs any) (any, any)
}

var agreeFilters = []agreeFilter{
	{
		// {x: {$patch: delete}} leaves x: {} in Kubernetes' result.
		heading: "delete directive on a map",
		applies: func(in agreeInput, _, _ any) bool { return hasObjectDirective(in.patch, "delete") },
		normalize: func(_ agreeInput, ours, theirs any) (any, any) {
			return ours, dropEmptyObjectsOursLacks(ours, theirs)
		},
	},
	{
		// {x: {$patch: replace, ...}} where the original has no x: Kubernetes
		// drops x, this engine sets it.
		heading: "replace directive on an absent map",
		applies: func(in agreeInput, _, _ any) bool { return hasObjectDirective(in.patch, "replace") },
		normalize: func(in agreeInput, ours, theirs any) (any, any) {
			return dropAbsentReplaced(in.patch, in.original, ours, theirs), theirs
		},
	},
	{
		// Kubernetes copies a value it adds without merging as it is: its
		// directives and nulls stay in the result.
		heading: "directives in added values",
		applies: func(_ agreeInput, _, theirs any) bool { return holdsDirectiveOrNull(theirs) },
		normalize: func(_ agreeInput, ours, theirs any) (any, any) {
			return stripDirectivesAndNulls(ours), stripDirectivesAndNulls(theirs)
		},
	},
	{
		// A list element deleted and re-created by one patch with
		// $setElementOrder: Kubernetes moves it after the live elements
		// the order does not name, this engine keeps its live place. Only
		// the re-created elements' places are set aside.
		heading: "a recreated element keeps its place",
		applies: func(in agreeInput, _, _ any) bool { return len(recreatedLists(in.patch, nil)) > 0 },
		normalize: func(in agreeInput, ours, theirs any) (any, any) {
			for _, r := range recreatedLists(in.patch, nil) {
				ours, theirs = moveRecreatedLast(ours, r), moveRecreatedLast(theirs, r)
			}
			return ours, theirs
		},
	},
	{
		// $setElementOrder/x: [] with items for x: Kubernetes skips its
		// check that the order names the items and sorts them by a
		// comparison that puts every one first. Only the order of such a
		// list is set aside.
		heading: "an empty setelementorder keeps the patch order",
		applies: func(in agreeInput, _, _ any) bool { return len(emptyOrderLists(in.patch)) > 0 },
		normalize: func(in agreeInput, ours, theirs any) (any, any) {
			for _, path := range emptyOrderLists(in.patch) {
				ours, theirs = sortListAt(ours, path), sortListAt(theirs, path)
			}
			return ours, theirs
		},
	},
	{
		// Kubernetes decodes numbers to int64 or float64 and writes them
		// back: an integer beyond int64 is rounded.
		heading: "integers stay exact",
		applies: func(_ agreeInput, ours, theirs any) bool { return agreeEqual(ours, theirs, floatNumbers) },
		normalize: func(_ agreeInput, ours, _ any) (any, any) {
			return ours, ours
		},
	},
	{
		// A list $patch: replace replaces, two of whose elements share a
		// value: Kubernetes moves the elements sharing a key next to the
		// first of them. Only the order of lists holding the same
		// elements is set aside.
		heading: "duplicated merge keys",
		applies: func(in agreeInput, _, _ any) bool { return replacesRepeats(in.patch) },
		normalize: func(_ agreeInput, ours, theirs any) (any, any) {
			return theirsOrder(ours, theirs), theirs
		},
	},
}

// floatNumbers compares two JSON numbers as float64 values, as Kubernetes
// sees them.
func floatNumbers(a, b json.Number) bool {
	x, err1 := strconv.ParseFloat(string(a), 64)
	y, err2 := strconv.ParseFloat(string(b), 64)
	return err1 == nil && err2 == nil && x == y
}

// hasObjectDirective reports whether the patch holds {$patch: what} as the
// value of an object's field (not as a list element, where it is a list
// directive).
func hasObjectDirective(p any, what string) bool {
	switch x := p.(type) {
	case map[string]any:
		for _, v := range x {
			if m, ok := v.(map[string]any); ok && m["$patch"] == what {
				return true
			}
			if hasObjectDirective(v, what) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasObjectDirective(e, what) { // an element's own $patch is a list directive
				return true
			}
		}
	}
	return false
}

// dropEmptyObjectsOursLacks returns theirs without the empty objects at
// fields ours lacks, through objects and lists of one length.
func dropEmptyObjectsOursLacks(ours, theirs any) any {
	switch t := theirs.(type) {
	case map[string]any:
		o, _ := ours.(map[string]any)
		out := make(map[string]any, len(t))
		for k, v := range t {
			ov, inO := o[k]
			if m, ok := v.(map[string]any); ok && len(m) == 0 && !inO {
				continue
			}
			out[k] = dropEmptyObjectsOursLacks(ov, v)
		}
		return out
	case []any:
		o, _ := ours.([]any)
		out := make([]any, len(t))
		for i, v := range t {
			var ov any
			if len(o) == len(t) {
				ov = o[i]
			}
			out[i] = dropEmptyObjectsOursLacks(ov, v)
		}
		return out
	}
	return theirs
}

// dropAbsentReplaced returns ours without the fields, reached through
// objects, that the patch sets with $patch: replace where the original
// has none and Kubernetes' result has none.
func dropAbsentReplaced(patch, original, ours, theirs any) any {
	p, _ := patch.(map[string]any)
	o, ok := ours.(map[string]any)
	if !ok || p == nil {
		return ours
	}
	orig, _ := original.(map[string]any)
	t, _ := theirs.(map[string]any)
	out := make(map[string]any, len(o))
	for k, v := range o {
		pv, _ := p[k].(map[string]any)
		_, inOrig := orig[k]
		_, inT := t[k]
		if pv != nil && pv["$patch"] == "replace" && !inOrig && !inT {
			continue
		}
		out[k] = dropAbsentReplaced(p[k], orig[k], v, t[k])
	}
	return out
}

// holdsDirectiveOrNull reports whether a result holds a "$" key or a null.
func holdsDirectiveOrNull(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil || strings.HasPrefix(k, "$") || holdsDirectiveOrNull(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if e == nil || holdsDirectiveOrNull(e) {
				return true
			}
		}
	}
	return false
}

// stripDirectivesAndNulls returns v without "$" keys, null fields, and
// list elements holding $patch.
func stripDirectivesAndNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e != nil && !strings.HasPrefix(k, "$") {
				out[k] = stripDirectivesAndNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			if m, ok := e.(map[string]any); ok && m["$patch"] != nil {
				continue
			}
			out = append(out, stripDirectivesAndNulls(e))
		}
		return out
	}
	return v
}

// recreated names a list a patch orders with $setElementOrder in which it
// deletes an element and creates one of the same key: the list's path
// through objects, and the deleted elements' key fields.
type recreated struct {
	path []string
	keys []map[string]any
}

// recreatedLists finds the recreated lists of a patch, through objects.
func recreatedLists(p any, path []string) []recreated {
	var out []recreated
	eachOrderedList(p, path, func(path []string, _, list []any) {
		if keys := deletedAndCreated(list); len(keys) > 0 {
			out = append(out, recreated{path: path, keys: keys})
		}
	})
	return out
}

// eachOrderedList calls visit with the path, the $setElementOrder list and
// the patch list of every list a patch (through objects) both holds and
// orders.
func eachOrderedList(p any, path []string, visit func(path []string, order, list []any)) {
	m, ok := p.(map[string]any)
	if !ok {
		return
	}
	for k, v := range m {
		if list, ok := v.([]any); ok {
			if order, ordered := m["$setElementOrder/"+k].([]any); ordered {
				visit(append(slices.Clone(path), k), order, list)
			}
			continue
		}
		if !strings.HasPrefix(k, "$") {
			eachOrderedList(v, append(slices.Clone(path), k), visit)
		}
	}
}

// emptyOrderLists finds the lists a patch gives items and an empty
// $setElementOrder.
func emptyOrderLists(p any) [][]string {
	var out [][]string
	eachOrderedList(p, nil, func(path []string, order, list []any) {
		if len(order) == 0 && len(list) > 0 {
			out = append(out, path)
		}
	})
	return out
}

// sortListAt returns doc with the list at path sorted by its elements'
// JSON, the rest as it was.
func sortListAt(doc any, path []string) any {
	return withListAt(doc, path, func(list []any) []any {
		out := slices.Clone(list)
		slices.SortStableFunc(out, func(a, b any) int {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			return strings.Compare(string(ja), string(jb))
		})
		return out
	})
}

// withListAt returns doc with the list at path (through objects) replaced
// by edit's result, the rest shared with doc; doc as it is where there is
// no list at path.
func withListAt(doc any, path []string, edit func([]any) []any) any {
	if len(path) == 0 {
		if list, ok := doc.([]any); ok {
			return edit(list)
		}
		return doc
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return doc
	}
	v, ok := m[path[0]]
	if !ok {
		return doc
	}
	out := maps.Clone(m)
	out[path[0]] = withListAt(v, path[1:], edit)
	return out
}

// deletedAndCreated returns the key fields of each {$patch: delete}
// element of list that another element of list matches.
func deletedAndCreated(list []any) []map[string]any {
	var keys []map[string]any
	for _, e := range list {
		d, ok := e.(map[string]any)
		if !ok || d["$patch"] != "delete" {
			continue
		}
		key := map[string]any{}
		for f, v := range d {
			if f != "$patch" {
				key[f] = v
			}
		}
		for _, o := range list {
			if om, ok := o.(map[string]any); ok && om["$patch"] == nil && matchesKey(om, key) {
				keys = append(keys, key)
				break
			}
		}
	}
	return keys
}

func matchesKey(elem, key map[string]any) bool {
	for f, v := range key {
		if !agreeEqual(elem[f], v, exactNumbers) {
			return false
		}
	}
	return true
}

// moveRecreatedLast returns doc with the list at r.path holding the
// elements r names last, in their order, the others as they were.
func moveRecreatedLast(doc any, r recreated) any {
	return withListAt(doc, r.path, func(list []any) []any {
		var rest, moved []any
		for _, e := range list {
			m, isMap := e.(map[string]any)
			if isMap && slices.ContainsFunc(r.keys, func(k map[string]any) bool { return matchesKey(m, k) }) {
				moved = append(moved, e)
			} else {
				rest = append(rest, e)
			}
		}
		return append(rest, moved...)
	})
}
