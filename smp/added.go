package smp

import "github.com/typedpatch/typedpatch/reflectschema"

// added prepares a value the patch adds whole. A merge list of objects in
// it that holds a duplicated key is written in its replace form: applied a
// second time, the patch then merges into what the first application
// added, and a plain list would fold the duplicates into one element. The
// value is copied only where something changes.
func (d *differ) added(v any, s slot) any {
	out, _ := d.addedValue(v, s)
	return out
}

func (d *differ) addedValue(v any, s slot) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		if k := s.kind(); k == reflectschema.Atomic || k == reflectschema.Untyped {
			return v, false
		}
		var out map[string]any
		for k, e := range x {
			ne, changed := d.addedValue(e, s.child(k))
			if !changed {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(x))
				for k2, e2 := range x {
					out[k2] = e2
				}
			}
			out[k] = ne
		}
		if out != nil {
			return out, true
		}
	case []any:
		if !s.isMergeList() || !s.isObjectList() {
			return v, false
		}
		es := s.elem()
		var out []any
		for i, e := range x {
			ne, changed := d.addedValue(e, es)
			if changed && out == nil {
				out = append([]any(nil), x...)
			}
			if out != nil {
				out[i] = ne
			}
		}
		list, changed := x, out != nil
		if changed {
			list = out
		}
		if hasDuplicates(idsUnder(d.listKeySet(s), list)) {
			return replaceList(list), true
		}
		return list, changed
	}
	return v, false
}
