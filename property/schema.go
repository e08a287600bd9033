package property

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// CheckSchema runs every property on documents of a schema without a Go
// type, such as one package openapischema reads from a
// CustomResourceDefinition, each as a parallel subtest of t named after
// it:
//
//	schemas, err := openapischema.Read(crd)
//	...
//	rollout, err := schemas.Lookup("argoproj.io/v1alpha1", "Rollout")
//	...
//	property.CheckSchema(t, rollout)
//
// The documents are drawn as JSON straight from the schema (see
// [GenerateJSON]) and the properties run through the JSON API only
// (ApplyJSON, DiffJSON, ThreeWayJSON with the schema as data struct): the
// typed API needs a Go type. Results are compared as JSON, absent, null
// and empty values alike. The schema must describe an object with
// declared fields (a Struct); a schema that fails
// [reflectschema.Type.Validate] fails t. [OverrideType] has nothing to
// act on; the other options work as with [Check].
func CheckSchema(t *testing.T, schema *reflectschema.Type, opts ...Option) {
	t.Helper()
	ps, err := SchemaProperties(schema, opts...)
	if err != nil {
		t.Fatalf("%v", err)
	}
	cfg := newConfig(opts)
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			if !cfg.serial {
				t.Parallel()
			}
			p.Run(t)
		})
	}
}

// SchemaProperties returns the properties of the suite for a schema
// without a Go type, as [Properties] does for a Go type; see
// [CheckSchema]. It returns an error for a schema that is not a valid
// object schema.
func SchemaProperties(schema *reflectschema.Type, opts ...Option) ([]Property, error) {
	cfg := newConfig(opts)
	s, err := newSchemaSuite(cfg, schema)
	if err != nil {
		return nil, err
	}
	return s.properties(), nil
}

// GenerateJSON returns a rapid generator of JSON documents of a schema,
// drawn from the schema alone: objects field by field (each field present
// or absent), lists and maps of up to MaxLen entries, merge lists with
// unique keys from small pools, scalars of the schema's JSON type and
// format, atomic values (int-or-string) from a pool of JSON values, and
// untyped or preserve-unknown-fields subtrees as small JSON objects. Draws
// are labelled with their JSON paths, as [Generate]'s are. It panics on a
// schema [SchemaProperties] rejects.
func GenerateJSON(schema *reflectschema.Type, opts ...Option) *rapid.Generator[[]byte] {
	cfg := newConfig(opts)
	if err := checkSchema(schema); err != nil {
		panic(err.Error())
	}
	g := newGenerator(cfg, schema, false, "")
	return rapid.Custom(func(t *rapid.T) []byte {
		b, err := json.Marshal(g.jvalue(t, site{n: node{t: schema}}))
		if err != nil {
			panic(fmt.Sprintf("property: the generator drew a document that does not marshal: %v", err))
		}
		return b
	})
}

func checkSchema(st *reflectschema.Type) error {
	if st == nil {
		return errors.New("property: the schema is nil")
	}
	if err := st.Validate(); err != nil {
		return fmt.Errorf("property: %w", err)
	}
	if st.Kind != reflectschema.Struct {
		return fmt.Errorf("property: the schema %s is a %s, not an object with fields", st, st.Kind)
	}
	return nil
}

func newSchemaSuite(cfg *config, st *reflectschema.Type) (*suite, error) {
	if err := checkSchema(st); err != nil {
		return nil, err
	}
	return &suite{
		cfg: cfg, schema: st, root: node{t: st},
		unique:      newGenerator(cfg, st, false, ""),
		dups:        newGenerator(cfg, st, true, ""),
		engines:     []engine{jsonEngine{dataStruct: st}},
		recommended: hasRecommendedKeys(st),
	}, nil
}

// drawJSON is draw for a schema without a Go type.
func (s *suite) drawJSON(t *rapid.T, g *generator, current bool) trio {
	root := site{n: s.root}
	ov := g.jvalue(t, root)
	mg := g.withRole("modified: ")
	var mv any
	if chance(t, "modified: drawn apart from original", 6) {
		mv = mg.jvalue(t, root)
	} else {
		mv = mg.jmutate(t, root, ov)
	}
	tr := trio{o: s.jsonDoc(t, ov), m: s.jsonDoc(t, mv)}
	if current {
		base := ov
		if chance(t, "current: made from modified", 4) {
			base = mv
		}
		tr.c = s.jsonDoc(t, g.withRole("current: ").jmutate(t, root, base))
	}
	return tr
}

func (s *suite) jsonDoc(t *rapid.T, v any) doc {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("property: the generator drew a document of %s that does not marshal: %v", s.schema, err)
	}
	return doc{b: b}
}

// canonJSON is a document as JSON sees it, with the engine's nil ≡ empty:
// object members that are null, empty, or objects holding only such
// members are dropped.
func canonJSON(data []byte) ([]byte, error) {
	v, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("the document is not JSON: %w", err)
	}
	return json.Marshal(pruneEmpty(v))
}

func pruneEmpty(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if pe := pruneEmpty(e); !isEmpty(pe) {
				out[k] = pe
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = pruneEmpty(e)
		}
		return out
	}
	return v
}
