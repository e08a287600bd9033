package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/smp"
)

// cliDir holds the real manifests of cmd/smp's goldens.
const cliDir = "../cmd/smp/testdata"

// The patches the smp command printed for the real manifests of built-in
// kinds (cmd/smp's goldens diff-kind-NAME, from the built binary) are
// Kubernetes' own: CreateTwoWayMergePatch with the real Go type gives the
// same patch, and StrategicMergePatch applies the printed patch to the
// original to give the modified file, as smp.ApplyJSON does.
func TestCLIManifestsAgreeWithKubernetes(t *testing.T) {
	originals, err := filepath.Glob(filepath.Join(cliDir, "kinds", "*-original.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(originals) < 13 {
		t.Fatalf("only %d manifests under %s/kinds", len(originals), cliDir)
	}
	kinds := builtinGoTypes(t)
	for _, orig := range originals {
		name := strings.TrimSuffix(filepath.Base(orig), "-original.yaml")
		t.Run(name, func(t *testing.T) {
			original := yamlFile(t, orig)
			modified := yamlFile(t, filepath.Join(cliDir, "kinds", name+"-modified.yaml"))
			printed := yamlFile(t, filepath.Join(cliDir, "golden", "diff-kind-"+name+".stdout"))
			var id struct{ APIVersion, Kind string }
			if err := json.Unmarshal(original, &id); err != nil {
				t.Fatal(err)
			}
			goType, ok := kinds[[2]string{id.APIVersion, id.Kind}]
			if !ok {
				t.Fatalf("%s %s is not a kind of k8s.io/api", id.APIVersion, id.Kind)
			}
			dataStruct := reflect.New(goType).Interface()
			want, err := k8s.CreateTwoWayMergePatch(original, modified, dataStruct)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(decodeAny(t, want), decodeAny(t, printed)); d != "" {
				t.Errorf("smp diff printed another patch than Kubernetes' (-kubernetes +smp):\n%s", d)
			}
			k8sResult, err := k8s.StrategicMergePatch(original, printed, dataStruct)
			if err != nil {
				t.Fatalf("Kubernetes cannot apply the printed patch: %v", err)
			}
			if d := cmp.Diff(decodeAny(t, modified), decodeAny(t, k8sResult)); d != "" {
				t.Errorf("Kubernetes applies the printed patch to another result than MODIFIED (-modified +kubernetes):\n%s", d)
			}
			schema, err := builtin.Lookup(id.APIVersion, id.Kind)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := smp.ApplyJSON(original, printed, schema, smp.WithDirectives(smp.DirectivesRetainKeys))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(decodeAny(t, k8sResult), decodeAny(t, ours)); d != "" {
				t.Errorf("smp applies the printed patch to another result than Kubernetes (-kubernetes +smp):\n%s", d)
			}
		})
	}
}

// yamlFile reads a YAML or JSON file as JSON.
func yamlFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return js
}

// builtinGoTypes maps each built-in kind's apiVersion and kind to its Go
// type.
func builtinGoTypes(t *testing.T) map[[2]string]reflect.Type {
	t.Helper()
	registered, _, err := builtinKinds()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[[2]string]reflect.Type{}
	for _, k := range registered {
		kinds[[2]string{k.APIVersion(), k.GVK.Kind}] = k.Go
	}
	return kinds
}
