package bench

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"
)

// helmVersion is the Helm the post-renderer test builds: Helm 3, whose
// --post-renderer runs an executable (Helm 4 takes a plugin).
const helmVersion = "helm.sh/helm/v3/cmd/helm@v3.19.2"

// helmTemplate renders the chart of cmd/smp/testdata/helm, through smp
// apply - PATCH as a post-renderer when patch is not "".
func helmTemplate(dir, patch string) (stdout, stderr string, err error) {
	args := []string{"template", "shop", filepath.Join(cliDir, "helm", "web")}
	if patch != "" {
		args = append(args, "--post-renderer", filepath.Join(dir, "smp"),
			"--post-renderer-args", "apply", "--post-renderer-args", "-", "--post-renderer-args", patch)
	}
	return runTool(dir, "helm", args...)
}

// smp apply - PATCH, run by helm template as its post-renderer, patches
// the rendered chart as Kubernetes' strategicpatch does with the Go type;
// a patch that names no object fails the render with smp's message.
func TestHelmPostRenderer(t *testing.T) {
	dir := buildTools(t, helmVersion)
	patchFile, err := filepath.Abs(filepath.Join(cliDir, "helm", "patch.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	plain, stderr, err := helmTemplate(dir, "")
	if err != nil {
		t.Fatalf("helm template: %v\n%s", err, stderr)
	}
	rendered, stderr, err := helmTemplate(dir, patchFile)
	if err != nil {
		t.Fatalf("helm template --post-renderer smp: %v\n%s", err, stderr)
	}
	deployment := func(stream string) []byte {
		for _, doc := range strings.Split(stream, "\n---") {
			js, err := yaml.YAMLToJSON([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			var id struct{ Kind string }
			if json.Unmarshal(js, &id) == nil && id.Kind == "Deployment" {
				return js
			}
		}
		t.Fatalf("no Deployment in:\n%s", stream)
		return nil
	}
	want, err := k8s.StrategicMergePatch(deployment(plain), yamlFile(t, patchFile), &appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	agreeJSON(t, "the post-rendered Deployment", want, deployment(rendered))

	unmatched, err := filepath.Abs(filepath.Join(cliDir, "ns", "patch.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, err = helmTemplate(dir, unmatched)
	if want := "apps/v1 Deployment default/web, matches no object of ORIGINAL"; err == nil || !strings.Contains(stderr, want) {
		t.Errorf("a patch of no object: helm template: %v, stderr:\n%s\nwant it to fail with %q", err, stderr, want)
	}
}
