package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"
)

// kustomizeVersion is the kustomize the KRM function test builds: the
// newest release that builds with this repository's Go.
const kustomizeVersion = "sigs.k8s.io/kustomize/kustomize/v5@v5.7.1"

// buildTools builds smp and installs the given tools (go install
// arguments) into a directory, for PATH.
func buildTools(t *testing.T, tools ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range tools {
		install := exec.Command("go", "install", tool)
		install.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("go install %s: %v\n%s", tool, err, out)
		}
	}
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "smp"), "../cmd/smp").CombinedOutput(); err != nil {
		t.Fatalf("building smp: %v\n%s", err, out)
	}
	return dir
}

// runTool runs the tool dir/name with dir first on PATH and the tool's
// state under dir.
func runTool(dir, name string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(filepath.Join(dir, name), args...)
	cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HELM_CACHE_HOME="+dir, "HELM_CONFIG_HOME="+dir, "HELM_DATA_HOME="+dir)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// kustomizeBuild runs kustomize build with exec functions on PATH dir.
func kustomizeBuild(dir, kustomization string) (stdout, stderr string, err error) {
	return runTool(dir, "kustomize", "build", "--enable-alpha-plugins", "--enable-exec", kustomization)
}

// smp fn, run by kustomize as an exec KRM function from the kustomization
// of cmd/smp/testdata/kustomize (the README's), patches the resources as
// Kubernetes' strategicpatch does with the real Go types; a patch that
// matches no resource fails the build with smp's message.
func TestKustomizeRunsSmpFn(t *testing.T) {
	dir := buildTools(t, kustomizeVersion)
	kdir := filepath.Join(cliDir, "kustomize")
	out, stderr, err := kustomizeBuild(dir, kdir)
	if err != nil {
		t.Fatalf("kustomize build: %v\n%s", err, stderr)
	}
	got := map[string][]byte{}
	for _, doc := range strings.Split(out, "\n---\n") {
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		var id struct{ Kind string }
		if err := json.Unmarshal(js, &id); err != nil {
			t.Fatal(err)
		}
		got[id.Kind] = js
	}
	var config struct{ Patches []json.RawMessage }
	if err := json.Unmarshal(yamlFile(t, filepath.Join(kdir, "patches.yaml")), &config); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind, file string
		patch      json.RawMessage
		ds         any
	}{
		{"Deployment", "deployment.yaml", config.Patches[0], &appsv1.Deployment{}},
		{"ConfigMap", "configmap.yaml", config.Patches[1], &corev1.ConfigMap{}},
	} {
		want, err := k8s.StrategicMergePatch(yamlFile(t, filepath.Join(kdir, c.file)), c.patch, c.ds)
		if err != nil {
			t.Fatal(err)
		}
		var w, g any
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got[c.kind], &g); err != nil {
			t.Fatalf("%s: %v in %s", c.kind, err, out)
		}
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s: kustomize with smp fn gave another result than Kubernetes (-kubernetes +kustomize):\n%s", c.kind, d)
		}
	}

	_, stderr, err = kustomizeBuild(dir, filepath.Join(cliDir, "kustomize-unmatched"))
	if want := "functionConfig.patches[1], v1 ConfigMap default/web-conf, matches no object of items"; err == nil || !strings.Contains(stderr, want) {
		t.Errorf("a patch of no resource: kustomize build: %v, stderr:\n%s\nwant it to fail with %q", err, stderr, want)
	}
}

// The README's kustomization is the one the test runs.
func TestReadmeKustomization(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"kustomization.yaml", "patches.yaml"} {
		data, err := os.ReadFile(filepath.Join(cliDir, "kustomize", name))
		if err != nil {
			t.Fatal(err)
		}
		if block := "```yaml\n# " + name + "\n" + string(data) + "```\n"; !strings.Contains(string(readme), block) {
			t.Errorf("the README does not show %s as it is in cmd/smp/testdata/kustomize:\n%s", name, block)
		}
	}
}
