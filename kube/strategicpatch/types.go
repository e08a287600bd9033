package strategicpatch

import (
	"errors"
	"strings"

	"k8s.io/apimachinery/pkg/util/mergepatch"
	openapi "k8s.io/kube-openapi/pkg/util/proto"
)

// LookupPatchItem is a schema visitor that finds one field of a kind.
type LookupPatchItem interface {
	openapi.SchemaVisitor

	Error() error
	Path() *openapi.Path
}

// kindItem finds the field key of a kind, for an object value.
type kindItem struct {
	key       string
	path      *openapi.Path
	err       error
	patchmeta PatchMeta
	subschema openapi.Schema
}

// NewKindItem returns a visitor that finds the field key of a kind.
func NewKindItem(key string, path *openapi.Path) *kindItem {
	return &kindItem{key: key, path: path}
}

var _ LookupPatchItem = &kindItem{}

// Error returns what the visit found wrong, or nil.
func (item *kindItem) Error() error { return item.err }

// Path returns the path of the schema visited.
func (item *kindItem) Path() *openapi.Path { return item.path }

// VisitPrimitive fails: a primitive has no fields.
func (item *kindItem) VisitPrimitive(*openapi.Primitive) {
	item.err = errors.New("expected kind, but got primitive")
}

// VisitArray fails: an array has no fields.
func (item *kindItem) VisitArray(*openapi.Array) {
	item.err = errors.New("expected kind, but got slice")
}

// VisitMap fails: a map's keys are data, not fields.
func (item *kindItem) VisitMap(*openapi.Map) {
	item.err = errors.New("expected kind, but got map")
}

// VisitReference visits the referenced schema.
func (item *kindItem) VisitReference(schema openapi.Reference) {
	schema.SubSchema().Accept(item)
}

// VisitKind finds the field and reads its patch metadata.
func (item *kindItem) VisitKind(schema *openapi.Kind) {
	item.subschema, item.patchmeta, item.err = kindField(schema, item.key)
}

// sliceItem finds the list field key of a kind and its item schema.
type sliceItem struct {
	key          string
	path         *openapi.Path
	err          error
	patchmeta    PatchMeta
	subschema    openapi.Schema
	hasVisitKind bool
}

// NewSliceItem returns a visitor that finds the list field key of a kind.
func NewSliceItem(key string, path *openapi.Path) *sliceItem {
	return &sliceItem{key: key, path: path}
}

var _ LookupPatchItem = &sliceItem{}

// Error returns what the visit found wrong, or nil.
func (item *sliceItem) Error() error { return item.err }

// Path returns the path of the schema visited.
func (item *sliceItem) Path() *openapi.Path { return item.path }

// VisitPrimitive fails: neither a kind nor a list.
func (item *sliceItem) VisitPrimitive(*openapi.Primitive) {
	item.err = errors.New("expected slice, but got primitive")
}

// VisitArray takes the item schema of the field found by VisitKind.
func (item *sliceItem) VisitArray(schema *openapi.Array) {
	if !item.hasVisitKind {
		item.err = errors.New("expected visit kind first, then visit array")
	}
	item.subschema = schema.SubType
}

// VisitMap fails: neither a kind nor a list.
func (item *sliceItem) VisitMap(*openapi.Map) {
	item.err = errors.New("expected slice, but got map")
}

// VisitReference visits the referenced kind, or takes the reference as
// the item schema once the field is found.
func (item *sliceItem) VisitReference(schema openapi.Reference) {
	if item.hasVisitKind {
		item.subschema = schema.SubSchema()
		return
	}
	schema.SubSchema().Accept(item)
}

// VisitKind finds the field, reads its patch metadata and visits its
// schema for the item type.
func (item *sliceItem) VisitKind(schema *openapi.Kind) {
	var field openapi.Schema
	field, item.patchmeta, item.err = kindField(schema, item.key)
	if item.err != nil {
		return
	}
	item.hasVisitKind = true
	field.Accept(item)
}

// kindField returns the field key of a kind and its patch metadata.
func kindField(k *openapi.Kind, key string) (openapi.Schema, PatchMeta, error) {
	f, ok := k.Fields[key]
	if !ok {
		return nil, PatchMeta{}, FieldNotFoundError{Path: k.GetPath().String(), Field: key}
	}
	meta, err := extensionMeta(f.GetExtensions())
	return f, meta, err
}

// extensionMeta reads x-kubernetes-patch-strategy (comma-separated) and
// x-kubernetes-patch-merge-key, each of which must be a string.
func extensionMeta(ext map[string]interface{}) (PatchMeta, error) {
	var meta PatchMeta
	if v, ok := ext[extStrategy]; ok {
		s, isString := v.(string)
		if !isString {
			return PatchMeta{}, mergepatch.ErrBadArgType("", v)
		}
		meta.patchStrategies = strings.Split(s, ",")
	}
	if v, ok := ext[extMergeKey]; ok {
		s, isString := v.(string)
		if !isString {
			return PatchMeta{}, mergepatch.ErrBadArgType("", v)
		}
		meta.patchMergeKey = s
	}
	return meta, nil
}
