package openapischema_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/openapischema"
	rs "github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// field follows a dotted path of JSON names from t, stepping into list
// elements and map values on the way.
func field(t *testing.T, st *rs.Type, path string) *rs.Field {
	t.Helper()
	var f *rs.Field
	for _, name := range strings.Split(path, ".") {
		for st.Kind == rs.List || st.Kind == rs.Map {
			st = st.Elem
		}
		f = st.Field(name)
		require.NotNil(t, f, "%s: no field %q in %s", path, name, st)
		st = f.Type
	}
	return f
}

func mergeList(keys ...string) rs.PatchMeta {
	return rs.PatchMeta{Strategy: rs.Merge, MergeKey: keys}
}

func TestRolloutSchema(t *testing.T) {
	st := kind(t, "rollout-crd.yaml", "argoproj.io/v1alpha1", "Rollout")
	containers := "spec.template.spec.containers"
	assert.Equal(t, mergeList("name"), field(t, st, containers).Patch)
	assert.Equal(t, mergeList("containerPort", "protocol"), field(t, st, containers+".ports").Patch)
	assert.Equal(t, mergeList("name"), field(t, st, containers+".env").Patch)
	assert.Equal(t, mergeList("mountPath"), field(t, st, containers+".volumeMounts").Patch)
	assert.Equal(t, rs.PatchMeta{}, field(t, st, containers+".args").Patch, "list-type atomic")
	assert.Equal(t, rs.PatchMeta{}, field(t, st, "spec.strategy.canary.steps").Patch, "no list type")
	assert.Equal(t, rs.Atomic, field(t, st, "spec.selector").Type.Kind, "map-type atomic")
	assert.Equal(t, rs.Atomic, field(t, st, containers+".env.valueFrom.secretKeyRef").Type.Kind)
	assert.Equal(t, rs.Atomic, field(t, st, "spec.strategy.canary.maxSurge").Type.Kind, "int-or-string")
	assert.Equal(t, rs.Untyped, field(t, st, "spec.strategy.canary.trafficRouting.plugins").Type.Kind)
	assert.Equal(t, rs.Untyped, field(t, st, "status").Type.Kind)
	limits := field(t, st, containers+".resources.limits").Type
	assert.Equal(t, rs.Map, limits.Kind)
	assert.Equal(t, rs.Atomic, limits.Elem.Kind, "quantities")
	replicas := field(t, st, "spec.replicas").Type
	assert.Equal(t, []any{rs.Scalar, rs.JSONInteger, "int32"}, []any{replicas.Kind, replicas.JSONType, replicas.Format})
	// The root gets ObjectMeta's patch metadata for its bare metadata.
	assert.Equal(t, rs.PatchMeta{Strategy: rs.Merge}, field(t, st, "metadata.finalizers").Patch)
	assert.Equal(t, mergeList("uid"), field(t, st, "metadata.ownerReferences").Patch)
}

func TestCertificateSchema(t *testing.T) {
	st := kind(t, "certificate-crd.yaml", "cert-manager.io/v1", "Certificate")
	assert.Equal(t, rs.PatchMeta{Strategy: rs.Merge}, field(t, st, "spec.dnsNames").Patch)
	assert.Equal(t, rs.PatchMeta{Strategy: rs.Merge}, field(t, st, "spec.usages").Patch)
	assert.Equal(t, rs.PatchMeta{}, field(t, st, "spec.ipAddresses").Patch)
	assert.Equal(t, mergeList("type"), field(t, st, "status.conditions").Patch)
	assert.Equal(t, rs.Map, field(t, st, "spec.secretTemplate.labels").Type.Kind)
}

