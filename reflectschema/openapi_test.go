package reflectschema_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

type oaPod struct {
	Metadata oaMeta `json:"metadata"`
	Spec     oaSpec `json:"spec" patchStrategy:"retainKeys"`
	Parent   *oaPod `json:"parent,omitempty"`
}

type oaMeta struct {
	Name       string            `json:"name"`
	Labels     map[string]string `json:"labels,omitempty"`
	Finalizers []string          `json:"finalizers,omitempty" patchStrategy:"merge"`
}

type oaSpec struct {
	Containers []oaContainer `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
	Ports      []oaPort      `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"containerPort,protocol" recommendedPatchMergeKey:"containerPort,protocol,hostIP"`
	Volumes    []oaVolume    `json:"volumes,omitempty" patchStrategy:"merge|retainKeys" patchMergeKey:"name"`
	Args       []string      `json:"args,omitempty"`
	Replaced   []string      `json:"replaced,omitempty" patchStrategy:"replace"`
	Created    time.Time     `json:"created"`
	Data       []byte        `json:"data,omitempty"`
	Raw        any           `json:"raw,omitempty"`
	Replicas   *int32        `json:"replicas,omitempty"`
	Ratio      float64       `json:"ratio"`
	Paused     bool          `json:"paused"`
}

type oaContainer struct {
	Name string `json:"name"`
}

type oaPort struct {
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol,omitempty"`
	HostIP        string `json:"hostIP,omitempty"`
}

type oaVolume struct {
	Name     string  `json:"name"`
	HostPath *string `json:"hostPath,omitempty"`
	EmptyDir *string `json:"emptyDir,omitempty"`
}

// oaRef is the $ref OpenAPI writes for a struct type of this package.
func oaRef(name string) map[string]any {
	return map[string]any{"$ref": "#/components/schemas/reflectschema_test." + name}
}

func TestFieldExtensions(t *testing.T) {
	st := mustFor[oaSpec](t)
	want := map[string]map[string]string{
		"containers": {
			reflectschema.ExtPatchStrategy: "merge",
			reflectschema.ExtPatchMergeKey: "name",
		},
		"ports": {
			reflectschema.ExtPatchStrategy:       "merge",
			reflectschema.ExtPatchMergeKey:       "containerPort,protocol",
			reflectschema.ExtRecommendedMergeKey: "containerPort,protocol,hostIP",
		},
		// Seed 003's bar is published in Kubernetes' spelling.
		"volumes": {
			reflectschema.ExtPatchStrategy: "merge,retainKeys",
			reflectschema.ExtPatchMergeKey: "name",
		},
		"replaced": {reflectschema.ExtPatchStrategy: "replace"},
	}
	for _, f := range st.Fields {
		w := want[f.Name]
		if w == nil {
			assert.Empty(t, f.Extensions(), f.Name)
			continue
		}
		assert.Equal(t, w, f.Extensions(), f.Name)
	}
	assert.Equal(t, "x-kubernetes-patch-strategy", reflectschema.ExtPatchStrategy)
	assert.Equal(t, "x-kubernetes-patch-merge-key", reflectschema.ExtPatchMergeKey)
	assert.Equal(t, "x-kubernetes-recommended-patch-merge-key", reflectschema.ExtRecommendedMergeKey)
}

