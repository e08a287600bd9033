package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

const (
	mergePatch = "application/merge-patch+json"
	jsonPatch  = "application/json-patch+json"
)

// A custom resource of a CRD whose list-map-keys have two fields: ports
// keyed by port and protocol, 53/TCP and 53/UDP two elements.
const widgetCRD = "../ctrlpatch/testdata/widget-crd.yaml"

var (
	widgetOriginal = object{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": object{"name": "dns"},
		"spec": object{"ports": []any{
			object{"port": 53, "protocol": "TCP", "name": "dns-tcp"},
			object{"port": 53, "protocol": "UDP", "name": "dns"},
		}, "containers": []any{object{"name": "web", "image": "web:1"}}}}
	widgetModified = object{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": object{"name": "dns"},
		"spec": object{"ports": []any{
			object{"port": 53, "protocol": "TCP", "name": "dns-tcp"},
			object{"port": 53, "protocol": "UDP", "name": "dns-udp"},
		}, "containers": []any{object{"name": "web", "image": "web:2"}}}}
	// What another writer added: a port and a sidecar.
	widgetCurrent = object{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": object{"name": "dns"},
		"spec": object{"ports": []any{
			object{"port": 53, "protocol": "TCP", "name": "dns-tcp"},
			object{"port": 53, "protocol": "UDP", "name": "dns"},
			object{"port": 9153, "protocol": "TCP", "name": "metrics"},
		}, "containers": []any{object{"name": "web", "image": "web:1"}, object{"name": "sidecar", "image": "proxy:1"}}}}
)

// TestCustomResourcePatchTypes sends the patches a server takes for custom
// resources, the JSON merge patch and the JSON patch the project computes
// from a three-way strategic merge patch, for every custom resource of the
// test data and a Widget keyed by two fields: each is accepted (200), the
// server stores the spec ApplyJSON computes locally, keeping what another
// writer added to a map-type list, and the same patch sent again, after
// the object changed, is refused (409 for the merge patch's
// resourceVersion, 422 for the JSON patch's test).
func TestCustomResourcePatchTypes(t *testing.T) {
	type crCase struct {
		c       patchCase
		crd     string
		current object
		kept    []string // what the other writer added, as it prints in the stored spec
	}
	var cases []crCase
	for _, name := range []string{"rollout", "gameserver", "certificate"} {
		read := func(which string) object {
			return readManifests(t, filepath.Join(testdata, "crd", name+"-"+which+".yaml"))[0]
		}
		c := newCase(t, "crd/"+name, read("original"), read("modified"))
		cur := read("current")
		delete(cur["metadata"].(object), "namespace")
		cases = append(cases, crCase{c: c, crd: filepath.Join(crdDir, name+"-crd.yaml"), current: cur})
	}
	cases[0].kept = []string{"istio-proxy", "OTEL_ENDPOINT"}
	cases[1].kept = []string{"metrics"}
	cases[2].kept = []string{"backup"}
	cases = append(cases, crCase{c: newCase(t, "widget", widgetOriginal, widgetModified), crd: widgetCRD, current: widgetCurrent, kept: []string{"metrics", "sidecar", "dns-tcp"}})
	for _, cc := range cases {
		schema := installCRD(t, cc.crd, cc.c.apiVersion, cc.c.kind)
		for _, pt := range []struct {
			name, contentType string
			make              func(live, patch []byte) ([]byte, error)
			stale             int
		}{
			{"merge", mergePatch, func(live, patch []byte) ([]byte, error) { return smp.MergePatchJSON(live, patch, schema) }, http.StatusConflict},
			{"json", jsonPatch, func(live, patch []byte) ([]byte, error) { return smp.JSONPatchJSON(live, patch, schema) }, http.StatusUnprocessableEntity},
		} {
			t.Run(cc.c.name+"/"+pt.name, func(t *testing.T) {
				ns := srv.newNamespace(t)
				original, modified := inNamespace(t, cc.c.original, ns), inNamespace(t, cc.c.modified, ns)
				path, stored := srv.create(t, cc.c, ns, original, "Strict")
				// Another writer: the live object of the test data.
				r := srv.mustDo(t, http.StatusOK, http.MethodPut, path, withValidation("Strict", nil), "application/json",
					withResourceVersion(t, inNamespace(t, cc.current, ns), stored))
				live := r.body
				strategic, err := smp.ThreeWayJSON(original, modified, live, schema, smp.WithOverwrite(true))
				if err != nil {
					t.Fatalf("ThreeWayJSON: %v", err)
				}
				local, err := smp.ApplyJSON(live, strategic, schema)
				if err != nil {
					t.Fatalf("ApplyJSON: %v", err)
				}
				patch, err := pt.make(live, strategic)
				if err != nil {
					t.Fatalf("%s patch: %v", pt.name, err)
				}
				srv.mustDo(t, http.StatusUnsupportedMediaType, http.MethodPatch, path, nil, strategicMergePatch, strategic)
				got := srv.mustDo(t, http.StatusOK, http.MethodPatch, path, withValidation("Strict", nil), pt.contentType, patch)
				want, gotSpec := decode(t, local)["spec"], decode(t, got.body)["spec"]
				if d := cmp.Diff(want, gotSpec); d != "" {
					t.Errorf("the server's spec differs from ApplyJSON's (-local +server):\n%s\npatch: %s", d, patch)
				}
				for _, k := range cc.kept {
					if !strings.Contains(string(encode(t, gotSpec.(object))), `"`+k+`"`) {
						t.Errorf("what another writer added is lost: %s", k)
					}
				}
				srv.mustDo(t, pt.stale, http.MethodPatch, path, nil, pt.contentType, patch)
			})
		}
	}
}

// installCRD creates the CRD of a file (already there is as good), waits
// until its kind is served, and returns the kind's schema.
func installCRD(t *testing.T, path, apiVersion, kind string) *reflectschema.Type {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, crd := range readManifests(t, path) {
		r := srv.send(t, http.MethodPost, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
		if r.status != http.StatusCreated && r.status != http.StatusConflict {
			t.Fatalf("CRD %s: status %d: %s", path, r.status, r.body)
		}
		waitEstablished(t, field(crd, "metadata", "name").(string))
	}
	waitDiscovered(t, apiVersion, kind)
	schemas, err := openapischema.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schemas.Lookup(apiVersion, kind)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}
