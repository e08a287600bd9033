package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/smp"
)

// The CustomResourceDefinitions of the test data, and the reason the
// server gives for those it refuses.
const crdDir = "../openapischema/testdata"

var refusedCRDs = map[string]string{
	// Its x-kubernetes-validations exceed the server's CEL cost budget.
	"httproutes.gateway.networking.k8s.io": "estimated rule cost exceeds budget",
}

// TestCustomResources installs the test data's CustomResourceDefinitions
// and, for each custom resource under cmd/smp/testdata/crd, checks that the
// server refuses a strategic merge patch (415 Unsupported Media Type) while
// the project computes one from the CRD's schema.
func TestCustomResources(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(crdDir, "*-crd.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no CRDs under %s: %v", crdDir, err)
	}
	installed := map[string]bool{} // "apiVersion kind"
	for _, path := range paths {
		for _, crd := range readManifests(t, path) {
			name := field(crd, "metadata", "name").(string)
			r := srv.send(t, http.MethodPost, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
			if want, refused := refusedCRDs[name]; refused {
				if r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), want) {
					t.Errorf("CRD %s: status %d, want 422 with %q: %s", name, r.status, want, r.body)
				}
				continue
			}
			if r.status != http.StatusCreated {
				t.Errorf("CRD %s: status %d: %s", name, r.status, r.body)
				continue
			}
			waitEstablished(t, name)
			group := field(crd, "spec", "group").(string)
			kind := field(crd, "spec", "names", "kind").(string)
			for _, v := range field(crd, "spec", "versions").([]any) {
				apiVersion := group + "/" + v.(object)["name"].(string)
				waitDiscovered(t, apiVersion, kind)
				installed[apiVersion+" "+kind] = true
			}
		}
	}
	originals, _ := filepath.Glob(filepath.Join(testdata, "crd", "*-original.yaml"))
	if len(originals) == 0 {
		t.Fatal("no custom resources under cmd/smp/testdata/crd")
	}
	tested := 0
	for _, path := range originals {
		name := strings.TrimSuffix(filepath.Base(path), "-original.yaml")
		orig := readManifests(t, path)[0]
		c := newCase(t, "crd/"+name, orig, readManifests(t, strings.Replace(path, "-original", "-modified", 1))[0])
		if !installed[c.apiVersion+" "+c.kind] {
			if _, refused := refusedCRDs[crdName(t, c)]; !refused {
				t.Errorf("%s: no CRD installed for %s %s", path, c.apiVersion, c.kind)
			}
			continue
		}
		tested++
		t.Run(c.name, func(t *testing.T) { checkCustomResource(t, c) })
	}
	if tested == 0 {
		t.Error("no custom resource was tested")
	}
}

func checkCustomResource(t *testing.T, c patchCase) {
	ns := srv.newNamespace(t)
	original, modified := inNamespace(t, c.original, ns), inNamespace(t, c.modified, ns)
	path, _ := srv.create(t, c, ns, original, "Strict")
	crd, err := os.ReadFile(filepath.Join(crdDir, strings.TrimPrefix(c.name, "crd/")+"-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := openapischema.Read(crd)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := schemas.Lookup(c.apiVersion, c.kind)
	if err != nil {
		t.Fatal(err)
	}
	patch, err := smp.DiffJSON(original, modified, schema)
	if err != nil {
		t.Fatalf("DiffJSON: %v", err)
	}
	r := srv.mustDo(t, http.StatusUnsupportedMediaType, http.MethodPatch, path, nil, strategicMergePatch, patch)
	if accepts := string(r.body); !strings.Contains(accepts, "accepted media types include: application/json-patch+json, application/merge-patch+json") ||
		strings.Contains(accepts, strategicMergePatch) {
		t.Errorf("the refusal does not say which patch types the server takes: %s", r.body)
	}
	// The patch types a server takes for custom resources are checked by
	// TestCustomResourcePatchTypes.
}

// crdName is the name of the CRD of a custom resource's kind: plural.group,
// read from the test data's CRDs.
func crdName(t testing.TB, c patchCase) string {
	paths, _ := filepath.Glob(filepath.Join(crdDir, "*-crd.yaml"))
	for _, p := range paths {
		for _, crd := range readManifests(t, p) {
			if field(crd, "spec", "names", "kind") == c.kind && strings.HasPrefix(c.apiVersion, field(crd, "spec", "group").(string)+"/") {
				return field(crd, "metadata", "name").(string)
			}
		}
	}
	return ""
}

// waitEstablished waits until the server serves a CRD's kind.
func waitEstablished(t testing.TB, name string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		r := srv.mustDo(t, http.StatusOK, http.MethodGet, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, nil, "", nil)
		conds, _ := field(decode(t, r.body), "status", "conditions").([]any)
		for _, c := range conds {
			if c.(object)["type"] == "Established" && c.(object)["status"] == "True" {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("CRD %s not established after 60s", name)
}

// waitDiscovered waits until discovery lists a new kind.
func waitDiscovered(t testing.TB, apiVersion, kind string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		forgetDiscovery(apiVersion)
		_, err := srv.resource(apiVersion, kind)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("discovery: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
