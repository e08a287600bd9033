package bench

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/openapischema"
	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// Every kind k8s.io/api registers for users to patch is bundled, and its
// bundled schema is the one reflectschema builds from its Go type.
func TestBuiltinMatchesGoTypes(t *testing.T) {
	kinds, skipped, err := builtinKinds()
	if err != nil {
		t.Fatal(err)
	}
	if len(builtin.Kinds()) != len(kinds) {
		t.Errorf("%d kinds bundled, k8s.io/api registers %d", len(builtin.Kinds()), len(kinds))
	}
	for _, k := range kinds {
		want, err := rs.Of(k.Go)
		if err != nil {
			t.Fatal(err)
		}
		got, err := builtin.Lookup(k.APIVersion(), k.GVK.Kind)
		if err != nil {
			t.Error(err)
			continue
		}
		if d := schemaDiff(want, got); len(d) > 0 {
			t.Errorf("%s %s:\n%s", k.APIVersion(), k.GVK.Kind, strings.Join(d, "\n"))
		}
	}
	// The kinds left out are those package builtin's documentation names.
	var left []string
	for _, kind := range slices.Sorted(maps.Keys(skipped)) {
		if !strings.HasSuffix(kind, "List") {
			left = append(left, kind)
		}
	}
	want := []string{"APIGroup", "APIVersions", "AdmissionReview", "ConversionReview", "CreateOptions", "DeleteOptions",
		"DeploymentRollback", "GetOptions", "ListOptions", "NodeProxyOptions", "PatchOptions",
		"PodAttachOptions", "PodExecOptions", "PodLogOptions", "PodPortForwardOptions", "PodProxyOptions",
		"SerializedReference", "ServiceProxyOptions", "Status", "UpdateOptions", "WatchEvent"}
	if !slices.Equal(left, want) {
		t.Errorf("kinds left out: %v, want %v", left, want)
	}
}

// Every struct type a kind reaches, on its own: reflectschema.OpenAPI
// writes it as OpenAPI v3, openapischema reads it back, and the schema is
// the one built from the Go type.
func TestOpenAPIRoundTripK8s(t *testing.T) {
	kinds, _, err := builtinKinds()
	if err != nil {
		t.Fatal(err)
	}
	var types []*rs.Type
	seen := map[*rs.Type]bool{}
	for _, k := range kinds {
		root, err := rs.Of(k.Go)
		if err != nil {
			t.Fatal(err)
		}
		collectStructs(root, seen, &types)
	}
	for _, typ := range types {
		name, schemas := rs.OpenAPI(typ)
		doc, err := json.Marshal(map[string]any{"openapi": "3.0.0", "components": map[string]any{"schemas": schemas}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := openapischema.Read(doc)
		if err != nil {
			t.Errorf("%v: %v", typ, err)
			continue
		}
		if d := schemaDiff(typ, s.Definition(name)); len(d) > 0 {
			t.Errorf("%v:\n%s", typ, strings.Join(d, "\n"))
		}
	}
	if len(types) < 500 {
		t.Errorf("only %d struct types reached", len(types))
	}
	t.Logf("%d struct types round-tripped", len(types))
}

// collectStructs adds every struct type t reaches to out, once.
func collectStructs(t *rs.Type, seen map[*rs.Type]bool, out *[]*rs.Type) {
	for t != nil && !seen[t] {
		seen[t] = true
		switch t.Kind {
		case rs.Struct:
			*out = append(*out, t)
			for _, f := range t.Fields {
				collectStructs(f.Type, seen, out)
			}
			return
		case rs.List, rs.Map:
			t = t.Elem
		default:
			return
		}
	}
}

// schemaDiff finds what a schema read from OpenAPI lost or changed: a
// merge key, a format, a field, a kind.
func TestSchemaDiffFindsChanges(t *testing.T) {
	want, err := rs.Of(reflect.TypeFor[appsv1.Deployment]())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, find string
		edit       func(schemas map[string]map[string]any)
	}{
		{"merge key dropped", "containers: patch metadata", func(s map[string]map[string]any) {
			delete(prop(s, "v1.PodSpec", "containers"), rs.ExtPatchMergeKey)
			delete(prop(s, "v1.PodSpec", "containers"), rs.ExtPatchStrategy)
		}},
		{"format changed", `replicas: JSON type "integer" format "int64"`, func(s map[string]map[string]any) {
			prop(s, "v1.DeploymentSpec", "replicas")["format"] = "int64"
		}},
		{"field added", "fields", func(s map[string]map[string]any) {
			s["v1.DeploymentSpec"]["properties"].(map[string]any)["extra"] = map[string]any{"type": "string"}
		}},
		{"atomic made a string", "maxSurge: kind scalar, want atomic", func(s map[string]map[string]any) {
			s["v1.RollingUpdateDeployment"]["properties"].(map[string]any)["maxSurge"] = map[string]any{"type": "string"}
		}},
		{"nothing", "", func(map[string]map[string]any) {}},
	} {
		root, schemas := rs.OpenAPI(want)
		c.edit(schemas)
		doc, _ := json.Marshal(map[string]any{"openapi": "3.0.0", "components": map[string]any{"schemas": schemas}})
		s, err := openapischema.Read(doc)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d := strings.Join(schemaDiff(want, s.Definition(root)), "\n")
		if c.find == "" && d != "" || !strings.Contains(d, c.find) {
			t.Errorf("%s: want a difference naming %q, got:\n%s", c.name, c.find, d)
		}
	}
}

func prop(s map[string]map[string]any, def, name string) map[string]any {
	return s[def]["properties"].(map[string]any)[name].(map[string]any)
}
