package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
)

// schemas finds the schema of each object: the --type, else the --schema
// files in order, else the built-in kinds.
type schemas struct {
	typeName string
	files    []*openapischema.Schemas
	crds     []crdInfo         // the CustomResourceDefinitions among the files
	crdIndex map[[2]string]int // group and kind -> the first of crds
}

// loadSchemas reads the --schema files.
func loadSchemas(o *options) (*schemas, error) {
	s := &schemas{typeName: o.typeName}
	if s.typeName != "" {
		if _, ok := exampletypes.Lookup(s.typeName); !ok {
			return nil, unknownType(s.typeName)
		}
	}
	for _, name := range o.schemaFiles {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, &inputError{role: "--schema", name: name, unreadable: true, err: err}
		}
		sc, err := openapischema.Read(data)
		if err != nil {
			return nil, &inputError{role: "--schema", name: name, err: err}
		}
		s.files = append(s.files, sc)
		if objs, err := parseDocuments("--schema", name, data); err == nil {
			s.addCRDs(readCRDs(name, objs))
		}
	}
	return s, nil
}

// kindError is a kind smp has no schema for, or a --type that contradicts
// a document's kind.
type kindError struct{ msg string }

func (e *kindError) Error() string { return e.msg }

// forGroup returns the dataStruct for the engine's JSON API and the name
// of the schema, for messages.
func (s *schemas) forGroup(g *group) (any, string, error) {
	if s.typeName != "" {
		for _, o := range g.objs {
			if o != nil && o.id.Kind != "" && o.id.Kind != s.typeName {
				return nil, "", usageErrorf("--type %s contradicts the kind %s of %s (%s)", s.typeName, quote(o.id.Kind), o.role, o.place())
			}
		}
		v, _ := exampletypes.Lookup(s.typeName)
		return v, s.typeName, nil
	}
	id := g.id
	if id.Kind == "" {
		for _, o := range g.objs {
			if o != nil && o.id.Kind != "" {
				id = o.id
				break
			}
		}
	}
	if id.APIVersion == "" || id.Kind == "" {
		return nil, "", &kindError{fmt.Sprintf("%s has no apiVersion and kind to choose its schema by; give them, or --type for the bundled example types", g.firstRole())}
	}
	t, err := s.lookup(id.APIVersion, id.Kind)
	if err != nil {
		return nil, "", err
	}
	return t, id.APIVersion + " " + id.Kind, nil
}

// lookup finds a kind in the --schema files, then among the built-in ones.
func (s *schemas) lookup(apiVersion, kind string) (*reflectschema.Type, error) {
	if err := s.checkServed(apiVersion, kind); err != nil {
		return nil, err
	}
	for _, f := range s.files {
		if t, err := f.Lookup(apiVersion, kind); err == nil {
			return t, nil
		}
	}
	t, err := builtin.Lookup(apiVersion, kind)
	if err == nil {
		return t, nil
	}
	if !errors.Is(err, builtin.ErrUnknownKind) {
		return nil, err
	}
	return nil, &kindError{fmt.Sprintf("unknown kind %s of apiVersion %s: not a built-in kind of Kubernetes, and no --schema file (a CustomResourceDefinition or an OpenAPI document) defines it", quote(kind), quote(apiVersion))}
}

// firstRole names the first operand the group has a document in.
func (g *group) firstRole() string {
	for _, o := range g.objs {
		if o != nil {
			return o.role
		}
	}
	return "the document"
}
