package e2e

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/smp"
)

// eachCase runs check on every case, schema and validation level, in
// parallel: each in a namespace of its own.
func eachCase(t *testing.T, check func(t *testing.T, c patchCase, ns, schemaName, level string)) {
	for _, c := range allCases(t) {
		for _, sn := range schemaNames {
			for _, level := range validationLevels {
				t.Run(c.name+"/"+sn+"/"+levelName(level), func(t *testing.T) {
					t.Parallel()
					check(t, c, srv.newNamespace(t), sn, level)
				})
			}
		}
	}
}

// TestTwoWay creates each original, PATCHes it with the project's two-way
// patch to the modified manifest, and checks that the server stores what
// the project computes locally and what a PUT of the modified manifest
// would store.
func TestTwoWay(t *testing.T) {
	eachCase(t, func(t *testing.T, c patchCase, ns, schemaName, level string) {
		original, modified := inNamespace(t, c.original, ns), inNamespace(t, c.modified, ns)
		path, live := srv.create(t, c, ns, original, level)
		dataStruct := c.schema(t, schemaName)
		patch, err := smp.DiffJSON(original, modified, dataStruct)
		if err != nil {
			t.Fatalf("DiffJSON: %v", err)
		}
		checkPatch(t, c, level, path, live, original, modified, patch, dataStruct, nil)
	})
}

// TestThreeWay creates each original, lets another writer change the live
// object, and PATCHes it with the project's three-way patch: the server
// must store what the project computes locally, keep the other writer's
// changes, and otherwise hold the modified manifest.
func TestThreeWay(t *testing.T) {
	eachCase(t, func(t *testing.T, c patchCase, ns, schemaName, level string) {
		original, modified := inNamespace(t, c.original, ns), inNamespace(t, c.modified, ns)
		path, created := srv.create(t, c, ns, original, level)
		drifted := decode(t, created)
		d := applyDrift(c, drifted)
		live := srv.mustDo(t, 200, "PUT", path, nil, "application/json", encode(t, drifted)).body
		dataStruct := c.schema(t, schemaName)
		// As kubectl apply does: where the live object changed a field the
		// configuration changes too (the server's defaults included), the
		// configuration wins.
		patch, err := smp.ThreeWayJSON(original, modified, live, dataStruct, smp.WithOverwrite(true))
		if err != nil {
			t.Fatalf("ThreeWayJSON: %v", err)
		}
		checkPatch(t, c, level, path, live, original, modified, patch, dataStruct, &d)
	})
}

// checkPatch sends the project's patch to the live object at path and
// checks what the server stores: the project's local result (sendPatch),
// and the modified manifest, with the other writer's changes d kept if d
// is not nil. For pods, whose spec admission changed at creation in ways a
// pod cannot undo, the manifest is checked as a part of the stored pod.
func checkPatch(t *testing.T, c patchCase, level, path string, live, original, modified, patch []byte, dataStruct any, d *drift) {
	t.Helper()
	pod := c.kind == "Pod"
	var intended []byte
	if !pod {
		intended = withResourceVersion(t, modified, live)
	}
	p := sendPatch(t, path, live, patch, dataStruct, level, intended)
	if !accepted(t, c, p.got) {
		return
	}
	if !pod && p.intended.status != 200 {
		t.Fatalf("dry-run PUT of the modified manifest: status %d: %s", p.intended.status, p.intended.body)
	}
	stored := decode(t, p.got.body)
	ignored := []string{"managedFields"} // a PATCH and a PUT: writes of other fields
	if d != nil {
		var want object
		if !pod {
			want = decode(t, p.intended.body)
		}
		d.kept(t, c, stored, want)
		// The intended object is one write and the stored one two: they
		// need not agree on the count of spec changes.
		ignored = append(ignored, "generation")
	}
	if pod {
		want := decode(t, modified)
		if diff := contains(stored, want, ""); diff != "" {
			t.Errorf("the stored pod is not the configuration: %s", diff)
		}
		for _, k := range []string{"labels", "annotations"} { // untouched by admission: exactly the configuration's
			if diff := cmp.Diff(field(want, "metadata", k), field(stored, "metadata", k)); diff != "" {
				t.Errorf("the stored pod's %s are not the configuration's (-want +got):\n%s", k, diff)
			}
		}
		return
	}
	intendedObject(t, p.intended, stored, live, original, ignored...)
}

// intendedObject fails the test unless the server's answer to the dry-run
// PUT of the modified manifest is stored, apart from the metadata fields
// ignored and the defaults a patch leaves (see leftovers).
func intendedObject(t testing.TB, intended response, stored object, live, original []byte, ignored ...string) {
	t.Helper()
	want, got := unstamped(t, intended.body), unstamped(t, encode(t, stored))
	for _, o := range []object{want, got} {
		for _, k := range ignored {
			delete(o["metadata"].(object), k)
		}
	}
	if l := leftovers(want, got, decode(t, live), decode(t, original), ""); len(l) > 0 {
		t.Errorf("the stored object is not the modified manifest: %s\n(-want +got):\n%s", strings.Join(l, "; "), cmp.Diff(want, got))
	}
}
