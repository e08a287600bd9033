package smp

import (
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
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

// sig identifies the set itself, to cache one index per set: a one-field
// set is its field's name unless that starts with NUL; any other set is a
// NUL and its names, each after its length, so no two sets share one.
func (ks keySet) sig() string {
	if len(ks.fields) == 1 && !strings.HasPrefix(ks.fields[0], "\x00") {
		return ks.fields[0]
	}
	b := []byte{0}
	for _, f := range ks.fields {
		b = append(binary.AppendUvarint(b, uint64(len(f))), f...)
	}
	return string(b)
}

const absentMark = "\x01"

// id returns the element's identity under ks: equal for two elements iff
// their key fields are equal JSON scalars, numbers compared by value.
// Absent fields have a mark no value has; complete reports whether every
// field was present. A one-field identity is singleKey; a longer one
// joins the fields' keyParts.
func (ks keySet) id(elem map[string]any) (id string, complete bool) {
	return ks.idBy(func(f string) (any, bool) {
		v, ok := elem[f]
		return v, ok
	})
}

// idBy is id for an element whose key fields field reads.
func (ks keySet) idBy(field func(string) (any, bool)) (id string, complete bool) {
	if len(ks.fields) == 1 {
		v, ok := field(ks.fields[0])
		if !ok {
			return absentMark, false
		}
		return singleKey(v), true
	}
	b := make([]byte, 0, 16*len(ks.fields))
	complete = true
	for _, f := range ks.fields {
		v, ok := field(f)
		complete = complete && ok
		b = appendKeyPart(b, v, ok)
	}
	return string(b), complete
}

// appendKeyPart appends one field's part of a multi-field identity. Every
// part shows where it ends, so a sequence of parts has one reading and
// identities are injective whatever bytes the values hold: a tag, then for
// a string its length and bytes, for a number its canonical form and ';'
// (which no canonical form holds; text that is no number is tagged 'N' and
// length-prefixed instead). Objects and arrays, found only in malformed
// documents, share the tag 'x', as singleKey gives them one identity.
func appendKeyPart(b []byte, v any, present bool) []byte {
	if !present {
		return append(b, 'a')
	}
	if r, raw := v.(jsonval.Raw); raw {
		v = jsonval.Expand(r) // a live element's field, merged but not decoded
	}
	switch v := v.(type) {
	case string:
		return append(binary.AppendUvarint(append(b, 's'), uint64(len(v))), v...)
	case json.Number:
		start := len(b)
		b = jsonval.AppendNumberKey(append(b, 'n'), string(v))
		if b[start+1] != '?' {
			return append(b, ';')
		}
		return append(binary.AppendUvarint(append(b[:start], 'N'), uint64(len(v))), v...)
	case bool:
		if v {
			return append(b, 't')
		}
		return append(b, 'f')
	case nil:
		return append(b, 'z')
	}
	return append(b, 'x')
}

// rawID is id for an object still in raw form: only its key fields are
// decoded, and nothing is allocated for a one-field key but the identity.
func (ks keySet) rawID(r jsonval.Raw) string {
	if len(ks.fields) == 1 {
		var val jsonval.Raw
		jsonval.EachRawMember(r, func(k []byte, v jsonval.Raw) bool {
			if jsonval.KeyIs(k, ks.fields[0]) {
				val = v
			}
			return true
		})
		if val == nil {
			return absentMark
		}
		return singleKey(jsonval.Expand(val))
	}
	vals := make(map[string]any, len(ks.fields))
	jsonval.EachRawMember(r, func(k []byte, v jsonval.Raw) bool {
		for _, f := range ks.fields {
			if jsonval.KeyIs(k, f) {
				vals[f] = jsonval.Expand(v)
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
	if r, raw := v.(jsonval.Raw); raw {
		v = jsonval.Expand(r)
	}
	switch v := v.(type) {
	case string:
		if id, ok := stringKey(v); ok {
			return id
		}
	case json.Number:
		return jsonval.NumberKey("\x00n", string(v))
	}
	k, _ := jsonval.ScalarKey(v)
	return "\x00" + k
}

// stringKey is singleKey of a string, when that is the string itself.
func stringKey(s string) (string, bool) {
	return s, s == "" || s[0] >= 0x20
}

// KeyStep renders the element's key for a path: [name=nginx].
func (ks keySet) KeyStep(elem map[string]any) KeyStep {
	s := make(KeyStep, 0, len(ks.fields))
	for _, f := range ks.fields {
		v, ok := elem[f]
		text := "<absent>"
		if ok {
			text = jsonval.DisplayText(v)
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
	return listKeys{def: s.Patch.MergeKey, rec: s.Patch.RecommendedMergeKey}
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
			if !jsonval.HasScalarKey(v) {
				return keySet{}, "", newError(ErrTypeMismatch, at, "merge key field %q is %s, not a scalar", f, jsonval.KindOf(v).WithArticle())
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
		return keySet{}, newError(ErrInvalidDirective, at, "%s must be a non-empty list of field names, not %s", keyPatchMergeKey, jsonval.KindOf(raw).WithArticle())
	}
	allowed := lk.rec
	if len(allowed) == 0 {
		allowed = lk.def
	}
	named := make(map[string]bool, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return keySet{}, newError(ErrInvalidDirective, at, "%s must list field names, found %s", keyPatchMergeKey, jsonval.KindOf(v).WithArticle())
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
