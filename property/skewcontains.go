package property

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/typedpatch/typedpatch/smp"
)

// Whether a newer result contains an older one, for the skew
// properties.

// strip removes from a patch the directives set d lacks, and what held
// nothing else once they are gone: objects left empty, merge-list
// elements left with their key fields only, lists left empty. keys are
// the key fields when v is a merge-list element. drop says the caller
// should leave the value out.
func strip(v any, d smp.DirectiveSet, n node, keys []string) (out any, drop bool) {
	switch x := v.(type) {
	case map[string]any:
		res := make(map[string]any, len(x))
		emptied := false
		for k, e := range x {
			switch {
			case strings.HasPrefix(k, "$setElementOrder/") && d < smp.DirectivesSetElementOrder,
				k == "$retainKeys" && d < smp.DirectivesRetainKeys:
				emptied = true
				continue
			case k == "$patchMergeKey" && d < smp.DirectivesAll:
				continue
			}
			var c node
			if !strings.HasPrefix(k, "$") {
				c = n.child(k)
			}
			se, dropped := strip(e, d, c, nil)
			if dropped {
				emptied = true
				continue
			}
			res[k] = se
		}
		if emptied {
			only := true
			for k := range res {
				if !contains1(keys, k) {
					only = false
				}
			}
			if only {
				return nil, true
			}
		}
		return res, false
	case []any:
		res := make([]any, 0, len(x))
		var ekeys []string
		if n.keyedList() {
			ekeys = n.fullKey()
		}
		emptied := false
		for _, e := range x {
			se, dropped := strip(e, d, n.elem(), ekeys)
			if dropped {
				emptied = true
				continue
			}
			res = append(res, se)
		}
		if emptied && len(res) == 0 {
			return nil, true
		}
		return res, false
	}
	return v, false
}

func contains1(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

// contains lists what of the older patch old the newer patch nw lacks.
// Merge-list elements are matched by default key and directive, in any
// order; the lists at skip paths (rendered with default keys) are not
// compared.
func contains(old, nw any, n node, path string, skip map[string]bool) []string {
	if nw == nil && onlyDeletions(old) {
		return nil // deleting the whole object covers deleting its entries
	}
	switch ov := old.(type) {
	case map[string]any:
		return containsObject(ov, nw, n, path, skip)
	case []any:
		return containsList(ov, nw, n, path, skip)
	}
	if !reflect.DeepEqual(old, nw) {
		return []string{fmt.Sprintf("%s: %s, want %s", orRoot(path), show(nw, nw != nil), show(old, true))}
	}
	return nil
}

// containsObject is contains for an object of the older patch.
func containsObject(ov map[string]any, nw any, n node, path string, skip map[string]bool) []string {
	nm, ok := nw.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: %s, want an object", orRoot(path), show(nw, true))}
	}
	var out []string
	for _, k := range sortedMapKeys(ov) {
		oe := ov[k]
		ne, ok := nm[k]
		kp := joinField(path, k)
		if skip[kp] {
			continue
		}
		if name, isOrder := cutPrefix(k, "$setElementOrder/"); isOrder {
			if nl, ok := nm[name].([]any); skip[joinField(path, name)] || ok && hasMarker(nl) {
				continue // a list replaced whole carries its order
			}
			if _, ok := nm[k]; !ok && nm[name] == nil && ov[name] != nil &&
				len(contains(ov[name], []any{}, n.child(name), joinField(path, name), skip)) == 0 {
				continue // the older patch orders a list whose changes are all skipped
			}
		}
		if !ok {
			_, isMap := oe.(map[string]any)
			_, isList := oe.([]any)
			switch {
			case strings.HasPrefix(k, "$") || !isMap && !(isList && n.child(k).keyedList()):
				out = append(out, fmt.Sprintf("%s: absent, want %s", kp, show(oe, true)))
				continue
			case isMap:
				ne = map[string]any{} // what lies below may be skipped
			default:
				ne = []any{}
			}
		}
		switch name, isOrder := cutPrefix(k, "$setElementOrder/"); {
		case isOrder:
			lp := joinField(path, name)
			ln := n.child(name)
			if skip[lp] {
				continue
			}
			if ln.isObjectList() {
				if !reflect.DeepEqual(idsOf(oe, ln.defaultKey()), idsOf(ne, ln.defaultKey())) {
					out = append(out, fmt.Sprintf("%s: %s, want %s", kp, show(ne, true), show(oe, true)))
				}
			} else if !reflect.DeepEqual(oe, ne) {
				out = append(out, fmt.Sprintf("%s: %s, want %s", kp, show(ne, true), show(oe, true)))
			}
		case strings.HasPrefix(k, "$deleteFromPrimitiveList/"):
			if !sameSet(oe, ne) {
				out = append(out, fmt.Sprintf("%s: %s, want %s", kp, show(ne, true), show(oe, true)))
			}
		case strings.HasPrefix(k, "$"):
			if !reflect.DeepEqual(oe, ne) {
				out = append(out, fmt.Sprintf("%s: %s, want %s", kp, show(ne, true), show(oe, true)))
			}
		default:
			out = append(out, contains(oe, ne, n.child(k), kp, skip)...)
		}
	}
	return out
}

