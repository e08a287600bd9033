package openapischema

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// The extensions of structural schemas that say how a list or map merges.
const (
	extListType    = "x-kubernetes-list-type"
	extListMapKeys = "x-kubernetes-list-map-keys"
	extMapType     = "x-kubernetes-map-type"
)

// decideMeta sets a field's patch metadata from its schema's extensions,
// with the precedence docs/format.md states: the patch extensions first,
// then the list type.
func (b *builder) decideMeta(p pendingField) error {
	f := p.field
	ext := b.exts(p.node)
	strategy, err1 := b.extString(ext, rs.ExtPatchStrategy, p.ptr)
	mergeKey, err2 := b.extString(ext, rs.ExtPatchMergeKey, p.ptr)
	recKey, err3 := b.extString(ext, rs.ExtRecommendedMergeKey, p.ptr)
	listType, err4 := b.extString(ext, extListType, p.ptr)
	mapKeys, err5 := b.extStrings(ext, extListMapKeys, p.ptr)
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		return err
	}
	if _, err := rs.ParsePatchMeta(strategy, "", ""); err != nil {
		return b.fail(ReasonStrategy, p.ptr, "%s %q: %v", rs.ExtPatchStrategy, strategy, err)
	}
	meta, err := rs.ParsePatchMeta(strategy, mergeKey, recKey)
	if err != nil {
		return b.fail(ReasonMergeKey, p.ptr, "%v", err)
	}
	source := patchSource(strategy, mergeKey, recKey)
	if f.Type.Kind == rs.List {
		patchExt := strategy != "" || mergeKey != "" || recKey != ""
		switch {
		case !patchExt:
			source = extListType + " " + listType
			if meta, err = b.listTypeMeta(f, listType, mapKeys, p.ptr); err != nil {
				return err
			}
		case meta.Strategy == rs.Merge && len(meta.MergeKey) == 0 && listType == "map" && isObject(f.Type.Elem):
			meta.MergeKey = mapKeys
		}
	}
	switch f.Type.Kind {
	case rs.Struct, rs.Map, rs.Untyped:
		if meta.Strategy == rs.Merge {
			meta.Strategy = rs.Default // objects merge anyway
		}
		if ext[extMapType] == "atomic" {
			// Replaced whole where a field holds it; as the element of a
			// keyed list it keeps its fields, which the key needs.
			f.Type = &rs.Type{Kind: rs.Atomic, Name: f.Type.Name}
		}
	}
	f.Patch = meta
	if err := f.Validate(); err != nil {
		reason := ReasonMergeKey
		var re *rs.Error
		if errors.As(err, &re) && re.Rule == rs.RuleStrategy {
			reason = ReasonStrategy
		}
		msg := err.Error()
		if re != nil {
			msg = re.Msg
		}
		return b.fail(reason, p.ptr, "%s: %s", source, msg)
	}
	return nil
}

// listTypeMeta is the patch metadata x-kubernetes-list-type gives a list
// field that has no patch extensions.
func (b *builder) listTypeMeta(f *rs.Field, listType string, mapKeys []string, ptr string) (rs.PatchMeta, error) {
	switch listType {
	case "map":
		if len(mapKeys) == 0 {
			return rs.PatchMeta{}, b.fail(ReasonMergeKey, ptr, "%s map without %s", extListType, extListMapKeys)
		}
		m, err := rs.ParsePatchMeta("merge", strings.Join(mapKeys, ","), "")
		if err != nil {
			return rs.PatchMeta{}, b.fail(ReasonMergeKey, ptr, "%s: %v", extListMapKeys, err)
		}
		return m, nil
	case "set":
		if k := f.Type.Elem.Kind; k == rs.Scalar {
			return rs.PatchMeta{Strategy: rs.Merge}, nil
		}
		return rs.PatchMeta{}, nil // a set of objects has no key to merge by: replaced
	case "", "atomic":
		return rs.PatchMeta{}, nil
	}
	return rs.PatchMeta{}, b.fail(ReasonStrategy, ptr, "unknown %s %q (want atomic, set or map)", extListType, listType)
}

// patchSource names the patch extensions a field carries, for messages.
func patchSource(strategy, mergeKey, recKey string) string {
	var parts []string
	for _, e := range [][2]string{{rs.ExtPatchStrategy, strategy}, {rs.ExtPatchMergeKey, mergeKey}, {rs.ExtRecommendedMergeKey, recKey}} {
		if e[1] != "" {
			parts = append(parts, e[0]+" "+strconv.Quote(e[1]))
		}
	}
	return strings.Join(parts, ", ")
}

