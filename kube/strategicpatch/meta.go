package strategicpatch

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/mergepatch"
	openapi "k8s.io/kube-openapi/pkg/util/proto"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// The OpenAPI extensions that carry a field's patch metadata.
const (
	extStrategy = "x-kubernetes-patch-strategy"
	extMergeKey = "x-kubernetes-patch-merge-key"
)

// PatchMeta is a field's patch strategies and merge key.
type PatchMeta struct {
	patchStrategies []string
	patchMergeKey   string
}

// GetPatchStrategies returns the strategies, never nil.
func (pm *PatchMeta) GetPatchStrategies() []string {
	if pm.patchStrategies == nil {
		return []string{}
	}
	return pm.patchStrategies
}

// SetPatchStrategies sets the strategies.
func (pm *PatchMeta) SetPatchStrategies(ps []string) { pm.patchStrategies = ps }

// GetPatchMergeKey returns the merge key.
func (pm *PatchMeta) GetPatchMergeKey() string { return pm.patchMergeKey }

// SetPatchMergeKey sets the merge key.
func (pm *PatchMeta) SetPatchMergeKey(pmk string) { pm.patchMergeKey = pmk }

// LookupPatchMeta describes how a document patches: the schema of each
// field and its patch metadata. Implementations other than this package's
// are asked only about the fields present in the documents at hand.
type LookupPatchMeta interface {
	// LookupPatchMetadataForStruct gets subschema and the patch metadata (e.g. patch strategy and merge key) for map.
	LookupPatchMetadataForStruct(key string) (LookupPatchMeta, PatchMeta, error)
	// LookupPatchMetadataForSlice get subschema and the patch metadata for slice.
	LookupPatchMetadataForSlice(key string) (LookupPatchMeta, PatchMeta, error)
	// Get the type name of the field
	Name() string
}

// PatchMetaFromStruct reads patch metadata from a Go type's struct tags.
type PatchMetaFromStruct struct {
	T reflect.Type
}

// NewPatchMetaFromStruct returns the PatchMetaFromStruct of a struct or a
// pointer to one.
func NewPatchMetaFromStruct(dataStruct interface{}) (PatchMetaFromStruct, error) {
	t, err := structType(dataStruct)
	return PatchMetaFromStruct{T: t}, err
}

var _ LookupPatchMeta = PatchMetaFromStruct{}

// LookupPatchMetadataForStruct returns the type of the field with JSON
// name key (as encoding/json finds it) and its tags' metadata.
func (s PatchMetaFromStruct) LookupPatchMetadataForStruct(key string) (LookupPatchMeta, PatchMeta, error) {
	ck := fieldKey{s.T, key}
	if v, ok := fieldMetaCache.Load(ck); ok {
		hit := v.(cachedField)
		return PatchMetaFromStruct{T: hit.t}, PatchMeta{
			patchStrategies: slices.Clone(hit.meta.patchStrategies),
			patchMergeKey:   hit.meta.patchMergeKey,
		}, nil
	}
	f, err := jsonField(s.T, key)
	if err != nil {
		return nil, PatchMeta{}, err
	}
	meta := PatchMeta{
		patchStrategies: strings.Split(f.Tag.Get("patchStrategy"), ","),
		patchMergeKey:   f.Tag.Get("patchMergeKey"),
	}
	if f.Name == key { // exact names only: the cache stays as small as the types
		fieldMetaCache.Store(ck, cachedField{f.Type, PatchMeta{slices.Clone(meta.patchStrategies), meta.patchMergeKey}})
	}
	return PatchMetaFromStruct{T: f.Type}, meta, nil
}

// fieldMetaCache holds LookupPatchMetadataForStruct's answers for a
// struct type and one of its fields' exact JSON names.
var fieldMetaCache sync.Map // map[fieldKey]cachedField

type fieldKey struct {
	t   reflect.Type
	key string
}

type cachedField struct {
	t    reflect.Type
	meta PatchMeta
}

// LookupPatchMetadataForSlice returns the element type of the list field
// key and the field's metadata.
func (s PatchMetaFromStruct) LookupPatchMetadataForSlice(key string) (LookupPatchMeta, PatchMeta, error) {
	sub, meta, err := s.LookupPatchMetadataForStruct(key)
	if err != nil {
		return nil, PatchMeta{}, err
	}
	t := sub.(PatchMetaFromStruct).T
	switch t.Kind() {
	case reflect.Array, reflect.Slice:
		t = t.Elem()
		if k := t.Kind(); k == reflect.Array || k == reflect.Slice {
			return nil, PatchMeta{}, errors.New("unexpected slice of slice")
		}
	case reflect.Pointer:
		// A pointer to a list stands for the list's elements; a pointer
		// to anything else for itself.
		t = t.Elem()
		if k := t.Kind(); k == reflect.Array || k == reflect.Slice {
			t = t.Elem()
		}
	default:
		return nil, PatchMeta{}, fmt.Errorf("expected slice or array type, but got: %s", s.T.Kind())
	}
	return PatchMetaFromStruct{T: t}, meta, nil
}

// Name returns the kind of the type, such as "struct".
func (s PatchMetaFromStruct) Name() string {
	if s.T == nil {
		return "invalid"
	}
	return s.T.Kind().String()
}

// structType returns the struct type of a struct value or a pointer to one.
func structType(dataStruct interface{}) (reflect.Type, error) {
	if dataStruct == nil {
		return nil, mergepatch.ErrBadArgKind(struct{}{}, nil)
	}
	t := reflect.TypeOf(dataStruct)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, mergepatch.ErrBadArgKind(struct{}{}, dataStruct)
	}
	return t, nil
}