// containsList is contains for a list of the older patch.
func containsList(ov []any, nw any, n node, path string, skip map[string]bool) []string {
	nl, ok := nw.([]any)
	if !ok {
		return []string{fmt.Sprintf("%s: %s, want a list", orRoot(path), show(nw, true))}
	}
	switch {
	case n.keyedList():
		return containsKeyed(ov, nl, n, path, skip)
	case n.isMergeList():
		var out []string
		have := map[string]bool{}
		for _, e := range nl {
			have[scalarID(e)] = true
		}
		for _, e := range ov {
			if !have[scalarID(e)] {
				out = append(out, fmt.Sprintf("%s: lacks %s", path, show(e, true)))
			}
		}
		return out
	}
	if !reflect.DeepEqual(ov, nl) {
		return []string{fmt.Sprintf("%s: %s, want %s", path, show(nl, true), show(ov, true))}
	}
	return nil
}

// containsKeyed is contains for a merge list of objects: each element of
// the older patch is found in the newer one by default key and directive.
func containsKeyed(ov, nl []any, n node, path string, skip map[string]bool) []string {
	if skip[path] || hasMarker(nl) {
		return nil // a list the newer patch replaces whole covers the older one's
	}
	def := n.defaultKey()
	var out []string
	for _, oe := range ov {
		om, _ := oe.(map[string]any)
		dir := om["$patch"]
		if dir == "replace" && len(om) == 1 {
			if !hasMarker(nl) {
				out = append(out, path+": no {$patch: replace}, want one")
			}
			continue
		}
		ep := path + keyStep(def, om)
		var best []string
		found := false
		for _, ne := range nl {
			nm, _ := ne.(map[string]any)
			if nm == nil || nm["$patch"] != dir || elementID(def, nm) != elementID(def, om) {
				continue
			}
			ms := contains(om, nm, n.elem(), ep, skip)
			if len(ms) == 0 {
				found = true
				break
			}
			if best == nil {
				best = ms
			}
		}
		if !found && dir == nil {
			// An element whose every change lies in skipped lists.
			keys := map[string]any{}
			for _, k := range def {
				if v, ok := om[k]; ok {
					keys[k] = v
				}
			}
			found = len(contains(om, keys, n.elem(), ep, skip)) == 0
		}
		if !found && dir == "delete" && skippedBelow(skip, ep) {
			found = true // the older differ re-creates an element holding a skipped list
		}
		if !found {
			if best == nil {
				best = []string{fmt.Sprintf("%s: no such element, want %s", ep, show(oe, true))}
			}
			out = append(out, best...)
		}
	}
	return out
}

// skippedBelow reports whether skip holds a path inside element path ep.
func skippedBelow(skip map[string]bool, ep string) bool {
	for p := range skip {
		if strings.HasPrefix(p, ep+".") || strings.HasPrefix(p, ep+"[") {
			return true
		}
	}
	return false
}

func orRoot(p string) string {
	if p == "" {
		return "<root>"
	}
	return p
}

func hasMarker(l []any) bool {
	for _, e := range l {
		if m, ok := e.(map[string]any); ok && m["$patch"] == "replace" {
			return true
		}
	}
	return false
}

func idsOf(v any, keys []string) []string {
	l, _ := v.([]any)
	ids := make([]string, len(l))
	for i, e := range l {
		ids[i] = elementID(keys, e)
	}
	return ids
}

func sameSet(a, b any) bool {
	al, _ := a.([]any)
	bl, _ := b.([]any)
	return reflect.DeepEqual(scalarIDs(al), scalarIDs(bl))
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("%q", err.Error()))
	}
	return b
}

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