func TestOpenAPIV2Schema(t *testing.T) {
	s := load(t, "openapi-v2.json")
	st, err := s.Lookup("apps/v1", "Deployment")
	require.NoError(t, err)
	pod := "spec.template.spec"
	// The patch extensions win over the list type: ports merge by
	// containerPort alone, as Kubernetes' Go types say.
	assert.Equal(t, mergeList("containerPort"), field(t, st, pod+".containers.ports").Patch)
	assert.Equal(t, rs.PatchMeta{Strategy: rs.Merge, RetainKeys: true, MergeKey: []string{"name"}}, field(t, st, pod+".volumes").Patch)
	assert.Equal(t, rs.PatchMeta{RetainKeys: true}, field(t, st, "spec.strategy").Patch)
	assert.Equal(t, rs.Atomic, field(t, st, pod+".nodeSelector").Type.Kind)
	assert.Equal(t, rs.Atomic, field(t, st, "spec.selector").Type.Kind)
	assert.Equal(t, rs.Atomic, field(t, st, "spec.strategy.rollingUpdate.maxSurge").Type.Kind)
	// A map-type atomic definition keeps its fields as a keyed element.
	owners := field(t, st, "metadata.ownerReferences")
	assert.Equal(t, mergeList("uid"), owners.Patch)
	assert.Equal(t, rs.Struct, owners.Type.Elem.Kind)
	assert.Equal(t, "io.k8s.api.core.v1.Container", field(t, st, pod+".containers").Type.Elem.String())

	// A recursive definition is one type that holds itself.
	props := s.Definition("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps")
	require.NotNil(t, props)
	assert.Same(t, props, props.Field("items").Type)
	assert.Same(t, props, props.Field("properties").Type.Elem)
	_, err = s.Lookup("v1", "Pod")
	assert.ErrorIs(t, err, openapischema.ErrUnknownKind)
	assert.Equal(t, []openapischema.GVK{{Group: "apps", Version: "v1", Kind: "Deployment"}}, s.Kinds())
}

func TestOpenAPIV3Schema(t *testing.T) {
	st := kind(t, "openapi-v3.yaml", "example.com/v1", "GameServer")
	assert.Equal(t, mergeList("port", "protocol"), field(t, st, "spec.ports").Patch)
	assert.Equal(t, rs.PatchMeta{Strategy: rs.Merge}, field(t, st, "spec.players").Patch)
	assert.Equal(t, rs.Struct, field(t, st, "spec.health").Type.Kind, "allOf with one $ref, nullable")
	assert.Equal(t, rs.Atomic, field(t, st, "spec.maxSurge").Type.Kind)
	tmpl := field(t, st, "spec.template").Type
	assert.Equal(t, rs.Struct, tmpl.Kind, "embedded resource")
	for _, name := range []string{"apiVersion", "kind", "metadata"} {
		assert.NotNil(t, tmpl.Field(name), name)
	}
	assert.Equal(t, rs.PatchMeta{Strategy: rs.Merge}, field(t, st, "spec.template.metadata.finalizers").Patch)
}

// A CRD published without list types (as older pod templates were) has
// containers replaced whole: the injected sidecar is lost. The test pins
// that consequence, the reason the list types matter.
func TestCRDWithoutListTypeReplacesContainers(t *testing.T) {
	s, err := openapischema.Read([]byte(crd("containers", `
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    image: {type: string}`)))
	require.NoError(t, err)
	st, err := s.Lookup("example.com/v1", "Widget")
	require.NoError(t, err)
	original := `{"spec":{"containers":[{"name":"app","image":"v1"}]}}`
	modified := `{"spec":{"containers":[{"name":"app","image":"v2"}]}}`
	live := `{"spec":{"containers":[{"name":"app","image":"v1"},{"name":"sidecar","image":"s"}]}}`
	patch, err := smp.DiffJSON([]byte(original), []byte(modified), st)
	require.NoError(t, err)
	got, err := smp.ApplyJSON([]byte(live), patch, st)
	require.NoError(t, err)
	assert.JSONEq(t, modified, string(got))
}