func TestOpenAPI(t *testing.T) {
	root, schemas := reflectschema.OpenAPI(mustFor[oaPod](t))
	assert.Equal(t, "reflectschema_test.oaPod", root)

	// One component per struct type reached, the recursive one included
	// once; time.Time is atomic, not a component.
	assert.ElementsMatch(t, []string{
		"reflectschema_test.oaPod", "reflectschema_test.oaMeta", "reflectschema_test.oaSpec",
		"reflectschema_test.oaContainer", "reflectschema_test.oaPort", "reflectschema_test.oaVolume",
	}, slices.Collect(maps.Keys(schemas)))

	props := func(name string) map[string]any {
		t.Helper()
		s := schemas["reflectschema_test."+name]
		require.NotNil(t, s, name)
		assert.Equal(t, "object", s["type"], name)
		p, ok := s["properties"].(map[string]any)
		require.True(t, ok, name)
		return p
	}

	pod := props("oaPod")
	assert.Equal(t, map[string]any{
		"metadata": oaRef("oaMeta"),
		// A $ref cannot carry siblings: the extension wraps it.
		"spec": map[string]any{
			"allOf":                        []any{oaRef("oaSpec")},
			reflectschema.ExtPatchStrategy: "retainKeys",
		},
		"parent": oaRef("oaPod"), // the recursion ends in a $ref
	}, pod)

	meta := props("oaMeta")
	assert.Equal(t, map[string]any{
		"name":   map[string]any{"type": "string"},
		"labels": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
		"finalizers": map[string]any{
			"type": "array", "items": map[string]any{"type": "string"},
			reflectschema.ExtPatchStrategy: "merge",
		},
	}, meta)

	spec := props("oaSpec")
	assert.ElementsMatch(t, fieldNames(mustFor[oaSpec](t)), slices.Collect(maps.Keys(spec)))
	assert.Equal(t, map[string]any{
		"type": "array", "items": oaRef("oaContainer"),
		reflectschema.ExtPatchStrategy: "merge",
		reflectschema.ExtPatchMergeKey: "name",
	}, spec["containers"])
	assert.Equal(t, map[string]any{
		"type": "array", "items": oaRef("oaPort"),
		reflectschema.ExtPatchStrategy:       "merge",
		reflectschema.ExtPatchMergeKey:       "containerPort,protocol",
		reflectschema.ExtRecommendedMergeKey: "containerPort,protocol,hostIP",
	}, spec["ports"])
	assert.Equal(t, map[string]any{
		"type": "array", "items": oaRef("oaVolume"),
		reflectschema.ExtPatchStrategy: "merge,retainKeys",
		reflectschema.ExtPatchMergeKey: "name",
	}, spec["volumes"])
	assert.Equal(t, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}, spec["args"])
	assert.Equal(t, map[string]any{"type": "string", "format": "byte"}, spec["data"])
	assert.Equal(t, map[string]any{"type": "integer", "format": "int32"}, spec["replicas"])
	assert.Equal(t, map[string]any{"type": "number", "format": "double"}, spec["ratio"])
	assert.Equal(t, map[string]any{"type": "boolean"}, spec["paused"])
	assert.Equal(t, true, spec["created"].(map[string]any)["x-kubernetes-atomic"])
	assert.Equal(t, map[string]any{"x-kubernetes-preserve-unknown-fields": true}, spec["raw"])

	port := props("oaPort")
	assert.Equal(t, map[string]any{"type": "integer", "format": "int32"}, port["containerPort"])

	// Every $ref resolves, and the whole document encodes as JSON.
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok {
				name, found := strings.CutPrefix(r, "#/components/schemas/")
				assert.True(t, found, r)
				assert.Contains(t, schemas, name)
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	for _, s := range schemas {
		walk(s)
	}
	_, err := json.Marshal(schemas)
	require.NoError(t, err)
}

type oaNode struct {
	Name     string            `json:"name"`
	Children []oaNode          `json:"children" patchStrategy:"merge" patchMergeKey:"name"`
	Index    map[string]oaNode `json:"index"`
	Next     *oaNode           `json:"next"`
}

func TestOpenAPIRecursiveTypeTerminates(t *testing.T) {
	root, schemas := reflectschema.OpenAPI(mustFor[oaNode](t))
	assert.Equal(t, "reflectschema_test.oaNode", root)
	require.Len(t, schemas, 1)
	props := schemas[root]["properties"].(map[string]any)
	assert.Equal(t, map[string]any{
		"type": "array", "items": oaRef("oaNode"),
		reflectschema.ExtPatchStrategy: "merge",
		reflectschema.ExtPatchMergeKey: "name",
	}, props["children"])
	assert.Equal(t, map[string]any{"type": "object", "additionalProperties": oaRef("oaNode")}, props["index"])
	assert.Equal(t, oaRef("oaNode"), props["next"])
}

func TestOpenAPINonStructRoot(t *testing.T) {
	root, schemas := reflectschema.OpenAPI(mustFor[[]oaPort](t))
	assert.Equal(t, "[]reflectschema_test.oaPort", root)
	assert.Equal(t, map[string]any{"type": "array", "items": oaRef("oaPort")}, schemas[root])
	assert.Contains(t, schemas, "reflectschema_test.oaPort")
	assert.Len(t, schemas, 2)

	root, schemas = reflectschema.OpenAPI(mustFor[map[string]int64](t))
	assert.Equal(t, "map[string]int64", root)
	assert.Equal(t, map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "integer", "format": "int64"}}, schemas[root])
}
