package reflectschema

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
)

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// builder builds the schemas of a type and every type it reaches. Types
// under construction are registered first, so recursive types terminate.
type builder struct {
	built   map[reflect.Type]*Type
	pending []pendingField
}

// pendingField is a list field whose merge keys are checked once every
// type is complete (its element type may still be under construction).
type pendingField struct {
	owner reflect.Type
	field *Field
	tags  fieldTags
}

// typeOf returns the schema of t, building it if needed. Pointers are
// followed.
func (b *builder) typeOf(t reflect.Type) (*Type, error) {
	t, err := deref(t)
	if err != nil {
		return nil, err
	}
	if st, ok := lookupCache(t); ok {
		return st, nil
	}
	if st, ok := b.built[t]; ok {
		return st, nil
	}
	st := &Type{Go: t}
	b.built[t] = st
	switch {
	case isAtomic(t):
		st.Kind = Atomic
	default:
		err = b.fill(st, t)
	}
	if err != nil {
		return nil, err
	}
	return st, nil
}

// maxPointerDepth bounds the pointers deref follows: named pointer types
// can form a cycle (type P *P) that never reaches a non-pointer type.
const maxPointerDepth = 64

// deref follows pointers to the type they point to.
func deref(t reflect.Type) (reflect.Type, error) {
	start := t
	for n := 0; t.Kind() == reflect.Pointer; n++ {
		if n == maxPointerDepth {
			return nil, &Error{Type: start, Rule: RuleUnsupported, Msg: "pointer type " + start.String() + " never reaches a non-pointer type"}
		}
		t = t.Elem()
	}
	return t, nil
}

// isAtomic reports whether values of t marshal themselves.
func isAtomic(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || pt.Implements(jsonMarshaler) ||
		t.Implements(textMarshaler) || pt.Implements(textMarshaler)
}

// fill sets the kind and the children of st from t.
func (b *builder) fill(st *Type, t reflect.Type) error {
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		st.Kind = Scalar
	case reflect.Interface:
		st.Kind = Untyped
	case reflect.Slice, reflect.Array:
		if isBytes(t) {
			st.Kind = Scalar // []byte encodes as a base64 string
			return nil
		}
		// The kind is set before the element is built: a field reaching
		// back to t while it is built must see it complete enough.
		st.Kind = listKind(t)
		elem, err := b.typeOf(t.Elem())
		if err != nil {
			return err
		}
		st.Elem = elem
	case reflect.Map:
		switch k := t.Key(); {
		case k.Kind() == reflect.String, isAtomic(k) && k.Implements(textMarshaler),
			k.Kind() >= reflect.Int && k.Kind() <= reflect.Uintptr:
		default:
			return &Error{Type: t, Rule: RuleUnsupported, Msg: "map key type " + k.String() + " has no JSON encoding"}
		}
		st.Kind = Map
		elem, err := b.typeOf(t.Elem())
		if err != nil {
			return err
		}
		st.Elem = elem
	case reflect.Struct:
		st.Kind = Struct
		return b.fillStruct(st, t)
	default:
		return &Error{Type: t, Rule: RuleUnsupported, Msg: "kind " + t.Kind().String() + " has no JSON encoding"}
	}
	return nil
}

// isBytes reports whether t is a []byte, which encodes as a string.
func isBytes(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && !isAtomic(t.Elem())
}

