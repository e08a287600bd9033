package property

import "fmt"

// The Order property's check: a list's labels in the patch's order.

// checkOrder walks a patch with modified and the result: wherever the
// patch holds $setElementOrder for a list, the result's list must hold
// modified's items in modified's relative order.
func checkOrder(patch, m, r any, n node, path string) []string {
	pm, ok := patch.(map[string]any)
	if !ok || n.wholeObject() {
		return nil
	}
	mm, _ := m.(map[string]any)
	rm, _ := r.(map[string]any)
	var out []string
	for _, k := range sortedMapKeys(pm) {
		pv := pm[k]
		if name, ok := cutPrefix(k, "$setElementOrder/"); ok {
			ln := n.child(name)
			mo, ro := listLabels(mm[name], ln), listLabels(rm[name], ln)
			if want, got := relativeOrder(mo, ro), relativeOrder(ro, mo); !equalStrings(want, got) {
				out = append(out, fmt.Sprintf("%s: modified's items in the order %v, want %v", joinField(path, name), got, want))
			}
			continue
		}
		if len(k) > 0 && k[0] == '$' {
			continue
		}
		c := n.child(k)
		switch x := pv.(type) {
		case map[string]any:
			out = append(out, checkOrder(x, mm[k], rm[k], c, joinField(path, k))...)
		case []any:
			if !c.keyedList() {
				continue
			}
			keys := c.fullKey()
			me := elementsByPath(mm[k], joinField(path, k), keys)
			re := elementsByPath(rm[k], joinField(path, k), keys)
			for _, pe := range x {
				em, ok := pe.(map[string]any)
				if !ok {
					continue
				}
				if _, directive := em["$patch"]; directive {
					continue
				}
				ep := joinField(path, k) + keyStep(keys, em)
				out = append(out, checkOrder(em, me[ep], re[ep], c.elem(), ep)...)
			}
		}
	}
	return out
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// listLabels names a merge list's items as paths print them: [name=a]
// for objects, the value for scalars.
func listLabels(v any, n node) []string {
	l, _ := v.([]any)
	out := make([]string, len(l))
	for i, e := range l {
		if m, ok := e.(map[string]any); ok && n.isObjectList() {
			out[i] = keyStep(n.fullKey(), m)
		} else {
			out[i] = scalarText(e)
		}
	}
	return out
}
