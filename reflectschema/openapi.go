package reflectschema

import (
	"reflect"
	"strconv"
	"strings"
)

// The OpenAPI extensions Kubernetes publishes patch metadata under; the
// recommended key is the multi-field merge key proposal's.
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
// component schemas (see [OpenAPISchemas]). It returns the name of t's
// schema and the schemas.
func OpenAPI(t *Type) (root string, schemas map[string]map[string]any) {
	names, schemas := OpenAPISchemas(t)
	return names[0], schemas
}

// OpenAPISchemas describes the roots and every struct type they reach as
// one set of OpenAPI v3 component schemas, with each field's patch
// metadata as the x-kubernetes-* extensions, and returns the name of each
// root's schema. A struct's schema is named by its Go type ("v1.Pod"),
// qualified by its package path ("k8s.io/api/core/v1.Pod") where two
// types would share a name, or by its Name when it has no Go type; a
// non-struct root's schema is written inline under its own name. Scalars
// carry type and format (int32, int64, float, double, byte); types that
// marshal themselves are x-kubernetes-atomic, untyped JSON and structs
// that preserve unknown fields x-kubernetes-preserve-unknown-fields. A scalar that may be any JSON
// scalar (a schema without a Go type and without a JSONType) has no
// OpenAPI type and reads back as untyped JSON.
func OpenAPISchemas(roots ...*Type) (names []string, schemas map[string]map[string]any) {
	w := &openAPIWriter{names: structNames(roots), schemas: map[string]map[string]any{}}
	for _, t := range roots {
		ref := w.ref(t)
		if r, ok := ref["$ref"].(string); ok {
			names = append(names, unescapePointer(strings.TrimPrefix(r, componentsPrefix)))
			continue
		}
		w.schemas[t.String()] = ref
		names = append(names, t.String())
	}
	return names, w.schemas
}

const componentsPrefix = "#/components/schemas/"

type openAPIWriter struct {
	names   map[*Type]string
	schemas map[string]map[string]any
}

// structNames names every struct type the roots reach, uniquely.
func structNames(roots []*Type) map[*Type]string {
	var order []*Type
	seen := map[*Type]bool{}
	var visit func(t *Type)
	visit = func(t *Type) {
		for t != nil && !seen[t] {
			seen[t] = true
			switch t.Kind {
			case Struct:
				order = append(order, t)
				for _, f := range t.Fields {
					visit(f.Type)
				}
				return
			case List, Map:
				t = t.Elem
			default:
				return
			}
		}
	}
	for _, r := range roots {
		visit(r)
	}
	count := map[string]int{}
	for _, t := range order {
		count[t.String()]++
	}
	names := make(map[*Type]string, len(order))
	taken := map[string]bool{}
	for _, t := range order {
		name := t.String()
		if count[name] > 1 && t.Go != nil && t.Go.PkgPath() != "" {
			name = t.Go.PkgPath() + "." + t.Go.Name()
		}
		for n, base := 2, name; taken[name]; n++ {
			name = base + "_" + strconv.Itoa(n)
		}
		taken[name] = true
		names[t] = name
	}
	return names
}

// ref returns the schema of t, a $ref for structs, adding struct schemas
// to the set as it meets them.
func (w *openAPIWriter) ref(t *Type) map[string]any {
	switch t.Kind {
	case Struct:
		name := w.names[t]
		if _, ok := w.schemas[name]; !ok {
			props := map[string]any{}
			w.schemas[name] = map[string]any{"type": "object", "properties": props} // registered first: recursive types end here
			if t.PreserveUnknown {
				w.schemas[name]["x-kubernetes-preserve-unknown-fields"] = true
			}
			for _, f := range t.Fields {
				props[f.Name] = w.field(f)
			}
		}
		return map[string]any{"$ref": componentsPrefix + escapePointer(name)}
	case List:
		return map[string]any{"type": "array", "items": w.ref(t.Elem)}
	case Map:
		return map[string]any{"type": "object", "additionalProperties": w.ref(t.Elem)}
	case Scalar:
		s := map[string]any{}
		if typ, format := scalarType(t); typ != "" {
			s["type"] = typ
			if format != "" {
				s["format"] = format
			}
		}
		return s
	case Atomic:
		return map[string]any{"x-kubernetes-atomic": true, "description": t.String() + " marshals itself"}
	default:
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	}
}

// field returns a property's schema with the field's extensions; a $ref
// cannot carry siblings, so it is wrapped in allOf.
func (w *openAPIWriter) field(f *Field) map[string]any {
	p := w.ref(f.Type)
	ext := f.Extensions()
	if len(ext) == 0 {
		return p
	}
	if _, isRef := p["$ref"]; isRef {
		p = map[string]any{"allOf": []any{p}}
	}
	for k, v := range ext {
		p[k] = v
	}
	return p
}

// scalarType returns a scalar's OpenAPI type and format: from its Go kind,
// or from JSONType and Format for a schema without a Go type.
func scalarType(t *Type) (typ, format string) {
	if t.Go == nil {
		return t.JSONType, t.Format
	}
	switch t.Go.Kind() {
	case reflect.Bool:
		return JSONBoolean, ""
	case reflect.String:
		return JSONString, ""
	case reflect.Slice, reflect.Array:
		return JSONString, "byte"
	case reflect.Float32:
		return JSONNumber, "float"
	case reflect.Float64:
		return JSONNumber, "double"
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		return JSONInteger, "int32"
	case reflect.Int, reflect.Int64, reflect.Uint32:
		return JSONInteger, "int64"
	}
	return JSONInteger, "" // uint, uint64, uintptr: wider than int64
}

var (
	pointerEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

func escapePointer(s string) string   { return pointerEscaper.Replace(s) }
func unescapePointer(s string) string { return pointerUnescaper.Replace(s) }
