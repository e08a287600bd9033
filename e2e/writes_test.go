package e2e

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/smp"
)

// The fieldValidation levels every write is tried under: Strict, and the
// server's default (no parameter).
var validationLevels = []string{"Strict", ""}

func levelName(level string) string {
	if level == "" {
		return "default"
	}
	return level
}

// The schemas the project patches built-in kinds by: the k8s.io/api Go
// type, and package builtin's schema.
var schemaNames = []string{"typed", "builtin"}

func (c patchCase) schema(t testing.TB, name string) any {
	t.Helper()
	if name == "typed" {
		return c.goType(t)
	}
	s, err := builtin.Lookup(c.apiVersion, c.kind)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// create stores manifest and returns the object's path and the stored
// object.
func (s *server) create(t testing.TB, c patchCase, ns string, manifest []byte, level string) (string, []byte) {
	t.Helper()
	name := field(c.original, "metadata", "name").(string)
	r := s.mustDo(t, http.StatusCreated, http.MethodPost, s.objectPath(t, c.apiVersion, c.kind, ns, ""), withValidation(level, nil), "application/json", manifest)
	if level != "Strict" {
		noWarnings(t, "create", r)
	}
	return s.objectPath(t, c.apiVersion, c.kind, ns, name), r.body
}

// dryRunPut is the server's answer to a PUT of obj that stores nothing:
// obj with the server's defaults, or its refusal.
func (s *server) dryRunPut(t testing.TB, path string, obj []byte, level string) response {
	t.Helper()
	r, err := s.do(http.MethodPut, path, withValidation(level, url.Values{"dryRun": {"All"}}), "application/json", obj)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// withResourceVersion is manifest with the resourceVersion of stored, so
// that a PUT of it replaces that version.
func withResourceVersion(t testing.TB, manifest, stored []byte) []byte {
	t.Helper()
	m := decode(t, manifest)
	m["metadata"].(object)["resourceVersion"] = field(decode(t, stored), "metadata", "resourceVersion")
	return encode(t, m)
}

// patched is what the server said to a PATCH, and to the dry-run PUT of the
// intended object just before it.
type patched struct {
	got, intended response
}

// sendPatch PATCHes the live object at path with a strategic merge patch
// and checks that the server stored what a dry-run PUT of the project's
// ApplyJSON(live, patch) gives just before: the same object, or the same
// refusal. A dry-run PUT of intended, if given, is made just before too.
func sendPatch(t testing.TB, path string, live, patch []byte, dataStruct any, level string, intended []byte) patched {
	t.Helper()
	local, err := smp.ApplyJSON(live, patch, dataStruct)
	if err != nil {
		t.Fatalf("ApplyJSON: %v\npatch: %s", err, patch)
	}
	want := srv.dryRunPut(t, path, local, level)
	var p patched
	if intended != nil {
		p.intended = srv.dryRunPut(t, path, intended, level)
	}
	r, err := srv.do(http.MethodPatch, path, withValidation(level, nil), strategicMergePatch, patch)
	if err != nil {
		t.Fatal(err)
	}
	p.got = r
	sameOutcome(t, "PATCH, against a dry-run PUT of the project's ApplyJSON(live, patch)", want, r)
	if level != "Strict" {
		noWarnings(t, "PATCH", r)
	}
	if t.Failed() {
		t.Logf("patch: %s", patch)
	}
	return p
}

// accepted checks the server's verdict on a PATCH: the refusal the case
// expects, or success. It reports whether the object was stored.
func accepted(t testing.TB, c patchCase, r response) bool {
	t.Helper()
	if c.refused != "" {
		if r.status != http.StatusUnprocessableEntity || !bytes.Contains(r.body, []byte(`"field":"`+c.refused+`"`)) {
			t.Errorf("PATCH: status %d, want 422 naming the field %s: %s", r.status, c.refused, r.body)
		}
		return false
	}
	if r.status != http.StatusOK {
		t.Errorf("PATCH: status %d: %s", r.status, r.body)
		return false
	}
	return true
}