// GetTagStructTypeOrDie returns the struct type of dataStruct (a struct or
// a pointer to one), and panics on anything else.
func GetTagStructTypeOrDie(dataStruct interface{}) reflect.Type {
	t, err := structType(dataStruct)
	if err != nil {
		panic(err)
	}
	return t
}

// PatchMetaFromOpenAPIV3 reads patch metadata from an OpenAPI v3 schema;
// SchemaList resolves its references (#/components/schemas/NAME).
type PatchMetaFromOpenAPIV3 struct {
	// SchemaList is required to resolve OpenAPI V3 references
	SchemaList map[string]*spec.Schema
	Schema     *spec.Schema
}

// v3Field returns the property key of s's schema, unresolved.
func (s PatchMetaFromOpenAPIV3) v3Field(key string) (PatchMetaFromOpenAPIV3, PatchMeta, error) {
	if s.Schema == nil {
		return PatchMetaFromOpenAPIV3{}, PatchMeta{}, nil
	}
	prop, ok := s.Schema.Properties[key]
	if !ok {
		return PatchMetaFromOpenAPIV3{}, PatchMeta{}, fmt.Errorf("unable to find api field %q", key)
	}
	var meta PatchMeta
	if k, ok := prop.Extensions[extMergeKey].(string); ok {
		meta.SetPatchMergeKey(k)
	}
	if st, ok := prop.Extensions[extStrategy].(string); ok {
		meta.SetPatchStrategies(strings.Split(st, ","))
	}
	return PatchMetaFromOpenAPIV3{SchemaList: s.SchemaList, Schema: &prop}, meta, nil
}

// resolved follows the first allOf entry and a reference into SchemaList.
func (s PatchMetaFromOpenAPIV3) resolved() (PatchMetaFromOpenAPIV3, error) {
	if s.Schema == nil {
		return s, nil
	}
	if len(s.Schema.AllOf) > 0 {
		s.Schema = &s.Schema.AllOf[0]
	}
	if ref := s.Schema.Ref.String(); ref != "" {
		target, ok := s.SchemaList[strings.TrimPrefix(ref, "#/components/schemas/")]
		if !ok {
			return s, fmt.Errorf("unable to resolve %s in OpenAPI V3", ref)
		}
		s.Schema = target
	}
	return s, nil
}

// LookupPatchMetadataForStruct returns the schema of property key and its
// x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key.
func (s PatchMetaFromOpenAPIV3) LookupPatchMetadataForStruct(key string) (LookupPatchMeta, PatchMeta, error) {
	f, meta, err := s.v3Field(key)
	if err != nil || f.Schema == nil {
		return f, meta, err
	}
	f, err = f.resolved()
	return f, meta, err
}

// LookupPatchMetadataForSlice returns the item schema of the list property
// key and the property's patch metadata.
func (s PatchMetaFromOpenAPIV3) LookupPatchMetadataForSlice(key string) (LookupPatchMeta, PatchMeta, error) {
	f, meta, err := s.v3Field(key)
	if err != nil || f.Schema == nil {
		return f, meta, err
	}
	if f.Schema.Items != nil {
		f.Schema = f.Schema.Items.Schema
	}
	f, err = f.resolved()
	return f, meta, err
}

// Name returns the schema's type, or "Struct".
func (s PatchMetaFromOpenAPIV3) Name() string {
	if s.Schema != nil && len(s.Schema.Type) > 0 {
		return strings.Join(s.Schema.Type, "")
	}
	return "Struct"
}

// PatchMetaFromOpenAPI reads patch metadata from an OpenAPI v2 model.
type PatchMetaFromOpenAPI struct {
	Schema openapi.Schema
}

// NewPatchMetaFromOpenAPI returns the PatchMetaFromOpenAPI of s.
func NewPatchMetaFromOpenAPI(s openapi.Schema) PatchMetaFromOpenAPI {
	return PatchMetaFromOpenAPI{Schema: s}
}

var _ LookupPatchMeta = PatchMetaFromOpenAPI{}

// LookupPatchMetadataForStruct returns the schema of the field key of a
// kind and its patch metadata.
func (s PatchMetaFromOpenAPI) LookupPatchMetadataForStruct(key string) (LookupPatchMeta, PatchMeta, error) {
	if s.Schema == nil {
		return &PatchMetaFromOpenAPI{}, PatchMeta{}, nil
	}
	item := NewKindItem(key, s.Schema.GetPath())
	s.Schema.Accept(item)
	if err := item.Error(); err != nil {
		return nil, PatchMeta{}, err
	}
	return PatchMetaFromOpenAPI{Schema: item.subschema}, item.patchmeta, nil
}

// LookupPatchMetadataForSlice returns the item schema of the list field key
// of a kind and the field's patch metadata.
func (s PatchMetaFromOpenAPI) LookupPatchMetadataForSlice(key string) (LookupPatchMeta, PatchMeta, error) {
	if s.Schema == nil {
		return nil, PatchMeta{}, nil
	}
	item := NewSliceItem(key, s.Schema.GetPath())
	s.Schema.Accept(item)
	if err := item.Error(); err != nil {
		return nil, PatchMeta{}, err
	}
	return PatchMetaFromOpenAPI{Schema: item.subschema}, item.patchmeta, nil
}

// Name returns the schema's name.
func (s PatchMetaFromOpenAPI) Name() string { return s.Schema.GetName() }
