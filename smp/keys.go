package smp

import (
	"slices"
	"strings"
)

// keySet is the set of fields that identify merge-list elements. Without
// $patchMergeKey it is the field's patchMergeKey, every field of which an
// element must carry. With $patchMergeKey it is the listed fields, and a
// listed field absent from the patch element matches only live elements
// where it is absent too (seed 000).
type keySet struct {
	fields []string
	// directive marks a set named by $patchMergeKey.
	directive bool
}

// sig identifies the set itself, to cache one index per set.
func (ks keySet) sig() string { return strings.Join(ks.fields, "\x00") }

const absentMark = "\x01"

// id returns the element's identity under ks. Absent fields have a mark
// no value has; complete reports whether every field was present.
func (ks keySet) id(elem map[string]any) (id string, complete bool) {
	if len(ks.fields) == 1 {
		v, ok := elem[ks.fields[0]]
		if !ok {
			return absentMark, false
		}
		return singleKey(v), true
	}
	var b strings.Builder
	complete = true
	for i, f := range ks.fields {
		if i > 0 {
			b.WriteByte(0)
		}
		v, ok := elem[f]
		if !ok {
			b.WriteString(absentMark)
			complete = false
			continue
		}
		k, _ := scalarKey(v)
		b.WriteString(k)
	}
	return b.String(), complete
}

// rawID is id for an object still in raw form: only its key fields are
// decoded, and nothing is allocated for a one-field key but the identity.
func (ks keySet) rawID(r rawJSON) string {
	if len(ks.fields) == 1 {
		var val rawJSON
		eachRawMember(r, func(k []byte, v rawJSON) bool {
			if keyIs(k, ks.fields[0]) {
				val = v
			}
			return true
		})
		if val == nil {
			return absentMark
		}
		return singleKey(expand(val))
	}
	vals := make(map[string]any, len(ks.fields))
	eachRawMember(r, func(k []byte, v rawJSON) bool {
		for _, f := range ks.fields {
			if keyIs(k, f) {
				vals[f] = expand(v)
			}
		}
		return true
	})
	id, _ := ks.id(vals)
	return id
}

// singleKey is the identity under a one-field key: a string is itself
// (no allocation), unless it starts with a control character; every other
// value, and such a string, is its scalarKey after a NUL, which no plain
// string starts with. absentMark and the other marks start with control
// characters too, so no two values share an identity.
func singleKey(v any) string {
	if s, ok := v.(string); ok && (s == "" || s[0] >= 0x20) {
		return s
	}
	k, _ := scalarKey(v)
	return "\x00" + k
}

// step renders the element's key for a path: [name=nginx].
func (ks keySet) step(elem map[string]any) KeyStep {
	s := make(KeyStep, 0, len(ks.fields))
	for _, f := range ks.fields {
		v, ok := elem[f]
		text := "<absent>"
		if ok {
			text = displayText(v)
		}
		s = append(s, KeyField{Name: f, Value: text})
	}
	return s
}

// listKeys is what a merge list of objects declares about its keys.
type listKeys struct {
	def, rec []string
}

func keysOf(s slot) listKeys {
	return listKeys{def: s.meta.MergeKey, rec: s.meta.RecommendedMergeKey}
}

func (lk listKeys) defaultSet() keySet { return keySet{fields: lk.def} }

// fullSet is every recommended key, as the differ writes $patchMergeKey.
func (lk listKeys) fullSet() keySet {
	if len(lk.rec) == 0 {
		return lk.defaultSet()
	}
	return keySet{fields: lk.rec, directive: true}
}

// elementKey reads the identity of a patch element (or a $setElementOrder
// entry): its $patchMergeKey if the applier understands it, else the
// default key. It checks that the key fields are present, not null, and
// scalars.
func (lk listKeys) elementKey(elem map[string]any, d DirectiveSet, at *pathNode) (keySet, string, error) {
	ks := lk.defaultSet()
	if raw, ok := elem[keyPatchMergeKey]; ok && d.understood(dirPatchMergeKey) {
		var err error
		if ks, err = lk.parseDirective(raw, at); err != nil {
			return keySet{}, "", err
		}
	}
	for _, f := range ks.fields {
		v, ok := elem[f]
		switch {
		case !ok && (!ks.directive || slices.Contains(lk.def, f)):
			return keySet{}, "", newError(ErrMissingMergeKey, at, "element has no merge key field %q (merge key %s)", f, strings.Join(ks.fields, ","))
		case !ok:
			continue
		case v == nil:
			return keySet{}, "", newError(ErrNullMergeKey, at,
				"merge key field %q is null; a key field cannot identify an element and be removed at once: delete the element and create it anew (docs/format.md)", f)
		default:
			if _, scalar := scalarKey(v); !scalar {
				return keySet{}, "", newError(ErrTypeMismatch, at, "merge key field %q is %s, not a scalar", f, kindOf(v).withArticle())
			}
		}
	}
	id, _ := ks.id(elem)
	return ks, id, nil
}

// parseDirective validates a $patchMergeKey value: a list of strings that
// holds the default key and names only recommended keys. The set is kept
// in the declared order, so one set has one signature.
func (lk listKeys) parseDirective(raw any, at *pathNode) (keySet, error) {
	list, ok := raw.([]any)
	if !ok || len(list) == 0 {
		return keySet{}, newError(ErrInvalidDirective, at, "%s must be a non-empty list of field names, not %s", keyPatchMergeKey, kindOf(raw).withArticle())
	}
	allowed := lk.rec
	if len(allowed) == 0 {
		allowed = lk.def
	}
	named := make(map[string]bool, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return keySet{}, newError(ErrInvalidDirective, at, "%s must list field names, found %s", keyPatchMergeKey, kindOf(v).withArticle())
		}
		if !slices.Contains(allowed, s) {
			return keySet{}, newError(ErrInvalidDirective, at, "%s names %q, which is not a recommended merge key (%s)", keyPatchMergeKey, s, strings.Join(allowed, ","))
		}
		if named[s] {
			return keySet{}, newError(ErrInvalidDirective, at, "%s names %q twice", keyPatchMergeKey, s)
		}
		named[s] = true
	}
	for _, d := range lk.def {
		if !named[d] {
			return keySet{}, newError(ErrInvalidDirective, at, "%s must include the default merge key %q", keyPatchMergeKey, d)
		}
	}
	fields := make([]string, 0, len(named))
	for _, f := range allowed {
		if named[f] {
			fields = append(fields, f)
		}
	}
	return keySet{fields: fields, directive: true}, nil
}

// partial reports whether a directive set leaves out recommended keys, so
// that it may match several elements.
func (lk listKeys) partial(ks keySet) bool {
	return ks.directive && len(ks.fields) < len(lk.rec)
}
