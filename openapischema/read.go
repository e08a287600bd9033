package openapischema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// GVK names a kind: its API group ("" for the core group), version and
// kind.
type GVK struct {
	Group, Version, Kind string
}

// APIVersion returns the apiVersion objects of the kind carry: "v1" or
// "apps/v1".
func (g GVK) APIVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// Schemas holds the schemas one document describes. It is immutable, and
// its types are sealed (see [reflectschema.Seal]): safe for concurrent use.
type Schemas struct {
	kinds map[GVK]*reflectschema.Type
	defs  map[string]*reflectschema.Type
}

// Kinds lists the kinds found, sorted.
func (s *Schemas) Kinds() []GVK {
	return slices.SortedFunc(maps.Keys(s.kinds), func(a, b GVK) int {
		return strings.Compare(a.Group+"/"+a.Version+"/"+a.Kind, b.Group+"/"+b.Version+"/"+b.Kind)
	})
}

// Definition returns the schema an OpenAPI document defines under name
// (a key of "definitions" or "components.schemas"), or nil. Definitions
// without x-kubernetes-group-version-kind are found only here.
func (s *Schemas) Definition(name string) *reflectschema.Type { return s.defs[name] }

// Definitions lists the names of an OpenAPI document's schemas, sorted.
func (s *Schemas) Definitions() []string { return slices.Sorted(maps.Keys(s.defs)) }

// Read reads an OpenAPI v2 or v3 document, or one or more
// CustomResourceDefinitions (a YAML stream of documents separated by
// "---", or a List), in YAML or JSON. Every schema in it is built and
// checked: the first that cannot work is reported as an [*Error].
func Read(data []byte) (*Schemas, error) {
	docs := splitYAML(data)
	s := &Schemas{kinds: map[GVK]*reflectschema.Type{}, defs: map[string]*reflectschema.Type{}}
	for i, d := range docs {
		if err := s.readOne(d, i, len(docs) > 1); err != nil {
			return nil, err
		}
	}
	return s, nil
}

var docSeparator = regexp.MustCompile(`(?m)^---[ \t]*(#.*)?\r?$`)

// splitYAML splits a YAML stream into its non-empty documents.
func splitYAML(data []byte) [][]byte {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return [][]byte{data}
	}
	var out [][]byte
	for _, d := range docSeparator.Split(string(data), -1) {
		if strings.TrimSpace(stripComments(d)) != "" {
			out = append(out, []byte(d))
		}
	}
	if len(out) == 0 {
		return [][]byte{data}
	}
	return out
}

func stripComments(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// decode reads YAML or JSON into plain Go values.
func decode(data []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil { // the YAML parser's own failures
			err = fmt.Errorf("YAML: %v", r)
		}
	}()
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		err = json.Unmarshal(data, &v) // JSON, such as /openapi/v2: no YAML parser needed
		return v, err
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	err = json.Unmarshal(j, &v)
	return v, err
}

func (s *Schemas) readOne(data []byte, index int, stream bool) error {
	fail := func(reason Reason, format string, args ...any) error {
		e := &Error{Reason: reason, Pointer: "#", Msg: fmt.Sprintf(format, args...)}
		if stream {
			e.Document = index + 1
		}
		return e
	}
	v, err := decode(data)
	if err != nil {
		return fail(ReasonSyntax, "%v", err)
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return fail(ReasonNotOpenAPI, "the document is %s, not an OpenAPI document or CustomResourceDefinition", describe(v))
	}
	b := newBuilder(doc)
	if stream {
		b.document = index + 1
	}
	switch {
	case doc["swagger"] != nil:
		if v, _ := doc["swagger"].(string); !strings.HasPrefix(v, "2.") {
			return fail(ReasonNotOpenAPI, "swagger version %s is not 2.x", describe(doc["swagger"]))
		}
		err = b.readDefinitions(s, "definitions")
	case doc["openapi"] != nil:
		if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.") {
			return fail(ReasonNotOpenAPI, "openapi version %s is not 3.x", describe(doc["openapi"]))
		}
		err = b.readDefinitions(s, "components", "schemas")
	case doc["kind"] == "CustomResourceDefinition":
		err = b.readCRD(s, doc, "#")
	case doc["kind"] == "List" || doc["kind"] == "CustomResourceDefinitionList":
		err = b.readList(s, doc)
	default:
		return fail(ReasonNotOpenAPI, "the document has neither \"swagger\", \"openapi\" nor kind CustomResourceDefinition")
	}
	if err != nil {
		return err
	}
	return b.finish()
}

// describe names a decoded JSON value's type for a message.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case bool:
		return "a boolean"
	}
	return "a number"
}
