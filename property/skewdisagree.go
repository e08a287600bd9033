package property

import (
	"strings"

	"github.com/typedpatch/typedpatch/smp"
)

// Where an old and a new engine may disagree on a patch: lists whose
// default keys repeat, deletions only, union members.

// disagreements returns the merge lists with recommended keys (rendered
// with default keys) where pairing elements by the default key differs
// from pairing them by the whole key, for each pair of documents: the
// default key is shared in a list (unless skew-safe mode writes such
// lists whole, as the older differ does), or an element of the second
// document has a partner in the first by one key and not by the other.
func disagreements(root node, skewSafe bool, pairs ...[2]any) map[string]bool {
	out := map[string]bool{}
	for _, p := range pairs {
		disagree(p[0], p[1], root, "", skewSafe, out)
	}
	return out
}

func disagree(a, b any, n node, path string, skewSafe bool, out map[string]bool) {
	switch bv := b.(type) {
	case map[string]any:
		if n.wholeObject() {
			return
		}
		am, _ := a.(map[string]any)
		for k, e := range bv {
			disagree(am[k], e, n.child(k), joinField(path, k), skewSafe, out)
		}
	case []any:
		if !n.keyedList() {
			return
		}
		al, _ := a.([]any)
		def, full := n.defaultKey(), n.fullKey()
		if n.hasRecommended() {
			if repeatsKey(al, def) || repeatsKey(bv, def) {
				if !skewSafe {
					out[path] = true
				}
				return
			}
			aDef, aFull := map[string]bool{}, map[string]bool{}
			for _, e := range al {
				aDef[elementID(def, e)] = true
				aFull[elementID(full, e)] = true
			}
			for _, e := range bv {
				if aDef[elementID(def, e)] != aFull[elementID(full, e)] {
					out[path] = true
					return
				}
			}
		}
		byDef := map[string]any{}
		for _, e := range al {
			byDef[elementID(def, e)] = e
		}
		for _, e := range bv {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			disagree(byDef[elementID(def, e)], e, n.elem(), path+keyStep(def, m), skewSafe, out)
		}
	}
}

func repeatsKey(l []any, keys []string) bool {
	seen := map[string]bool{}
	for _, e := range l {
		id := elementID(keys, e)
		if seen[id] {
			return true
		}
		seen[id] = true
	}
	return false
}

// onlyDeletions reports whether a patch value is an object that only
// deletes entries, at any depth.
func onlyDeletions(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, e := range m {
		if e != nil && !onlyDeletions(e) {
			return false
		}
	}
	return true
}

// unionDeletions adds to out the paths (merge-list elements by default
// key, as contains names them) of the union members a patch deletes
// whole beside $retainKeys.
func unionDeletions(patch any, n node, path string, out map[string]bool) {
	switch x := patch.(type) {
	case map[string]any:
		_, retain := x["$retainKeys"]
		for k, v := range x {
			if strings.HasPrefix(k, "$") {
				continue
			}
			if v == nil && retain {
				out[joinField(path, k)] = true
			}
			unionDeletions(v, n.child(k), joinField(path, k), out)
		}
	case []any:
		if !n.keyedList() {
			return
		}
		for _, e := range x {
			if em, ok := e.(map[string]any); ok && em["$patch"] == nil {
				unionDeletions(em, n.elem(), path+keyStep(n.defaultKey(), em), out)
			}
		}
	}
}

// retainKeysOrders adds to out the paths (as contains names them) of the
// $setElementOrder directives whose merge list held nothing the
// directive set d keeps: elements that only carry $retainKeys, as a
// three-way patch writes for an element current added union members to.
// The newer differ orders every list it writes; the older differ writes
// no list there, and an order only if the order changed, which the
// stripped patch alone cannot tell.
func retainKeysOrders(patch any, d smp.DirectiveSet, n node, path string, out map[string]bool) {
	switch x := patch.(type) {
	case map[string]any:
		for k, v := range x {
			if strings.HasPrefix(k, "$") {
				continue
			}
			order := "$setElementOrder/" + k
			if l, ok := v.([]any); ok && len(l) > 0 && x[order] != nil {
				if _, emptied := strip(l, d, n.child(k), nil); emptied {
					out[joinField(path, order)] = true
				}
			}
			retainKeysOrders(v, d, n.child(k), joinField(path, k), out)
		}
	case []any:
		if !n.keyedList() {
			return
		}
		for _, e := range x {
			if em, ok := e.(map[string]any); ok && em["$patch"] == nil {
				retainKeysOrders(em, d, n.elem(), path+keyStep(n.defaultKey(), em), out)
			}
		}
	}
}
