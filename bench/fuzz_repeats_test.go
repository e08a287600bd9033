package bench

import (
	"encoding/json"
	"slices"
)

// replacesRepeats reports whether patch p holds a list with a
// $patch: replace element and two objects sharing a field's scalar value.
func replacesRepeats(p any) bool {
	switch x := p.(type) {
	case map[string]any:
		for _, v := range x {
			if replacesRepeats(v) {
				return true
			}
		}
	case []any:
		if hasMarker(x) && sharesValue(x) {
			return true
		}
		for _, e := range x {
			if replacesRepeats(e) {
				return true
			}
		}
	}
	return false
}

// hasMarker reports whether a patch list holds {$patch: replace}.
func hasMarker(l []any) bool {
	for _, e := range l {
		if m, ok := e.(map[string]any); ok && m["$patch"] == "replace" {
			return true
		}
	}
	return false
}

// sharesValue reports whether two objects of l have one field with one
// scalar value.
func sharesValue(l []any) bool {
	seen := map[string]bool{}
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok || m["$patch"] != nil {
			continue
		}
		for k, v := range m {
			switch v.(type) {
			case map[string]any, []any:
				continue
			}
			b, _ := json.Marshal(v)
			id := k + "\x00" + string(b)
			if seen[id] {
				return true
			}
			seen[id] = true
		}
	}
	return false
}

// theirsOrder returns ours with each list that holds the elements of the
// list at the same place in theirs, in another order, in theirs' order;
// objects and lists are walked in parallel (list elements by position).
func theirsOrder(ours, theirs any) any {
	switch o := ours.(type) {
	case map[string]any:
		t, ok := theirs.(map[string]any)
		if !ok {
			return ours
		}
		out := make(map[string]any, len(o))
		for k, v := range o {
			out[k] = theirsOrder(v, t[k])
		}
		return out
	case []any:
		t, ok := theirs.([]any)
		if !ok || len(t) != len(o) {
			return ours
		}
		if !slices.Equal(jsonTexts(o), jsonTexts(t)) && sameTexts(o, t) {
			return t
		}
		out := make([]any, len(o))
		for i := range o {
			out[i] = theirsOrder(o[i], t[i])
		}
		return out
	}
	return ours
}

func jsonTexts(l []any) []string {
	out := make([]string, len(l))
	for i, e := range l {
		b, _ := json.Marshal(e)
		out[i] = string(b)
	}
	return out
}

// sameTexts reports whether two lists hold the same elements, counted.
func sameTexts(a, b []any) bool {
	x, y := jsonTexts(a), jsonTexts(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