// crd is a one-version CustomResourceDefinition of kind Widget whose spec
// has one property, given as YAML indented for its place.
func crd(prop, schema string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ` + prop + `:` + schema + "\n"
}

const specPtr = "#/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/"

func TestMalformedSchemas(t *testing.T) {
	cases := []struct {
		name, doc string
		reason    openapischema.Reason
		pointer   string
		msg       string
	}{{
		name:   "dangling ref",
		doc:    `{"swagger": "2.0", "definitions": {"io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {"containers": {"type": "array", "items": {"$ref": "#/definitions/io.k8s.api.core.v1.Container"}}}}}}`,
		reason: openapischema.ReasonDanglingRef, pointer: "#/definitions/io.k8s.api.core.v1.PodSpec/properties/containers/items",
		msg: `"#/definitions/io.k8s.api.core.v1.Container" names no schema`,
	}, {
		name:   "dangling ref in v3",
		doc:    "openapi: 3.0.0\ncomponents:\n  schemas:\n    a.B:\n      type: object\n      properties:\n        c:\n          allOf:\n          - $ref: '#/components/schemas/a.C'\n",
		reason: openapischema.ReasonDanglingRef, pointer: "#/components/schemas/a.B/properties/c/allOf/0",
	}, {
		name: "list map key naming no property",
		doc: crd("ports", `
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocl]
                items:
                  type: object
                  properties:
                    port: {type: integer}
                    protocol: {type: string}`),
		reason: openapischema.ReasonMergeKey, pointer: specPtr + "ports", msg: `"protocl" is not a field`,
	}, {
		name:   "list map key naming no property in v2",
		doc:    `{"swagger": "2.0", "definitions": {"io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {"containers": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["nme"], "items": {"$ref": "#/definitions/io.k8s.api.core.v1.Container"}}}}, "io.k8s.api.core.v1.Container": {"type": "object", "properties": {"name": {"type": "string"}}}}}`,
		reason: openapischema.ReasonMergeKey, pointer: "#/definitions/io.k8s.api.core.v1.PodSpec/properties/containers", msg: `"nme"`,
	}, {
		name:   "list type map on scalars",
		doc:    crd("hosts", "\n                type: array\n                x-kubernetes-list-type: map\n                x-kubernetes-list-map-keys: [name]\n                items: {type: string}"),
		reason: openapischema.ReasonMergeKey, pointer: specPtr + "hosts", msg: "list of scalars",
	}, {
		name: "key field not a scalar",
		doc: crd("rules", `
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [match]
                items:
                  type: object
                  properties:
                    match: {type: object, properties: {path: {type: string}}}`),
		reason: openapischema.ReasonMergeKey, pointer: specPtr + "rules", msg: `key field "match"`,
	}, {
		name:   "list map key named twice",
		doc:    crd("rules", "\n                type: array\n                x-kubernetes-list-type: map\n                x-kubernetes-list-map-keys: [a, a]\n                items: {type: object, properties: {a: {type: string}}}"),
		reason: openapischema.ReasonMergeKey, pointer: specPtr + "rules", msg: `names key "a" twice`,
	}, {
		name:   "list type map without keys",
		doc:    crd("rules", "\n                type: array\n                x-kubernetes-list-type: map\n                items: {type: object, properties: {a: {type: string}}}"),
		reason: openapischema.ReasonMergeKey, pointer: specPtr + "rules", msg: "without x-kubernetes-list-map-keys",
	}, {
		name:   "merge strategy on objects without key",
		doc:    `{"swagger": "2.0", "definitions": {"a.B": {"type": "object", "properties": {"items": {"type": "array", "x-kubernetes-patch-strategy": "merge", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}}`,
		reason: openapischema.ReasonMergeKey, pointer: "#/definitions/a.B/properties/items", msg: "without a merge key",
	}, {
		name:   "unknown patch strategy",
		doc:    crd("args", "\n                type: array\n                x-kubernetes-patch-strategy: mrege\n                items: {type: string}"),
		reason: openapischema.ReasonStrategy, pointer: specPtr + "args", msg: `"mrege"`,
	}, {
		name:   "unknown list type",
		doc:    crd("args", "\n                type: array\n                x-kubernetes-list-type: bag\n                items: {type: string}"),
		reason: openapischema.ReasonStrategy, pointer: specPtr + "args", msg: `"bag"`,
	}, {
		name:   "merge on a scalar",
		doc:    crd("name", "\n                type: string\n                x-kubernetes-patch-strategy: merge"),
		reason: openapischema.ReasonStrategy, pointer: specPtr + "name",
	}, {
		name:   "unknown type",
		doc:    crd("name", "\n                type: text"),
		reason: openapischema.ReasonInvalid, pointer: specPtr + "name/type",
	}, {
		name:   "cycle of bare refs",
		doc:    `{"swagger": "2.0", "definitions": {"a.A": {"$ref": "#/definitions/a.B"}, "a.B": {"$ref": "#/definitions/a.A"}}}`,
		reason: openapischema.ReasonDanglingRef, msg: "cycle",
	}, {
		name:   "external ref",
		doc:    `{"swagger": "2.0", "definitions": {"a.A": {"type": "object", "properties": {"b": {"$ref": "other.json#/B"}}}}}`,
		reason: openapischema.ReasonUnsupported, pointer: "#/definitions/a.A/properties/b",
	}, {
		name:   "allOf of two schemas",
		doc:    `{"swagger": "2.0", "definitions": {"a.A": {"type": "object", "properties": {"b": {"allOf": [{"$ref": "#/definitions/a.C"}, {"$ref": "#/definitions/a.C"}]}}}, "a.C": {"type": "string"}}}`,
		reason: openapischema.ReasonUnsupported, pointer: "#/definitions/a.A/properties/b/allOf",
	}, {
		name: "not openapi", doc: "apiVersion: v1\nkind: ConfigMap\ndata: {a: b}\n",
		reason: openapischema.ReasonNotOpenAPI, pointer: "#",
	}, {
		name: "not an object", doc: "[1, 2]",
		reason: openapischema.ReasonNotOpenAPI, pointer: "#",
	}, {
		name: "swagger 1.2", doc: `{"swagger": "1.2"}`,
		reason: openapischema.ReasonNotOpenAPI, pointer: "#",
	}, {
		name: "not yaml", doc: "a: [b\n",
		reason: openapischema.ReasonSyntax, pointer: "#",
	}, {
		name: "v1beta1 crd", doc: "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n",
		reason: openapischema.ReasonUnsupported, pointer: "#/apiVersion",
	}, {
		name:   "second document of a stream",
		doc:    crd("a", " {type: string}") + "---\n" + crd("b", " {type: array, x-kubernetes-list-type: sett, items: {type: string}}"),
		reason: openapischema.ReasonStrategy, pointer: specPtr + "b",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := openapischema.Read([]byte(c.doc))
			require.Error(t, err)
			t.Log(err)
			assert.Nil(t, s)
			var e *openapischema.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, c.reason, e.Reason, err.Error())
			if c.pointer != "" {
				assert.Equal(t, c.pointer, e.Pointer, err.Error())
			}
			assert.Contains(t, err.Error(), c.msg)
			assert.Contains(t, err.Error(), e.Pointer)
		})
	}
}

