package reflectschema

import "strings"

// The OpenAPI extensions Kubernetes publishes patch metadata under; the
// recommended key is seed 000's proposal.
const (
	ExtPatchStrategy       = "x-kubernetes-patch-strategy"
	ExtPatchMergeKey       = "x-kubernetes-patch-merge-key"
	ExtRecommendedMergeKey = "x-kubernetes-recommended-patch-merge-key"
)

// Extensions returns the field's patch metadata as OpenAPI extensions;
// absent metadata has no entry.
func (f *Field) Extensions() map[string]string {
	ext := map[string]string{}
	if s := f.Patch.StrategyTag(); s != "" {
		ext[ExtPatchStrategy] = s
	}
	if len(f.Patch.MergeKey) > 0 {
		ext[ExtPatchMergeKey] = strings.Join(f.Patch.MergeKey, ",")
	}
	if len(f.Patch.RecommendedMergeKey) > 0 {
		ext[ExtRecommendedMergeKey] = strings.Join(f.Patch.RecommendedMergeKey, ",")
	}
	return ext
}

// OpenAPI describes t and every struct type it reaches as OpenAPI v3
// component schemas keyed by Go type name ("fixtures.Pod"), with each
// field's patch metadata as the x-kubernetes-* extensions. It returns the
// name of t's schema (or t's inline schema name for non-structs) and the
// schemas.
func OpenAPI(t *Type) (root string, schemas map[string]map[string]any) {
	schemas = map[string]map[string]any{}
	ref := openAPIRef(t, schemas)
	if r, ok := ref["$ref"].(string); ok {
		return strings.TrimPrefix(r, "#/components/schemas/"), schemas
	}
	schemas[t.String()] = ref
	return t.String(), schemas
}

// openAPIRef returns the schema of t, a $ref for structs, adding struct
// schemas to the set as it meets them.
func openAPIRef(t *Type, schemas map[string]map[string]any) map[string]any {
	switch t.Kind {
	case Struct:
		name := t.String()
		if _, ok := schemas[name]; !ok {
			props := map[string]any{}
			obj := map[string]any{"type": "object", "properties": props}
			schemas[name] = obj // registered first: recursive types end here
			for _, f := range t.Fields {
				p := openAPIRef(f.Type, schemas)
				if ext := f.Extensions(); len(ext) > 0 {
					if _, isRef := p["$ref"]; isRef {
						p = map[string]any{"allOf": []any{p}}
					}
					for k, v := range ext {
						p[k] = v
					}
				}
				props[f.Name] = p
			}
		}
		return map[string]any{"$ref": "#/components/schemas/" + name}
	case List:
		return map[string]any{"type": "array", "items": openAPIRef(t.Elem, schemas)}
	case Map:
		return map[string]any{"type": "object", "additionalProperties": openAPIRef(t.Elem, schemas)}
	case Scalar:
		return map[string]any{"type": scalarType(t)}
	case Atomic:
		return map[string]any{"x-kubernetes-atomic": true, "description": t.String() + " marshals itself"}
	default:
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	}
}

func scalarType(t *Type) string {
	switch k := t.Go.Kind().String(); {
	case k == "bool":
		return "boolean"
	case k == "string", k == "slice":
		return "string"
	case strings.HasPrefix(k, "float"):
		return "number"
	default:
		return "integer"
	}
}