func isObject(t *rs.Type) bool {
	return t != nil && (t.Kind == rs.Struct || t.Kind == rs.Map || t.Kind == rs.Untyped)
}

// extKeys are the extensions decideMeta reads.
var extKeys = []string{rs.ExtPatchStrategy, rs.ExtPatchMergeKey, rs.ExtRecommendedMergeKey, extListType, extListMapKeys, extMapType}

// exts returns the extensions that apply to a property: its own schema's,
// then those of the schemas its $ref or one-member allOf lead to. What a
// $ref leads to is computed once per target.
func (b *builder) exts(node map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range extKeys {
		if v, ok := node[k]; ok {
			out[k] = v
		}
	}
	var more map[string]any
	if ref, ok := node["$ref"].(string); ok {
		memo, done := b.extMemo[ref]
		if !done {
			b.extMemo[ref] = nil // a cycle ends here
			target, _ := b.resolve(ref)
			m, _ := target.(map[string]any)
			memo = b.exts(m)
			b.extMemo[ref] = memo
		}
		more = memo
	} else if m, _, err := b.allOfTarget(node, "#"); err == nil && m != nil {
		mm, _ := m.(map[string]any)
		more = b.exts(mm)
	}
	for k, v := range more {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return out
}

func (b *builder) extString(ext map[string]any, key, ptr string) (string, error) {
	switch v := ext[key].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", b.fail(ReasonInvalid, ptr, "%s must be a string, not %s", key, describe(v))
	}
}

func (b *builder) extStrings(ext map[string]any, key, ptr string) ([]string, error) {
	v := ext[key]
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	var out []string
	for _, e := range list {
		s, isStr := e.(string)
		ok = ok && isStr && s != ""
		out = append(out, s)
	}
	if !ok {
		return nil, b.fail(ReasonInvalid, ptr, "%s must be a list of field names, not %s", key, describeList(v))
	}
	return out, nil
}

func describeList(v any) string {
	if l, ok := v.([]any); ok {
		parts := make([]string, len(l))
		for i, e := range l {
			parts[i] = describe(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return describe(v)
}

// embed gives an embedded resource (or a CustomResourceDefinition's root)
// the fields every Kubernetes object has, where its schema leaves them
// out: apiVersion, kind, and metadata with ObjectMeta's patch metadata.
func (b *builder) embed(t *rs.Type) {
	have := map[string]*rs.Field{}
	for _, f := range t.Fields {
		have[f.Name] = f
	}
	add := func(name string, ft *rs.Type) {
		t.Fields = append(t.Fields, &rs.Field{Name: name, Type: ft})
	}
	if have["apiVersion"] == nil {
		add("apiVersion", str())
	}
	if have["kind"] == nil {
		add("kind", str())
	}
	if m := have["metadata"]; m == nil {
		add("metadata", b.objectMeta())
	} else if m.Type.Kind == rs.Untyped {
		m.Type = b.objectMeta()
	}
	sortFields(t.Fields)
}

func str() *rs.Type { return &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONString} }

// objectMeta is the part of ObjectMeta whose patch metadata matters, as
// k8s.io/apimachinery's Go type declares it; other fields are untyped
// (PreserveUnknown).
func (b *builder) objectMeta() *rs.Type {
	if b.meta != nil {
		return b.meta
	}
	field := func(name string, t *rs.Type) *rs.Field { return &rs.Field{Name: name, Type: t} }
	boolean := &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONBoolean}
	owner := &rs.Type{Kind: rs.Struct, Name: "OwnerReference", Fields: []*rs.Field{
		field("apiVersion", str()), field("blockOwnerDeletion", boolean), field("controller", boolean),
		field("kind", str()), field("name", str()), field("uid", str()),
	}}
	strMap := &rs.Type{Kind: rs.Map, Elem: str()}
	finalizers := field("finalizers", &rs.Type{Kind: rs.List, Elem: str()})
	finalizers.Patch.Strategy = rs.Merge
	owners := field("ownerReferences", &rs.Type{Kind: rs.List, Elem: owner})
	owners.Patch = rs.PatchMeta{Strategy: rs.Merge, MergeKey: []string{"uid"}}
	b.meta = &rs.Type{Kind: rs.Struct, Name: "ObjectMeta", PreserveUnknown: true, Fields: []*rs.Field{
		field("annotations", strMap), finalizers, field("generateName", str()), field("labels", strMap),
		field("name", str()), field("namespace", str()), owners, field("resourceVersion", str()), field("uid", str()),
	}}
	b.roots = append(b.roots, b.meta)
	return b.meta
}

func sortFields(fs []*rs.Field) {
	slices.SortFunc(fs, func(a, b *rs.Field) int { return strings.Compare(a.Name, b.Name) })
}
