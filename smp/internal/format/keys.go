package format

import (
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// KeySet is the set of fields that identify merge-list elements. Without
// $patchMergeKey it is the field's patchMergeKey, every field of which an
// element must carry. With $patchMergeKey it is the listed fields, and a
// listed field absent from the patch element matches only live elements
// where it is absent too (the multi-field merge key proposal).
type KeySet struct {
	Fields []string
	// Directive marks a set named by $patchMergeKey.
	Directive bool
}

// Sig identifies the set itself, to cache one index per set: a one-field
// set is its field's name unless that starts with NUL; any other set is a
// NUL and its names, each after its length, so no two sets share one.
func (ks KeySet) Sig() string {
	if len(ks.Fields) == 1 && !strings.HasPrefix(ks.Fields[0], "\x00") {
		return ks.Fields[0]
	}
	b := []byte{0}
	for _, f := range ks.Fields {
		b = append(binary.AppendUvarint(b, uint64(len(f))), f...)
	}
	return string(b)
}

// AbsentMark stands in an identity for a key field the element lacks.
const AbsentMark = "\x01"

// ID returns the element's identity under ks: equal for two elements iff
// their key fields are equal JSON scalars, numbers compared by value.
// Absent fields have a mark no value has; complete reports whether every
// field was present. A one-field identity is SingleKey's; a longer one
// joins the fields' parts (AppendKeyPart).
func (ks KeySet) ID(elem map[string]any) (id string, complete bool) {
	return ks.IDBy(func(f string) (any, bool) {
		v, ok := elem[f]
		return v, ok
	})
}

// IDBy is ID for an element whose key fields field reads.
func (ks KeySet) IDBy(field func(string) (any, bool)) (id string, complete bool) {
	if len(ks.Fields) == 1 {
		v, ok := field(ks.Fields[0])
		if !ok {
			return AbsentMark, false
		}
		return SingleKey(v), true
	}
	b := make([]byte, 0, 16*len(ks.Fields))
	complete = true
	for _, f := range ks.Fields {
		v, ok := field(f)
		complete = complete && ok
		b = AppendKeyPart(b, v, ok)
	}
	return string(b), complete
}

// AppendKeyPart appends one field's part of a multi-field identity. Every
// part shows where it ends, so a sequence of parts has one reading and
// identities are injective whatever bytes the values hold: a tag, then for
// a string its length and bytes, for a number its canonical form and ';'
// (which no canonical form holds; text that is no number is tagged 'N' and
// length-prefixed instead). Objects and arrays, found only in malformed
// documents, share the tag 'x', as SingleKey gives them one identity.
func AppendKeyPart(b []byte, v any, present bool) []byte {
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

// RawID is id for an object still in raw form: only its key fields are
// decoded, and nothing is allocated for a one-field key but the identity.
func (ks KeySet) RawID(r jsonval.Raw) string {
	if len(ks.Fields) == 1 {
		// The last member of a key counts, unless the key is known to
		// occur once.
		var val jsonval.Raw
		first := jsonval.UniqueKeys(r)
		jsonval.EachRawMember(r, func(k []byte, v jsonval.Raw) bool {
			if jsonval.KeyIs(k, ks.Fields[0]) {
				val = v
				return !first
			}
			return true
		})
		if val == nil {
			return AbsentMark
		}
		if val[0] == '"' { // the common key: a string, not boxed on the way
			return stringID(jsonval.DecodeString(val))
		}
		return SingleKey(jsonval.Expand(val))
	}
	vals := make(map[string]any, len(ks.Fields))
	jsonval.EachRawMember(r, func(k []byte, v jsonval.Raw) bool {
		for _, f := range ks.Fields {
			if jsonval.KeyIs(k, f) {
				vals[f] = jsonval.Expand(v)
			}
		}
		return true
	})
	id, _ := ks.ID(vals)
	return id
}

// stringID is SingleKey of a string.
func stringID(v string) string {
	if id, ok := StringKey(v); ok {
		return id
	}
	k, _ := jsonval.ScalarKey(v)
	return "\x00" + k
}

// SingleKey is the identity under a one-field key: a string is itself
// (no allocation), unless it starts with a control character; every other
// value, and such a string, is its jsonval.ScalarKey after a NUL, which no plain
// string starts with. AbsentMark and the other marks start with control
// characters too, so no two values share an identity.
func SingleKey(v any) string {
	if r, raw := v.(jsonval.Raw); raw {
		v = jsonval.Expand(r)
	}
	switch v := v.(type) {
	case string:
		return stringID(v)
	case json.Number:
		var b [32]byte // room for most, on the stack
		return string(jsonval.AppendNumberKey(append(b[:0], "\x00n"...), string(v)))
	}
	k, _ := jsonval.ScalarKey(v)
	return "\x00" + k
}

// StringKey is SingleKey of a string, when that is the string itself.
func StringKey(s string) (string, bool) {
	return s, s == "" || s[0] >= 0x20
}

// KeyStep renders the element's key for a path: [name=nginx].
func (ks KeySet) KeyStep(elem map[string]any) errpath.KeyStep {
	s := make(errpath.KeyStep, 0, len(ks.Fields))
	for _, f := range ks.Fields {
		v, ok := elem[f]
		text := "<absent>"
		if ok {
			text = jsonval.DisplayText(v)
		}
		s = append(s, errpath.KeyField{Name: f, Value: text})
	}
	return s
}

// ListKeys is what a merge list of objects declares about its keys.
type ListKeys struct {
	Def, Rec []string
}

func KeysOf(s reflectschema.Slot) ListKeys {
	return ListKeys{Def: s.Patch.MergeKey, Rec: s.Patch.RecommendedMergeKey}
}

func (lk ListKeys) DefaultSet() KeySet { return KeySet{Fields: lk.Def} }

// FullSet is every recommended key, as the differ writes $patchMergeKey.
func (lk ListKeys) FullSet() KeySet {
	if len(lk.Rec) == 0 {
		return lk.DefaultSet()
	}
	return KeySet{Fields: lk.Rec, Directive: true}
}

// ElementKey reads the identity of a patch element (or a $setElementOrder
// entry): its $patchMergeKey if the applier understands it, else the
// default key. It checks that the key fields are present, not null, and
// scalars.
func (lk ListKeys) ElementKey(elem map[string]any, d DirectiveSet, at *errpath.Node) (KeySet, string, error) {
	ks := lk.DefaultSet()
	if raw, ok := elem[KeyPatchMergeKey]; ok && d.Understood(DirPatchMergeKey) {
		var err error
		if ks, err = lk.ParseDirective(raw, at); err != nil {
			return KeySet{}, "", err
		}
	}
	for _, f := range ks.Fields {
		v, ok := elem[f]
		switch {
		case !ok && (!ks.Directive || slices.Contains(lk.Def, f)):
			return KeySet{}, "", errpath.New(errpath.ErrMissingMergeKey, at, "element has no merge key field %q (merge key %s)", f, strings.Join(ks.Fields, ","))
		case !ok:
			continue
		case v == nil:
			return KeySet{}, "", errpath.New(errpath.ErrNullMergeKey, at,
				"merge key field %q is null; a key field cannot identify an element and be removed at once: delete the element and create it anew (docs/format.md)", f)
		default:
			if !jsonval.HasScalarKey(v) {
				return KeySet{}, "", errpath.New(errpath.ErrTypeMismatch, at, "merge key field %q is %s, not a scalar", f, jsonval.KindOf(v).WithArticle())
			}
		}
	}
	id, _ := ks.ID(elem)
	return ks, id, nil
}

// ParseDirective validates a $patchMergeKey value: a list of strings that
// holds the default key and names only recommended keys. The set is kept
// in the declared order, so one set has one signature.
func (lk ListKeys) ParseDirective(raw any, at *errpath.Node) (KeySet, error) {
	list, ok := raw.([]any)
	if !ok || len(list) == 0 {
		return KeySet{}, errpath.New(errpath.ErrInvalidDirective, at, "%s must be a non-empty list of field names, not %s", KeyPatchMergeKey, jsonval.KindOf(raw).WithArticle())
	}
	allowed := lk.Rec
	if len(allowed) == 0 {
		allowed = lk.Def
	}
	named := make(map[string]bool, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return KeySet{}, errpath.New(errpath.ErrInvalidDirective, at, "%s must list field names, found %s", KeyPatchMergeKey, jsonval.KindOf(v).WithArticle())
		}
		if !slices.Contains(allowed, s) {
			return KeySet{}, errpath.New(errpath.ErrInvalidDirective, at, "%s names %q, which is not a recommended merge key (%s)", KeyPatchMergeKey, s, strings.Join(allowed, ","))
		}
		if named[s] {
			return KeySet{}, errpath.New(errpath.ErrInvalidDirective, at, "%s names %q twice", KeyPatchMergeKey, s)
		}
		named[s] = true
	}
	for _, d := range lk.Def {
		if !named[d] {
			return KeySet{}, errpath.New(errpath.ErrInvalidDirective, at, "%s must include the default merge key %q", KeyPatchMergeKey, d)
		}
	}
	fields := make([]string, 0, len(named))
	for _, f := range allowed {
		if named[f] {
			fields = append(fields, f)
		}
	}
	return KeySet{Fields: fields, Directive: true}, nil
}

// Partial reports whether a directive set leaves out recommended keys, so
// that it may match several elements.
func (lk ListKeys) Partial(ks KeySet) bool {
	return ks.Directive && len(ks.Fields) < len(lk.Rec)
}
