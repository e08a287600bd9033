package bench

import (
	"fmt"
	"reflect"
	"slices"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// maxSchemaDiffs bounds the differences schemaDiff reports.
const maxSchemaDiffs = 20

// schemaDiff compares a schema reflectschema built from Go types (want)
// with one without Go types (got, read from OpenAPI): kinds, field names,
// patch metadata, and each scalar's JSON type and format, recursively. It
// returns the differences found, each with its path, at most
// maxSchemaDiffs. Field order is not compared: OpenAPI properties are an
// object, read back sorted.
func schemaDiff(want, got *rs.Type) []string {
	c := &schemaComparer{seen: map[[2]*rs.Type]bool{}}
	c.compare(want, got, "")
	return c.diffs
}

type schemaComparer struct {
	seen  map[[2]*rs.Type]bool
	diffs []string
}

func (c *schemaComparer) fail(path, format string, args ...any) {
	if len(c.diffs) < maxSchemaDiffs {
		c.diffs = append(c.diffs, fmt.Sprintf("%s: %s", orRoot(path), fmt.Sprintf(format, args...)))
	}
}

func orRoot(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func (c *schemaComparer) compare(want, got *rs.Type, path string) {
	if want == nil || got == nil {
		if want != got {
			c.fail(path, "want %v, got %v", want, got)
		}
		return
	}
	pair := [2]*rs.Type{want, got}
	if c.seen[pair] || len(c.diffs) >= maxSchemaDiffs {
		return
	}
	c.seen[pair] = true
	if got.Go != nil {
		c.fail(path, "got a Go type %v", got.Go)
	}
	if want.Kind != got.Kind {
		c.fail(path, "kind %v, want %v (%v)", got.Kind, want.Kind, want)
		return
	}
	switch want.Kind {
	case rs.Scalar:
		typ, format, ok := goJSONType(want.Go)
		if !ok {
			c.fail(path, "no JSON type known for Go kind %v", want.Go.Kind())
		} else if got.JSONType != typ || got.Format != format {
			c.fail(path, "JSON type %q format %q, want %q %q (%v)", got.JSONType, got.Format, typ, format, want)
		}
	case rs.List, rs.Map:
		c.compare(want.Elem, got.Elem, path+"[]")
	case rs.Struct:
		c.compareFields(want, got, path)
	}
}

func (c *schemaComparer) compareFields(want, got *rs.Type, path string) {
	names := func(t *rs.Type) []string {
		var out []string
		for _, f := range t.Fields {
			out = append(out, f.Name)
		}
		slices.Sort(out)
		return out
	}
	if w, g := names(want), names(got); !slices.Equal(w, g) {
		c.fail(path, "fields %v, want %v", g, w)
		return
	}
	for _, wf := range want.Fields {
		fp := wf.Name
		if path != "" {
			fp = path + "." + wf.Name
		}
		gf := got.Field(wf.Name)
		if wf.Quoted {
			c.fail(fp, "a quoted (json \",string\") field, which OpenAPI cannot say")
		}
		if !samePatchMeta(wf.Patch, gf.Patch) {
			c.fail(fp, "patch metadata %+v, want %+v", gf.Patch, wf.Patch)
		}
		c.compare(wf.Type, gf.Type, fp)
	}
}

func samePatchMeta(a, b rs.PatchMeta) bool {
	return a.Strategy == b.Strategy && a.RetainKeys == b.RetainKeys &&
		slices.Equal(a.MergeKey, b.MergeKey) && slices.Equal(a.RecommendedMergeKey, b.RecommendedMergeKey)
}

// goJSONType is the OpenAPI type and format Kubernetes' own OpenAPI
// publishes for a Go scalar kind.
func goJSONType(t reflect.Type) (typ, format string, ok bool) {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean", "", true
	case reflect.String:
		return "string", "", true
	case reflect.Slice:
		return "string", "byte", true
	case reflect.Int32:
		return "integer", "int32", true
	case reflect.Int64, reflect.Int:
		return "integer", "int64", true
	case reflect.Float64:
		return "number", "double", true
	case reflect.Float32:
		return "number", "float", true
	}
	return "", "", false
}
