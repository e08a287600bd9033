package e2e

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// TestKubernetesTwoWayPatch sends the patches Kubernetes' own library
// computes from the original to the modified manifest, as kubectl does,
// and checks that the project's ApplyJSON of them gives what the server
// stores. Whether that is the modified manifest is Kubernetes' business;
// TestServicePortsSharingANumber shows a case where it is not.
func TestKubernetesTwoWayPatch(t *testing.T) {
	eachCase(t, func(t *testing.T, c patchCase, ns, schemaName, level string) {
		original, modified := inNamespace(t, c.original, ns), inNamespace(t, c.modified, ns)
		path, live := srv.create(t, c, ns, original, level)
		patch, err := strategicpatch.CreateTwoWayMergePatch(original, modified, c.goType(t))
		if err != nil {
			t.Fatalf("CreateTwoWayMergePatch: %v", err)
		}
		p := sendPatch(t, path, live, patch, c.schema(t, schemaName), level, nil)
		accepted(t, c, p.got)
	})
}

// TestKubernetesThreeWayPatch does the same with the three-way patches of
// kubectl apply, computed against the live object after another writer
// changed it.
func TestKubernetesThreeWayPatch(t *testing.T) {
	eachCase(t, func(t *testing.T, c patchCase, ns, schemaName, level string) {
		original, modified := inNamespace(t, c.original, ns), inNamespace(t, c.modified, ns)
		path, created := srv.create(t, c, ns, original, level)
		drifted := decode(t, created)
		applyDrift(c, drifted)
		live := srv.mustDo(t, 200, "PUT", path, nil, "application/json", encode(t, drifted)).body
		meta, err := strategicpatch.NewPatchMetaFromStruct(c.goType(t))
		if err != nil {
			t.Fatal(err)
		}
		patch, err := strategicpatch.CreateThreeWayMergePatch(original, modified, live, meta, true)
		if err != nil {
			t.Fatalf("CreateThreeWayMergePatch: %v", err)
		}
		p := sendPatch(t, path, live, patch, c.schema(t, schemaName), level, nil)
		accepted(t, c, p.got)
	})
}
