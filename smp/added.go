package smp

import "github.com/typedpatch/typedpatch/reflectschema"

// added prepares a value the patch adds whole, so that applying the patch
// a second time, now merging into what the first application added,
// changes nothing: a merge list of objects holding a duplicated key is
// written in its replace form, and an object holding a set with a value
// twice is replaced whole ($patch: replace). The value is copied only
// where something changes.
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
			if setWithDuplicates(e, s.child(k)) {
				return replaceObject(x), true
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
		if !s.isMergeList() {
			return v, false
		}
		if !s.isObjectList() {
			// A set holding a value twice: merging it again would fold the
			// copies; the caller replaces the object holding it.
			if hasDuplicates(scalarIDs(x)) {
				return x, true
			}
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
		ks := d.listKeySet(s)
		if hasDuplicates(idsUnder(ks, list)) ||
			d.cfg.skewSafe && ks.directive && hasDuplicates(idsUnder(keysOf(s).defaultSet(), list)) {
			return replaceList(list), true
		}
		if ks.directive {
			// Name each element by every recommended key, as the differ
			// does everywhere, so a second application matches it exactly.
			named := make([]any, len(list))
			for i, e := range list {
				if m, ok := e.(map[string]any); ok {
					named[i] = withKeyDirective(m, ks, false)
				} else {
					named[i] = e
				}
			}
			return named, true
		}
		return list, changed
	}
	return v, false
}

// setWithDuplicates reports whether v is a merge list of scalars holding a
// value twice: a patch can only carry it by replacing the object holding
// it.
func setWithDuplicates(v any, s slot) bool {
	l, ok := v.([]any)
	return ok && s.isMergeList() && !s.isObjectList() && hasDuplicates(scalarIDs(l))
}