// isListShaped reports whether the non-pointer type t gets kind List or
// Atomic from being a list.
func isListShaped(t reflect.Type) bool {
	return (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && !isBytes(t) && !isAtomic(t)
}

// listKind returns the kind of the list type t from the reflect types
// alone, so that it does not depend on which type was built first. A list
// of lists is replaced whole (Atomic), and a list of those is a List
// again: along the chain of element types that are lists, the last one is
// a List and the kinds alternate upwards. A chain that comes back to a
// type it holds (type L []L) is Atomic where it enters the cycle.
func listKind(t reflect.Type) Kind {
	seen := map[reflect.Type]int{}
	n := 0
	for cur := t; isListShaped(cur); n++ {
		if at, ok := seen[cur]; ok {
			n = at
			break
		}
		seen[cur] = n
		next, err := deref(cur.Elem())
		if err != nil {
			break // reported when the element is built
		}
		cur = next
	}
	if n%2 == 1 {
		return List
	}
	return Atomic
}

// fillStruct resolves a struct's JSON fields and their patch metadata.
func (b *builder) fillStruct(st *Type, t reflect.Type) error {
	raws, err := structFields(t)
	if err != nil {
		return err
	}
	st.Fields = make([]*Field, 0, len(raws))
	st.byName = make(map[string]*Field, len(raws))
	for _, r := range raws {
		ft, err := b.typeOf(r.sf.Type)
		if err != nil {
			if e, ok := err.(*Error); ok && e.Field == "" {
				// The field's type itself (not a struct it reaches) is
				// at fault: name the struct and field holding it.
				err = &Error{Type: t, Field: r.goName, Rule: e.Rule, Msg: "type " + e.Type.String() + ": " + e.Msg}
			}
			return err
		}
		f := &Field{
			Name: r.name, GoName: r.goName, Index: r.index, GoType: r.sf.Type, Type: ft,
			OmitEmpty: r.tags.omitEmpty, OmitZero: r.tags.omitZero, Quoted: r.tags.quoted,
		}
		if err := b.patchMeta(t, f, r.tags); err != nil {
			return err
		}
		st.Fields = append(st.Fields, f)
		st.byName[f.Name] = f
	}
	return nil
}

// patchMeta parses and validates a field's patch tags, dropping what has
// no effect on the field's kind (see dropIneffective). A list's tags are
// checked against its element type once that type is complete, in
// [builder.validateKeys].
func (b *builder) patchMeta(owner reflect.Type, f *Field, tags fieldTags) error {
	fail := func(rule Rule, msg string) error {
		return &Error{Type: owner, Field: f.GoName, Rule: rule, Msg: msg}
	}
	s, retain, err := parseStrategy(tags.strategy)
	if err != nil {
		return fail(RuleStrategy, err.Error())
	}
	keys, err := parseKeys(tagMergeKey, tags.mergeKey)
	if err != nil {
		return fail(RuleMergeKey, err.Error())
	}
	rec, err := parseKeys(tagRecommendedKey, tags.recKey)
	if err != nil {
		return fail(RuleRecommended, err.Error())
	}
	f.Patch = PatchMeta{Strategy: s, RetainKeys: retain, MergeKey: keys, RecommendedMergeKey: rec}
	if f.Type.Kind != List {
		// What has no effect on a field of this kind is ignored, as
		// Kubernetes ignores it (Vet lists it); the rest always applies.
		f.Patch, _ = dropIneffective(f.Patch, tags, f.Type)
		return nil
	}
	if len(rec) > 0 && len(keys) == 0 {
		return fail(RuleRecommended, "recommendedPatchMergeKey "+quote(tags.recKey)+" without a patchMergeKey")
	}
	if len(rec) > 0 && (len(rec) < len(keys) || !slices.Equal(rec[:len(keys)], keys)) {
		return fail(RuleRecommended, "recommendedPatchMergeKey "+quote(tags.recKey)+" must start with the default key "+quote(tags.mergeKey))
	}
	if len(keys) > 0 || s == Merge || retain {
		b.pending = append(b.pending, pendingField{owner: owner, field: f, tags: tags})
	}
	return nil
}

// validateKeys checks the merge keys of every list field built.
func (b *builder) validateKeys() error {
	for _, p := range b.pending {
		// The element type is complete now: drop what has no effect on
		// a list of such elements before checking the rest.
		p.field.Patch, _ = dropIneffective(p.field.Patch, p.tags, p.field.Type)
		if err := validateList(p.owner, p.field); err != nil {
			return err
		}
	}
	return nil
}

// validateList checks a list field's strategy and merge keys against its
// element type.
func validateList(owner reflect.Type, f *Field) error {
	fail := func(rule Rule, msg string) error {
		return &Error{Type: owner, Field: f.GoName, Rule: rule, Msg: msg}
	}
	m, elem := f.Patch, f.Type.Elem
	if elem.Kind == Scalar || elem.Kind == Atomic {
		return nil // a merge set, or replaced whole
	}
	if m.Strategy == Merge && len(m.MergeKey) == 0 {
		return fail(RuleMergeKey, "patchStrategy merge on a list of objects ("+elem.String()+") without a patchMergeKey")
	}
	if m.RetainKeys && m.Strategy != Merge {
		return fail(RuleStrategy, "patchStrategy retainKeys on a list applies to merged elements; add merge")
	}
	if elem.Kind != Struct {
		return nil // map or untyped elements: any key may be present
	}
	for _, k := range m.RecommendedMergeKey[min(len(m.MergeKey), len(m.RecommendedMergeKey)):] {
		if err := checkKeyField(elem, k); err != "" {
			return fail(RuleRecommended, "recommendedPatchMergeKey "+quote(joinKeys(m.RecommendedMergeKey))+": "+err)
		}
	}
	for _, k := range m.MergeKey {
		if err := checkKeyField(elem, k); err != "" {
			return fail(RuleMergeKey, "patchMergeKey "+quote(joinKeys(m.MergeKey))+": "+err)
		}
	}
	return nil
}

// checkKeyField says what is wrong with key as a merge key of elem, or "".
func checkKeyField(elem *Type, key string) string {
	kf, ok := elem.byName[key]
	if !ok {
		return quote(key) + " is not a JSON field of " + elem.String()
	}
	if kf.Type.Kind != Scalar {
		return "key field " + quote(key) + " of " + elem.String() + " is a " + kf.Type.Kind.String() + ", not a scalar"
	}
	return ""
}

func joinKeys(keys []string) string {
	out := ""
	for i, k := range keys {
		if i > 0 {
			out += ","
		}
		out += k
	}
	return out
}

// article returns the kind's name after "a" or "an".
func article(k Kind) string {
	if k == Atomic || k == Untyped {
		return "an " + k.String()
	}
	return "a " + k.String()
}
