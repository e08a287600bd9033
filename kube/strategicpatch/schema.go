package strategicpatch

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// schemaOf returns the engine's schema for a LookupPatchMeta. This
// package's own lookups convert whole; any other implementation is asked
// about the keys of docs only (see walk). docs are the decoded inputs;
// needsDocs says whether schemaOf reads them.
func schemaOf(l LookupPatchMeta, docs ...map[string]interface{}) (*reflectschema.Type, error) {
	switch v := l.(type) {
	case nil:
		return nil, errors.New("strategicpatch: nil LookupPatchMeta")
	case PatchMetaFromStruct:
		return structSchema(v, docs)
	case *PatchMetaFromStruct:
		return structSchema(*v, docs)
	case typeMeta:
		if err := v.t.Validate(); err != nil {
			return nil, err
		}
		return v.t, nil
	}
	return walk(l, docs)
}

// needsDocs reports whether schemaOf reads the documents for l.
func needsDocs(l LookupPatchMeta) bool {
	switch l.(type) {
	case typeMeta, nil:
		return false
	}
	return true
}

// structSchema is reflectschema's schema of the type; a type reflectschema
// rejects, or one with a tag Kubernetes ignores (which reflectschema drops,
// but which Kubernetes still obeys where the documents disagree with the
// type, as a list under a pointer to a struct), is read field by field
// through the lookup instead, as Kubernetes reads it. Either way the lookup
// walks the documents first, so that an operation fails where Kubernetes'
// lookup fails: two objects or lists under a field the type does not
// declare, inside a type with its own JSON encoding (a RawExtension), or
// under an untyped field (docs/compat.md, "objects under unknown fields").
func structSchema(s PatchMetaFromStruct, docs []map[string]interface{}) (*reflectschema.Type, error) {
	if s.T == nil {
		return nil, errors.New("strategicpatch: PatchMetaFromStruct without a type")
	}
	if t, ok := typedSchema(s.T); ok {
		return t, checkWalk(s, docs)
	}
	return walk(s, docs)
}

// fittingSchema returns the typed schema of a PatchMetaFromStruct whose
// documents it fits so well that walking them through the lookup cannot
// fail (rawSafe, with strictLists).
func fittingSchema(l LookupPatchMeta, strictLists bool, docs [][]byte) (*reflectschema.Type, bool) {
	var s PatchMetaFromStruct
	switch v := l.(type) {
	case PatchMetaFromStruct:
		s = v
	case *PatchMetaFromStruct:
		if v == nil {
			return nil, false
		}
		s = *v
	default:
		return nil, false
	}
	t, ok := typedSchema(s.T)
	if !ok {
		return nil, false
	}
	for _, d := range docs {
		if !rawSafe(d, t, strictLists) {
			return nil, false
		}
	}
	return t, true
}

// ignoresTags caches, by type, whether reflectschema.Vet finds tags in it.
var ignoresTags sync.Map // map[reflect.Type]bool

// typedSchema returns reflectschema's schema of t if it is a struct
// without tags reflectschema ignores.
func typedSchema(t reflect.Type) (*reflectschema.Type, bool) {
	if t == nil {
		return nil, false
	}
	s, err := reflectschema.Of(t)
	if err != nil || s.Kind != reflectschema.Struct {
		return nil, false
	}
	ignores, ok := ignoresTags.Load(t)
	if !ok {
		findings, _ := reflectschema.Vet(t)
		ignores, _ = ignoresTags.LoadOrStore(t, len(findings) > 0)
	}
	return s, !ignores.(bool)
}

// fieldMeta turns Kubernetes' patch metadata into the engine's for a
// field of type t, dropping what Kubernetes ignores there: a merge key
// off a list, merge or retainKeys on a scalar, a merge key that is not a
// scalar field of the elements.
func fieldMeta(pm PatchMeta, t *reflectschema.Type) reflectschema.PatchMeta {
	m, err := reflectschema.ParsePatchMeta(strings.Join(pm.GetPatchStrategies(), ","), pm.GetPatchMergeKey(), "")
	if err != nil {
		return reflectschema.PatchMeta{}
	}
	switch t.Kind {
	case reflectschema.List:
		return listMeta(m, t.Elem)
	case reflectschema.Struct, reflectschema.Map, reflectschema.Untyped:
		m.MergeKey = nil
		return m
	}
	if m.Strategy == reflectschema.Replace {
		return reflectschema.PatchMeta{Strategy: reflectschema.Replace}
	}
	return reflectschema.PatchMeta{}
}

func listMeta(m reflectschema.PatchMeta, elem *reflectschema.Type) reflectschema.PatchMeta {
	if elem == nil || elem.Kind == reflectschema.Scalar || elem.Kind == reflectschema.Atomic {
		m.MergeKey, m.RetainKeys = nil, false
		return m
	}
	if m.Strategy != reflectschema.Merge || len(m.MergeKey) == 0 {
		if m.Strategy == reflectschema.Merge {
			m.Strategy = reflectschema.Default
		}
		return reflectschema.PatchMeta{Strategy: m.Strategy}
	}
	if elem.Kind == reflectschema.Struct {
		for _, k := range m.MergeKey {
			if !hasScalarField(elem, k) {
				return reflectschema.PatchMeta{}
			}
		}
	}
	return m
}

func hasScalarField(t *reflectschema.Type, name string) bool {
	for _, f := range t.Fields {
		if f.Name == name {
			return f.Type != nil && f.Type.Kind == reflectschema.Scalar
		}
	}
	return false
}

// pendingField is a struct field whose metadata is set once every type is
// built, since fieldMeta reads the element type of a list.
type pendingField struct {
	f    *reflectschema.Field
	meta PatchMeta
}

func finish(root *reflectschema.Type, pending []pendingField) (*reflectschema.Type, error) {
	for _, p := range pending {
		p.f.Patch = fieldMeta(p.meta, p.f.Type)
	}
	if err := reflectschema.Seal(root); err != nil {
		return nil, fmt.Errorf("strategicpatch: %w", err)
	}
	return root, nil
}

var (
	untyped = func() *reflectschema.Type { return &reflectschema.Type{Kind: reflectschema.Untyped} }
	scalar  = func() *reflectschema.Type { return &reflectschema.Type{Kind: reflectschema.Scalar} }
)

type smpSchema = *reflectschema.Type
