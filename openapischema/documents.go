package openapischema

import (
	"maps"
	"slices"
	"strconv"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

const extGVK = "x-kubernetes-group-version-kind"

// readDefinitions reads every schema of an OpenAPI document, under the
// members named by path ("definitions", or "components" and "schemas"),
// and registers the kinds each names in x-kubernetes-group-version-kind.
func (b *builder) readDefinitions(s *Schemas, path ...string) error {
	var node any = b.doc
	ptr := "#"
	for _, p := range path {
		m, ok := node.(map[string]any)
		if !ok {
			return b.fail(ReasonInvalid, ptr, "must be an object, not %s", describe(node))
		}
		ptr = child(ptr, p)
		if node = m[p]; node == nil {
			return nil // a document without schemas
		}
	}
	defs, ok := node.(map[string]any)
	if !ok {
		return b.fail(ReasonInvalid, ptr, "must be an object of schemas, not %s", describe(node))
	}
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		dptr := child(ptr, name)
		t, err := b.ref(dptr, dptr)
		if err != nil {
			return err
		}
		s.defs[name] = t
		b.roots = append(b.roots, t)
		gvks, err := b.gvks(defs[name], dptr)
		if err != nil {
			return err
		}
		for _, g := range gvks {
			if _, dup := s.kinds[g]; !dup {
				s.kinds[g] = t
			}
		}
	}
	return nil
}

// gvks reads a definition's x-kubernetes-group-version-kind.
func (b *builder) gvks(def any, ptr string) ([]GVK, error) {
	m, _ := def.(map[string]any)
	v, ok := m[extGVK]
	if !ok {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var out []GVK
	for i, e := range list {
		g, ok := e.(map[string]any)
		group, ok1 := g["group"].(string)
		version, ok2 := g["version"].(string)
		kind, ok3 := g["kind"].(string)
		if !ok || !ok2 || !ok3 || (g["group"] != nil && !ok1) || version == "" || kind == "" {
			return nil, b.fail(ReasonInvalid, child(ptr, extGVK, strconv.Itoa(i)), "want {group, version, kind} strings, found %s", describe(e))
		}
		out = append(out, GVK{Group: group, Version: version, Kind: kind})
	}
	return out, nil
}

// readList reads the CustomResourceDefinitions of a List.
func (b *builder) readList(s *Schemas, doc map[string]any) error {
	items, ok := doc["items"].([]any)
	if !ok {
		return b.fail(ReasonInvalid, "#/items", "a List needs items, found %s", describe(doc["items"]))
	}
	for i, it := range items {
		ptr := child("#", "items", strconv.Itoa(i))
		m, ok := it.(map[string]any)
		if !ok || m["kind"] != "CustomResourceDefinition" {
			return b.fail(ReasonNotOpenAPI, ptr, "not a CustomResourceDefinition")
		}
		if err := b.readCRD(s, m, ptr); err != nil {
			return err
		}
	}
	return nil
}

// readCRD registers the kind of every version a CustomResourceDefinition
// serves, from its schema.openAPIV3Schema.
func (b *builder) readCRD(s *Schemas, crd map[string]any, ptr string) error {
	if v := crd["apiVersion"]; v != "apiextensions.k8s.io/v1" {
		return b.fail(ReasonUnsupported, child(ptr, "apiVersion"), "CustomResourceDefinition apiVersion %s; want apiextensions.k8s.io/v1", describe(v))
	}
	spec, _ := crd["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group, _ := spec["group"].(string)
	kind, _ := names["kind"].(string)
	versions, _ := spec["versions"].([]any)
	switch {
	case group == "":
		return b.fail(ReasonInvalid, child(ptr, "spec", "group"), "a CustomResourceDefinition needs a group")
	case kind == "":
		return b.fail(ReasonInvalid, child(ptr, "spec", "names", "kind"), "a CustomResourceDefinition needs a kind")
	case len(versions) == 0:
		return b.fail(ReasonInvalid, child(ptr, "spec", "versions"), "a CustomResourceDefinition needs versions")
	}
	for i, v := range versions {
		vptr := child(ptr, "spec", "versions", strconv.Itoa(i))
		vm, _ := v.(map[string]any)
		name, _ := vm["name"].(string)
		if name == "" {
			return b.fail(ReasonInvalid, child(vptr, "name"), "a version needs a name")
		}
		t, err := b.crdRoot(vm, vptr)
		if err != nil {
			return err
		}
		s.kinds[GVK{Group: group, Version: name, Kind: kind}] = t
	}
	return nil
}

// crdRoot builds the schema of one version: an object with the fields
// every Kubernetes object has.
func (b *builder) crdRoot(version map[string]any, ptr string) (*rs.Type, error) {
	t := &rs.Type{Kind: rs.Untyped}
	schema, _ := version["schema"].(map[string]any)
	if root, ok := schema["openAPIV3Schema"]; ok {
		sptr := child(ptr, "schema", "openAPIV3Schema")
		built, err := b.schema(root, sptr)
		if err != nil {
			return nil, err
		}
		if built.Kind != rs.Struct && built.Kind != rs.Untyped {
			return nil, b.fail(ReasonInvalid, sptr, "a kind's schema must describe an object, not %s", built)
		}
		t = built
	}
	if t.Kind == rs.Untyped {
		t = &rs.Type{Kind: rs.Struct, PreserveUnknown: true}
	}
	b.embed(t)
	b.roots = append(b.roots, t)
	return t, nil
}
