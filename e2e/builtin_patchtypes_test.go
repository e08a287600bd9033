package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"github.com/typedpatch/typedpatch/smp"
)

// TestBuiltinPatchTypes sends, for every case of a built-in kind, the JSON
// merge patch and the JSON patch that smp.MergePatchJSON and
// smp.JSONPatchJSON write from the three-way strategic merge patch against
// a live object another writer changed: the server's result of each
// (dry-run) is its result of the strategic merge patch itself, the other
// writer's changes are kept, and each is refused once the writer changed
// the object again (409 for the merge patch's resourceVersion, 422 for the
// JSON patch's test). evanphx/json-patch applies both locally too.
func TestBuiltinPatchTypes(t *testing.T) {
	for _, c := range allCases(t) {
		if c.refused != "" {
			// The manifests change an immutable field: the server refuses
			// every update of it, so no two results to compare.
			continue
		}
		for _, sn := range schemaNames {
			t.Run(c.name+"/"+sn, func(t *testing.T) {
				t.Parallel()
				checkPatchTypes(t, c, srv.newNamespace(t), c.schema(t, sn))
			})
		}
	}
}

// dryRun is the query of a write that stores nothing.
var dryRun = url.Values{"dryRun": {"All"}}

func checkPatchTypes(t *testing.T, c patchCase, ns string, dataStruct any) {
	original, modified := inNamespace(t, c.original, ns), inNamespace(t, c.modified, ns)
	path, created := srv.create(t, c, ns, original, "Strict")
	drifted := decode(t, created)
	d := applyDrift(c, drifted)
	live := srv.mustDo(t, http.StatusOK, http.MethodPut, path, withValidation("Strict", nil), "application/json", encode(t, drifted)).body
	strategic, err := smp.ThreeWayJSON(original, modified, live, dataStruct, smp.WithOverwrite(true))
	if err != nil {
		t.Fatalf("ThreeWayJSON: %v", err)
	}
	local, err := smp.ApplyJSON(live, strategic, dataStruct)
	if err != nil {
		t.Fatalf("ApplyJSON: %v", err)
	}
	merge, err := smp.MergePatchJSON(live, strategic, dataStruct)
	if err != nil {
		t.Fatalf("MergePatchJSON: %v", err)
	}
	jp, err := smp.JSONPatchJSON(live, strategic, dataStruct)
	if err != nil {
		t.Fatalf("JSONPatchJSON: %v", err)
	}
	independently(t, live, local, merge, jp)

	strict := withValidation("Strict", dryRun)
	want := srv.mustDo(t, http.StatusOK, http.MethodPatch, path, strict, strategicMergePatch, strategic)
	for _, p := range []struct {
		contentType string
		body        []byte
	}{{mergePatch, merge}, {jsonPatch, jp}} {
		got := srv.mustDo(t, http.StatusOK, http.MethodPatch, path, strict, p.contentType, p.body)
		// Dry runs on one live object: the same resourceVersion,
		// generation and managedFields (but their times, which unstamped
		// drops) are expected, so nothing else is left out.
		if diff := cmp.Diff(unstamped(t, want.body), unstamped(t, got.body)); diff != "" {
			t.Errorf("%s: the server's result differs from its result of the strategic merge patch (-strategic +%s):\n%s\nstrategic: %s\npatch: %s",
				p.contentType, p.contentType, diff, strategic, p.body)
		}
		d.kept(t, c, decode(t, got.body), decode(t, modified))
	}

	// Another writer changes the object: both patches are now stale.
	srv.mustDo(t, http.StatusOK, http.MethodPatch, path, nil, mergePatch, []byte(`{"metadata":{"labels":{"drift.example.com/again":"yes"}}}`))
	srv.mustDo(t, http.StatusConflict, http.MethodPatch, path, nil, mergePatch, merge)
	srv.mustDo(t, http.StatusUnprocessableEntity, http.MethodPatch, path, nil, jsonPatch, jp)
	// The server does not say why a JSON patch does not apply: the same
	// operations without the test of the resourceVersion do.
	srv.mustDo(t, http.StatusOK, http.MethodPatch, path, dryRun, jsonPatch, withoutTest(t, jp))
}

// withoutTest is a JSON patch without its first operation, which must test
// /metadata/resourceVersion.
func withoutTest(t *testing.T, jp []byte) []byte {
	t.Helper()
	var ops []object
	if err := json.Unmarshal(jp, &ops); err != nil {
		t.Fatal(err)
	}
	if len(ops) == 0 || ops[0]["op"] != "test" || ops[0]["path"] != "/metadata/resourceVersion" {
		t.Fatalf("the JSON patch does not start by testing /metadata/resourceVersion: %s", jp)
	}
	b, err := json.Marshal(ops[1:])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// independently applies the merge patch and the JSON patch to live with
// evanphx/json-patch (v4, the library the API server applies them with),
// and fails the test unless each gives local, ApplyJSON's result: exactly
// for the JSON patch, and but for null members for the merge patch, which
// cannot set one.
func independently(t *testing.T, live, local, merge, jp []byte) {
	t.Helper()
	byMerge, err := jsonpatch.MergePatch(live, merge)
	if err != nil {
		t.Fatalf("evanphx/json-patch refuses the merge patch: %v\npatch: %s", err, merge)
	}
	want, got := decode(t, local), decode(t, byMerge)
	dropNulls(want)
	dropNulls(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("evanphx/json-patch's result of the merge patch is not ApplyJSON's (-ApplyJSON +merge):\n%s\npatch: %s", diff, merge)
	}
	ops, err := jsonpatch.DecodePatch(jp)
	if err != nil {
		t.Fatalf("evanphx/json-patch cannot decode the JSON patch: %v\npatch: %s", err, jp)
	}
	byOps, err := ops.Apply(live)
	if err != nil {
		t.Fatalf("evanphx/json-patch refuses the JSON patch: %v\npatch: %s", err, jp)
	}
	if diff := cmp.Diff(decode(t, local), decode(t, byOps)); diff != "" {
		t.Errorf("evanphx/json-patch's result of the JSON patch is not ApplyJSON's (-ApplyJSON +json):\n%s\npatch: %s", diff, jp)
	}
}
