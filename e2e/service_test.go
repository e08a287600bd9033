package e2e

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/smp"
)

// TestServicePortsSharingANumber patches the test data's DNS Service, whose
// ports 53/TCP and 53/UDP share the number Kubernetes merges Service ports
// by, so that its UDP port is renamed and gets a target port. kubectl's
// patch makes the server store another object than the configuration; the
// project's patch makes it store the configuration.
func TestServicePortsSharingANumber(t *testing.T) {
	var c patchCase
	for _, tc := range testdataCases(t) {
		if tc.name == "service" {
			c = tc
		}
	}
	if c.kind != "Service" {
		t.Fatal("no test data case named service")
	}
	// The ports of the modified manifest, with the server's defaults.
	intended := []any{
		object{"name": "dns-tcp", "port": 53.0, "protocol": "TCP", "targetPort": 53.0},
		object{"name": "dns", "port": 53.0, "protocol": "UDP", "targetPort": 5353.0},
	}
	kubectl := func(original, modified []byte) []byte {
		p, err := strategicpatch.CreateTwoWayMergePatch(original, modified, c.goType(t))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	project := func(original, modified []byte) []byte {
		schema, err := builtin.Lookup(c.apiVersion, c.kind)
		if err != nil {
			t.Fatal(err)
		}
		p, err := smp.DiffJSON(original, modified, schema)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ports := func(diff func(original, modified []byte) []byte) any {
		ns := srv.newNamespace(t)
		original, modified := inNamespace(t, c.original, ns), inNamespace(t, c.modified, ns)
		path, _ := srv.create(t, c, ns, original, "Strict")
		patch := diff(original, modified)
		r := srv.mustDo(t, http.StatusOK, http.MethodPatch, path, withValidation("Strict", nil), strategicMergePatch, patch)
		return field(decode(t, r.body), "spec", "ports")
	}

	// Kubernetes' patch names port 53 by number alone: the server applies
	// the change to the first port 53, the TCP one, which it renames and
	// sends to 5353, and leaves the UDP port as it was. What it stores,
	// recorded:
	kubernetesStored := []any{
		object{"name": "dns", "port": 53.0, "protocol": "TCP", "targetPort": 5353.0},
		object{"name": "dns-udp", "port": 53.0, "protocol": "UDP", "targetPort": 53.0},
	}
	if d := cmp.Diff(kubernetesStored, ports(kubectl)); d != "" {
		t.Errorf("kubectl's patch: the server stored other ports than recorded (-recorded +stored):\n%s", d)
	}
	if d := cmp.Diff(intended, ports(project)); d != "" {
		t.Errorf("the project's patch: the server stored other ports than the configuration's (-want +got):\n%s", d)
	}
}