func TestReadStreamAndList(t *testing.T) {
	stream := crd("a", " {type: string}") + "---\n# another\n" + strings.ReplaceAll(crd("b", " {type: string}"), "Widget", "Gadget")
	s, err := openapischema.Read([]byte(stream))
	require.NoError(t, err)
	assert.Len(t, s.Kinds(), 2)
	gadget, err := s.Lookup("example.com/v1", "Gadget")
	require.NoError(t, err)
	assert.NotNil(t, gadget.Field("spec").Type.Field("b"))

	list := `{"apiVersion": "v1", "kind": "List", "items": [` + mustJSON(t, crd("a", " {type: string}")) + `]}`
	s, err = openapischema.Read([]byte(list))
	require.NoError(t, err)
	widget, err := s.Lookup("example.com/v1", "Widget")
	require.NoError(t, err)
	assert.NotNil(t, widget)
}

func mustJSON(t *testing.T, y string) string { return string(js(t, y)) }

// Values are checked against the schema's scalar types, with paths,
// though no Go type exists.
func TestScalarChecksWithoutGoTypes(t *testing.T) {
	st := kind(t, "rollout-crd.yaml", "argoproj.io/v1alpha1", "Rollout")
	cases := []struct {
		patch string
		kind  smp.ErrorKind
		path  string
	}{
		{`{"spec":{"replicas":"three"}}`, smp.ErrTypeMismatch, "spec.replicas"},
		{`{"spec":{"replicas":4294967296}}`, smp.ErrInvalidValue, "spec.replicas"},
		{`{"spec":{"replicas":1.5}}`, smp.ErrInvalidValue, "spec.replicas"},
		{`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":7}]}}}}`, smp.ErrTypeMismatch, "spec.template.spec.containers[name=app].image"},
		{`{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}`, smp.ErrMissingMergeKey, "spec.template.spec.containers"},
		{`{"spec":{"strategy":{"canary":{"steps":{"a":1}}}}}`, smp.ErrTypeMismatch, "spec.strategy.canary.steps"},
	}
	for _, c := range cases {
		_, err := smp.ApplyJSON([]byte(`{"spec":{}}`), []byte(c.patch), st)
		require.Error(t, err, c.patch)
		assert.Equal(t, c.kind, smp.KindOf(err), "%s: %v", c.patch, err)
		var e *smp.Error
		require.ErrorAs(t, err, &e)
		assert.True(t, strings.HasPrefix(e.Path.String(), c.path), "%s: path %s", c.patch, e.Path)
	}
	// int-or-string and untyped subtrees take any JSON value.
	_, err := smp.ApplyJSON([]byte(`{}`), []byte(`{"spec":{"strategy":{"canary":{"maxSurge":"25%","trafficRouting":{"plugins":{"x":[1,{"y":true}]}}}}}}`), st)
	assert.NoError(t, err)
}

