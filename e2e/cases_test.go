package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/builtin"
)

var (
	seed      = flag.Uint64("e2e.seed", 1, "seed of the generated objects")
	generated = flag.Int("e2e.generated", 3, "generated objects of each kind")
)

// testdata is the command's test data: manifests of built-in kinds and
// custom resources.
const testdata = "../cmd/smp/testdata"

// patchCase is an original manifest and its modified version.
type patchCase struct {
	name               string // such as kinds/deployment or generated/Service/2
	apiVersion, kind   string
	original, modified object // without a namespace: each check has its own
	// refused, when set, is the field the server names when it refuses
	// the update as invalid (422) whatever the patch: the manifests change
	// a field that is immutable on this server.
	refused string
}

// Manifests whose modified version changes an immutable field, and the
// field the server names.
var refusedUpdates = map[string]string{
	"kinds/job":         "spec.template",
	"kinds/pvc":         "spec",
	"kinds/statefulset": "spec.volumeClaimTemplates",
}

// goType is a zero value of the k8s.io/api type of the case's kind.
func (c patchCase) goType(t testing.TB) any {
	t.Helper()
	gv, err := schema.ParseGroupVersion(c.apiVersion)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := scheme.Scheme.New(gv.WithKind(c.kind))
	if err != nil {
		t.Fatalf("%s %s: %v", c.apiVersion, c.kind, err)
	}
	return reflect.ValueOf(obj).Elem().Interface()
}

// inNamespace is a copy of manifest o placed in namespace ns.
func inNamespace(t testing.TB, o object, ns string) []byte {
	t.Helper()
	c := decode(t, encode(t, o))
	c["metadata"].(object)["namespace"] = ns
	return encode(t, c)
}

// testdataCases reads every pair of manifests of built-in kinds under
// cmd/smp/testdata: NAME-original and NAME-modified files, and the
// directories holding original and modified files (several objects each,
// paired by kind and name).
func testdataCases(t testing.TB) []patchCase {
	t.Helper()
	var cases []patchCase
	originals, err := filepath.Glob(filepath.Join(testdata, "*", "*original*"))
	if err != nil {
		t.Fatal(err)
	}
	pairName := regexp.MustCompile(`^(.*?)-?original\.(yaml|json)$`)
	for _, path := range originals {
		dir, base := filepath.Base(filepath.Dir(path)), filepath.Base(path)
		if dir == "crd" || dir == "errors" {
			continue // custom resources (crd_test.go); inputs the command refuses
		}
		m := pairName.FindStringSubmatch(base)
		if m == nil {
			t.Fatalf("%s: not NAME-original.yaml or .json", path)
		}
		prefix := m[1]
		if prefix != "" {
			prefix += "-"
		}
		modifiedPath, _ := filepath.Glob(filepath.Join(filepath.Dir(path), prefix+"modified.*"))
		if len(modifiedPath) != 1 {
			t.Fatalf("%s: no single modified file beside it (%v)", path, modifiedPath)
		}
		byKey := map[string]object{}
		for _, o := range readManifests(t, path) {
			byKey[objectKey(o)] = o
		}
		for _, mod := range readManifests(t, modifiedPath[0]) {
			orig, ok := byKey[objectKey(mod)]
			if !ok {
				continue // only in modified: nothing to patch
			}
			if namespaced, known := builtin.Namespaced(mod["apiVersion"].(string), mod["kind"].(string)); known && !namespaced {
				// Each check has a namespace of its own; an object of a
				// cluster-scoped kind (a CustomResourceDefinition, an
				// APIService) would be shared by all of them.
				continue
			}
			name := dir
			if m[1] != "" {
				name += "/" + m[1]
			}
			if len(byKey) > 1 {
				name += "/" + strings.ToLower(mod["kind"].(string))
			}
			cases = append(cases, newCase(t, name, orig, mod))
		}
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].name < cases[j].name })
	return cases
}

func newCase(t testing.TB, name string, original, modified object) patchCase {
	t.Helper()
	for _, o := range []object{original, modified} {
		delete(o["metadata"].(object), "namespace")
	}
	return patchCase{
		name: name, apiVersion: original["apiVersion"].(string), kind: original["kind"].(string),
		original: original, modified: modified, refused: refusedUpdates[name],
	}
}

func objectKey(o object) string {
	return fmt.Sprint(o["apiVersion"], " ", o["kind"], " ", field(o, "metadata", "name"))
}

// readManifests reads the objects of a YAML or JSON file, split at "---".
func readManifests(t testing.TB, path string) []object {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []object
	for _, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		j, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
			continue
		}
		out = append(out, decode(t, j))
	}
	return out
}

// generatedCases draws -e2e.generated pairs of each generated kind.
func generatedCases(t testing.TB) []patchCase {
	t.Helper()
	var cases []patchCase
	for _, k := range generatedKinds {
		for i := range *generated {
			g := newGen(*seed*1000 + uint64(i))
			name := fmt.Sprintf("gen-%s-%d", strings.ToLower(k.kind), i)
			o, m := k.pair(g, name)
			cases = append(cases, newCase(t, fmt.Sprintf("generated/%s/seed=%d,%d", k.kind, *seed, i), manifest(t, o), manifest(t, m)))
		}
	}
	return cases
}

// manifest is a typed object as a user writes it: no status, no nulls.
func manifest(t testing.TB, v any) object {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	o := decode(t, b)
	delete(o, "status")
	dropNulls(o)
	return o
}

func dropNulls(v any) {
	switch x := v.(type) {
	case object:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				dropNulls(e)
			}
		}
	case []any:
		for _, e := range x {
			dropNulls(e)
		}
	}
}

// allCases are the test data's and the generated cases.
func allCases(t testing.TB) []patchCase {
	return append(testdataCases(t), generatedCases(t)...)
}
