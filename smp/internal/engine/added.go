package engine

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// Added prepares a value the patch adds whole, so that applying the patch
// a second time, now merging into what the first application added,
// changes nothing: a merge list of objects holding a duplicated key is
// written in its replace form, and an object holding a set with a value
// twice is replaced whole ($patch: replace). The value is copied only
// where something changes. v is a field's value, never an element of a
// merge list of objects (see addedElement).
func (d *Differ) Added(v any, s slot) any {
	out, _, whole := d.addedValue(v, s, true)
	if whole {
		return ReplaceObject(v.(map[string]any))
	}
	return out
}

// addedElement is added for an element of a merge list of objects. There
// $patch: replace would be the list's marker, replacing the list with the
// other elements and losing this one: whole says the element can only be
// written by replacing its list or re-creating it (a deletion, then the
// element), and then m comes back as it is.
//
// For servers as they are (serverForm) the element holds no directive:
// Kubernetes appends an element the live list lacks as the patch holds
// it, so a directive inside would be stored. One that needs a replace
// form inside is whole.
func (d *Differ) addedElement(m map[string]any, es slot) (map[string]any, bool) {
	server := d.serverForm()
	out, changed, whole := d.addedValue(m, es, !server)
	if whole || changed && server {
		return m, true
	}
	return out.(map[string]any), false
}

// serverForm reports whether the differ writes for servers as they are
// (a differ that does not write $patchMergeKey, or is skew-safe): there a
// value the patch adds holds no directive a server would store or act on
// differently from this engine.
func (d *Differ) serverForm() bool {
	return d.Cfg.SkewSafe || !d.Cfg.Directives.Understood(format.DirPatchMergeKey)
}

// addedValue returns v's idempotent form and whether it differs from v;
// name says to name elements by every recommended key ($patchMergeKey)
// where the differ writes it.
// whole says v is an object holding a set with a value twice: only
// replacing the object writes it, which the caller does in the form its
// position allows.
func (d *Differ) addedValue(v any, s slot, name bool) (out any, changed, whole bool) {
	switch x := v.(type) {
	case map[string]any:
		if k := s.Kind(); k == reflectschema.Atomic || k == reflectschema.Untyped {
			return v, false, false
		}
		var res map[string]any
		for k, e := range x {
			c := s.Child(k)
			if setWithDuplicates(e, c) {
				return v, true, true
			}
			ne, changed, w := d.addedValue(e, c, name)
			if !changed {
				continue
			}
			if w {
				ne = ReplaceObject(e.(map[string]any)) // a field's object
			}
			if res == nil {
				res = make(map[string]any, len(x))
				for k2, e2 := range x {
					res[k2] = e2
				}
			}
			res[k] = ne
		}
		if res != nil {
			return res, true, false
		}
	case []any:
		if !s.IsMergeList() || !s.IsObjectList() {
			// A set holding a value twice is the caller's (setWithDuplicates).
			return v, false, false
		}
		return d.addedObjectList(x, s, name)
	}
	return v, false, false
}

// addedObjectList is addedValue for a merge list of objects: its replace
// form when an element cannot be merged by key (its key field is absent,
// as an omitempty zero value is) or not twice (a duplicated key, or an
// element to be replaced whole), else each element's idempotent form.
func (d *Differ) addedObjectList(x []any, s slot, name bool) (any, bool, bool) {
	es := s.Elem()
	var out []any
	for i, e := range x {
		ne, changed, whole := d.addedValue(e, es, name)
		if whole {
			return ReplaceList(x), true, false
		}
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
	ks, def := d.ListKeySet(s), format.KeysOf(s).DefaultSet()
	if !keyable(list, def) || hasDuplicates(idsUnder(ks, list)) ||
		d.Cfg.SkewSafe && ks.Directive && hasDuplicates(idsUnder(def, list)) {
		return ReplaceList(list), true, false
	}
	if ks.Directive && name {
		// Name each element by every recommended key, as the differ
		// does everywhere, so a second application matches it exactly.
		named := make([]any, len(list))
		for i, e := range list {
			if m, ok := e.(map[string]any); ok {
				named[i] = WithKeyDirective(m, ks, false)
			} else {
				named[i] = e
			}
		}
		return named, true, false
	}
	return list, changed, false
}

// setWithDuplicates reports whether v is a merge list of scalars holding a
// value twice: a patch can only carry it by replacing the object holding
// it.
func setWithDuplicates(v any, s slot) bool {
	l, ok := v.([]any)
	return ok && s.IsMergeList() && !s.IsObjectList() && hasDuplicates(scalarIDs(l))
}
