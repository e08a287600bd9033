package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/smp"
)

// --patch-type merge and json turn the live object, CURRENT for three-way
// (here with a resourceVersion, as a server's object has), into the
// strategic patch's result: the merge patch, applied by RFC 7386's
// procedure written out below, gives it, and carries the resourceVersion;
// the JSON patch is the one the library writes against CURRENT, its first
// operation testing the resourceVersion.
func TestPatchTypeThreeWay(t *testing.T) {
	for _, cr := range customResources {
		t.Run(cr[0], func(t *testing.T) {
			crd := "../../openapischema/testdata/" + cr[1]
			files := []string{"testdata/crd/" + cr[0] + "-original.yaml", "testdata/crd/" + cr[0] + "-modified.yaml"}
			current := withRV(t, "testdata/crd/"+cr[0]+"-current.yaml", "4711")
			out := map[string][]byte{}
			for _, pt := range []string{"strategic", "merge", "json"} {
				args := append([]string{"three-way", "--schema", crd, "--patch-type", pt, "-o", "json"}, append(files, "-")...)
				stdout, stderr, exit := runInProcess(args, string(current))
				if exit != 0 {
					t.Fatalf("%s: exit %d: %s", pt, exit, stderr)
				}
				out[pt] = []byte(stdout)
			}
			ds := crSchema(t, crd, current)
			want, err := smp.ApplyJSON(current, out["strategic"], ds)
			if err != nil {
				t.Fatal(err)
			}
			mp := decodeJSON(t, out["merge"])
			if rv := mp.(map[string]any)["metadata"].(map[string]any)["resourceVersion"]; rv != "4711" {
				t.Errorf("the merge patch carries resourceVersion %v", rv)
			}
			if d := cmp.Diff(decodeJSON(t, want), mergePatch7386(decodeJSON(t, current), mp)); d != "" {
				t.Errorf("the merge patch gives another object (-strategic +merge):\n%s\npatch %s", d, out["merge"])
			}
			jp, err := smp.JSONPatchJSON(current, out["strategic"], ds)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(decodeJSON(t, jp), decodeJSON(t, out["json"])); d != "" {
				t.Errorf("the JSON patch is not the one written against CURRENT (-want +got):\n%s", d)
			}
			if !strings.HasPrefix(string(compact(t, out["json"])), `[{"op":"test","path":"/metadata/resourceVersion","value":"4711"}`) {
				t.Errorf("the JSON patch does not test the resourceVersion first: %s", out["json"])
			}
		})
	}
}

// diff writes its patch against ORIGINAL, whose resourceVersion MODIFIED,
// a configuration, lacks; no change is no change.
func TestPatchTypeDiff(t *testing.T) {
	crd := "../../openapischema/testdata/rollout-crd.yaml"
	modified := "testdata/crd/rollout-modified.yaml"
	original := withRV(t, "testdata/crd/rollout-original.yaml", "12")
	strategic, stderr, exit := runInProcess([]string{"diff", "--schema", crd, "-o", "json", "-", modified}, string(original))
	if exit != 0 {
		t.Fatalf("exit %d: %s", exit, stderr)
	}
	got, stderr, exit := runInProcess([]string{"diff", "--schema", crd, "--patch-type", "json", "-o", "json", "-", modified}, string(original))
	if exit != 0 {
		t.Fatalf("exit %d: %s", exit, stderr)
	}
	want, err := smp.JSONPatchJSON(original, []byte(strategic), crSchema(t, crd, original))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(decodeJSON(t, want), decodeJSON(t, []byte(got))); d != "" {
		t.Errorf("the JSON patch is not the one written against ORIGINAL (-want +got):\n%s", d)
	}
	if !strings.HasPrefix(string(compact(t, []byte(got))), `[{"op":"test","path":"/metadata/resourceVersion","value":"12"}`) {
		t.Errorf("the JSON patch does not test the resourceVersion first: %s", got)
	}
	for _, pt := range []string{"merge", "json"} {
		same := "testdata/crd/rollout-original.yaml"
		if _, stderr, exit := runInProcess([]string{"diff", "--exit-code", "--patch-type", pt, "--schema", crd, same, same}, ""); exit != 0 {
			t.Errorf("%s, identical files: exit %d %s", pt, exit, stderr)
		}
		if _, stderr, exit := runInProcess([]string{"diff", "--exit-code", "--patch-type", pt, "--schema", crd, same, modified}, ""); exit != 1 {
			t.Errorf("%s, different files: exit %d %s", pt, exit, stderr)
		}
	}
	_, stderr, exit = runInProcess([]string{"diff", "--patch-type", "apply", "a", "b"}, "")
	if exit != 2 || !strings.Contains(stderr, "must be strategic, merge or json") {
		t.Errorf("--patch-type apply: exit %d, %s", exit, stderr)
	}
}

// withRV reads a manifest and returns it as JSON with a resourceVersion.
func withRV(t *testing.T, file, rv string) []byte {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["metadata"].(map[string]any)["resourceVersion"] = rv
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// crSchema returns the schema of doc's kind in a CRD file.
func crSchema(t *testing.T, crdFile string, doc []byte) any {
	data, err := os.ReadFile(crdFile)
	if err != nil {
		t.Fatal(err)
	}
	s, err := openapischema.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	var tm struct{ APIVersion, Kind string }
	if err := json.Unmarshal(doc, &tm); err != nil {
		t.Fatal(err)
	}
	st, err := s.Lookup(tm.APIVersion, tm.Kind)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func compact(t *testing.T, data []byte) []byte {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return out
}

// mergePatch7386 is RFC 7386's MergePatch procedure, as the RFC writes it.
func mergePatch7386(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
		} else {
			t[k] = mergePatch7386(t[k], v)
		}
	}
	return t
}
