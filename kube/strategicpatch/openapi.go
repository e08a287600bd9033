package strategicpatch

import (
	"maps"
	"slices"
	"strings"

	"github.com/typedpatch/typedpatch/reflectschema"
	openapi "k8s.io/kube-openapi/pkg/util/proto"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// protoSchema converts an OpenAPI v2 model: kinds become structs whose
// fields carry x-kubernetes-patch-strategy and -merge-key, arrays lists,
// maps maps, primitives scalars, anything else untyped JSON. A nil model
// describes nothing: every value is untyped.
func protoSchema(s openapi.Schema) (*reflectschema.Type, error) {
	c := &protoConv{kinds: map[*openapi.Kind]*reflectschema.Type{}, refs: map[string]bool{}}
	root := c.conv(s)
	if root.Kind != reflectschema.Struct && root.Kind != reflectschema.Map {
		root = untyped()
	}
	return finish(root, c.pending)
}

type protoConv struct {
	kinds   map[*openapi.Kind]*reflectschema.Type
	refs    map[string]bool // references being followed
	pending []pendingField
}

func (c *protoConv) conv(s openapi.Schema) *reflectschema.Type {
	switch s := s.(type) {
	case openapi.Reference:
		// Kinds are memoized, which ends cycles through references; a
		// reference that reaches itself without a kind is untyped.
		name := s.Reference()
		if c.refs[name] {
			return untyped()
		}
		c.refs[name] = true
		defer delete(c.refs, name)
		return c.conv(s.SubSchema())
	case *openapi.Kind:
		return c.kind(s)
	case *openapi.Array:
		return &reflectschema.Type{Kind: reflectschema.List, Elem: c.conv(s.SubType)}
	case *openapi.Map:
		return &reflectschema.Type{Kind: reflectschema.Map, Elem: c.conv(s.SubType)}
	case *openapi.Primitive:
		return scalar()
	}
	return untyped()
}

func (c *protoConv) kind(k *openapi.Kind) *reflectschema.Type {
	if t, ok := c.kinds[k]; ok {
		return t
	}
	t := &reflectschema.Type{Kind: reflectschema.Struct, Name: k.GetName()}
	c.kinds[k] = t
	for _, name := range slices.Sorted(maps.Keys(k.Fields)) {
		fs := k.Fields[name]
		meta, err := extensionMeta(fs.GetExtensions())
		if err != nil {
			meta = PatchMeta{}
		}
		f := &reflectschema.Field{Name: name, Type: c.conv(fs)}
		t.Fields = append(t.Fields, f)
		c.pending = append(c.pending, pendingField{f, meta})
	}
	return t
}

// v3Schema converts an OpenAPI v3 schema as PatchMetaFromOpenAPIV3 reads
// it: properties (their patch extensions read before the first allOf and
// the reference are followed), items; a schema without properties is
// untyped JSON unless it is a scalar.
func v3Schema(s PatchMetaFromOpenAPIV3) (*reflectschema.Type, error) {
	c := &v3Conv{list: s.SchemaList, memo: map[*spec.Schema]*reflectschema.Type{}}
	root := untyped()
	if s.Schema != nil {
		root = c.conv(s.Schema)
	}
	if root.Kind != reflectschema.Struct {
		root = untyped()
	}
	return finish(root, c.pending)
}

type v3Conv struct {
	list    map[string]*spec.Schema
	memo    map[*spec.Schema]*reflectschema.Type
	pending []pendingField
}

// resolve follows the first allOf entry, then a reference.
func (c *v3Conv) resolve(s *spec.Schema) *spec.Schema {
	if len(s.AllOf) > 0 {
		s = &s.AllOf[0]
	}
	if ref := s.Ref.String(); ref != "" {
		return c.list[strings.TrimPrefix(ref, "#/components/schemas/")]
	}
	return s
}

// conv converts a resolved schema; nil (an unresolved reference) is
// untyped.
func (c *v3Conv) conv(s *spec.Schema) *reflectschema.Type {
	if s == nil {
		return untyped()
	}
	if t, ok := c.memo[s]; ok {
		return t
	}
	t := &reflectschema.Type{}
	c.memo[s] = t
	switch {
	case len(s.Properties) > 0:
		*t = reflectschema.Type{Kind: reflectschema.Struct, Name: "object"}
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			prop := s.Properties[name]
			f := &reflectschema.Field{Name: name, Type: c.field(&prop)}
			t.Fields = append(t.Fields, f)
			c.pending = append(c.pending, pendingField{f, v3Meta(&prop)})
		}
	case s.Items != nil && s.Items.Schema != nil:
		*t = reflectschema.Type{Kind: reflectschema.List, Elem: c.conv(c.resolve(s.Items.Schema))}
	case len(s.Type) == 1 && s.Type[0] != "object" && s.Type[0] != "array":
		*t = *scalar()
	default:
		*t = *untyped()
	}
	return t
}

// field converts a property: a list by its own items, as the slice lookup
// reads them, else by the resolved schema.
func (c *v3Conv) field(prop *spec.Schema) *reflectschema.Type {
	if prop.Items != nil && prop.Items.Schema != nil {
		return &reflectschema.Type{Kind: reflectschema.List, Elem: c.conv(c.resolve(prop.Items.Schema))}
	}
	return c.conv(c.resolve(prop))
}

// v3Meta reads a property's patch extensions; values that are not
// strings are ignored.
func v3Meta(s *spec.Schema) PatchMeta {
	var m PatchMeta
	if k, ok := s.Extensions[extMergeKey].(string); ok {
		m.patchMergeKey = k
	}
	if st, ok := s.Extensions[extStrategy].(string); ok {
		m.patchStrategies = strings.Split(st, ",")
	}
	return m
}