// A definition that only names another is that type, even when the other
// refers back to it.
func TestAliasesAndRecursion(t *testing.T) {
	doc := `{"swagger": "2.0", "definitions": {
		"a.Alias": {"allOf": [{"$ref": "#/definitions/a.Tree"}], "description": "an alias"},
		"a.Alias2": {"$ref": "#/definitions/a.Alias"},
		"a.Tree": {"type": "object", "properties": {
			"name": {"type": "string"},
			"children": {"type": "array", "items": {"$ref": "#/definitions/a.Alias2"}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
			"parent": {"$ref": "#/definitions/a.Alias"}}}}}`
	s, err := openapischema.Read([]byte(doc))
	require.NoError(t, err)
	tree := s.Definition("a.Tree")
	require.NotNil(t, tree)
	assert.Same(t, tree, s.Definition("a.Alias"))
	assert.Same(t, tree, s.Definition("a.Alias2"))
	assert.Same(t, tree, tree.Field("parent").Type)
	assert.Same(t, tree, tree.Field("children").Type.Elem)
	assert.Equal(t, mergeList("name"), tree.Field("children").Patch)

	original := `{"name":"r","children":[{"name":"a","children":[{"name":"x"}]}]}`
	modified := `{"name":"r","children":[{"name":"a","children":[{"name":"x"},{"name":"y"}]},{"name":"b"}]}`
	live := `{"name":"r","children":[{"name":"a","children":[{"name":"x"},{"name":"z"}]}]}`
	patch, err := smp.DiffJSON([]byte(original), []byte(modified), tree)
	require.NoError(t, err)
	got, err := smp.ApplyJSON([]byte(live), patch, tree)
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"r","children":[{"name":"a","children":[{"name":"x"},{"name":"y"},{"name":"z"}]},{"name":"b"}]}`, string(got))
}
