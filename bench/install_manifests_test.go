package bench

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"
)

// installProjects are the install manifests of public projects under
// cmd/smp/testdata/projects (their sources and licence in its README.md).
var installProjects = []string{"argo-cd", "ingress-nginx", "kubernetes-addons"}

// TestInstallManifests runs the smp command over every object of real
// install manifests: each file is read and validated strictly (a kind the
// command refuses, or a field it calls unknown, fails), and for every
// object, edited as a user would and as a server would, the patches of
// diff and three-way and the results of apply are those of Kubernetes'
// strategicpatch on the real Go types.
func TestInstallManifests(t *testing.T) {
	smpBin := filepath.Join(t.TempDir(), "smp")
	if out, err := exec.Command("go", "build", "-o", smpBin, "../cmd/smp").CombinedOutput(); err != nil {
		t.Fatalf("building smp: %v\n%s", err, out)
	}
	kinds := builtinGoTypes(t)
	total := 0
	for _, project := range installProjects {
		t.Run(project, func(t *testing.T) {
			docs := projectDocuments(t, filepath.Join(cliDir, "projects", project))
			total += len(docs)
			checkProject(t, smpBin, kinds, docs)
		})
	}
	if total < 80 {
		t.Errorf("%d objects in the install manifests", total)
	}
}

// projectDocuments returns the objects of a project's manifests, as JSON.
func projectDocuments(t *testing.T, dir string) [][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", dir, err)
	}
	var docs [][]byte
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		for _, doc := range bytes.Split(data, []byte("\n---")) {
			js, err := yaml.YAMLToJSON(doc)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if string(js) != "null" {
				docs = append(docs, js)
			}
		}
	}
	return docs
}

// checkProject writes the objects as ORIGINAL, edited as MODIFIED and as
// CURRENT, runs smp diff, apply and three-way on them, and compares each
// object's patch and result with Kubernetes'.
func checkProject(t *testing.T, smpBin string, kinds map[[2]string]reflect.Type, originals [][]byte) {
	dir := t.TempDir()
	var modified, current [][]byte
	types := make([]reflect.Type, len(originals))
	for i, o := range originals {
		var id struct{ APIVersion, Kind string }
		if err := json.Unmarshal(o, &id); err != nil {
			t.Fatal(err)
		}
		gt, ok := kinds[[2]string{id.APIVersion, id.Kind}]
		if !ok {
			t.Fatalf("%s %s is not a built-in kind", id.APIVersion, id.Kind)
		}
		types[i] = gt
		modified = append(modified, editJSON(t, o, editAsUser))
		current = append(current, editJSON(t, o, editAsServer))
	}
	orig, mod, cur := writeStream(t, dir, "original", originals), writeStream(t, dir, "modified", modified), writeStream(t, dir, "current", current)

	patches := smpEntries(t, smpBin, "patch", "diff", "-o", "json", orig, mod)
	var patchDocs [][]byte
	for i, p := range patches {
		want, err := k8s.CreateTwoWayMergePatch(originals[i], modified[i], reflect.New(types[i]).Interface())
		if err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		agreeJSON(t, fmt.Sprintf("diff, object %d (%s)", i, types[i]), want, p)
		patchDocs = append(patchDocs, named(t, originals[i], p))
	}

	results := smpEntries(t, smpBin, "result", "apply", "-o", "json", orig, writeStream(t, dir, "patches", patchDocs))
	for i, r := range results {
		want, err := k8s.StrategicMergePatch(originals[i], patchDocs[i], reflect.New(types[i]).Interface())
		if err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		agreeJSON(t, fmt.Sprintf("apply, object %d (%s)", i, types[i]), want, r)
	}

	threeWay := smpEntries(t, smpBin, "patch", "three-way", "-o", "json", orig, mod, cur)
	for i, p := range threeWay {
		meta, err := k8s.NewPatchMetaFromStruct(reflect.New(types[i]).Interface())
		if err != nil {
			t.Fatal(err)
		}
		want, err := k8s.CreateThreeWayMergePatch(originals[i], modified[i], current[i], meta, true)
		if err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		agreeJSON(t, fmt.Sprintf("three-way, object %d (%s)", i, types[i]), want, p)
	}
}

// smpEntries runs smp and returns the key of each entry of its -o json
// output, in the order of the objects.
func smpEntries(t *testing.T, smpBin, key string, args ...string) []json.RawMessage {
	t.Helper()
	cmd := exec.Command(smpBin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || errOut.Len() > 0 {
		t.Fatalf("smp %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	var entries []map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &entries); err != nil {
		t.Fatalf("smp %s: %v", args[0], err)
	}
	docs := make([]json.RawMessage, len(entries))
	for i, e := range entries {
		docs[i] = e[key]
	}
	return docs
}

// named returns a patch with the apiVersion, kind and metadata of obj that
// name it, so that it finds its object among several.
func named(t *testing.T, obj, patch []byte) []byte {
	t.Helper()
	var o, p map[string]any
	if err := json.Unmarshal(obj, &o); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(patch, &p); err != nil {
		t.Fatal(err)
	}
	p["apiVersion"], p["kind"] = o["apiVersion"], o["kind"]
	meta, _ := p["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	om := o["metadata"].(map[string]any)
	meta["name"] = om["name"]
	if ns, ok := om["namespace"]; ok {
		meta["namespace"] = ns
	}
	p["metadata"] = meta
	js, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

func writeStream(t *testing.T, dir, name string, docs [][]byte) string {
	t.Helper()
	var b bytes.Buffer
	for _, d := range docs {
		y, err := yaml.JSONToYAML(d)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	path := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func agreeJSON(t *testing.T, what string, want, got []byte) {
	t.Helper()
	if d := cmp.Diff(decodeAny(t, want), decodeAny(t, got)); d != "" {
		t.Errorf("%s: smp differs from Kubernetes (-kubernetes +smp):\n%s", what, d)
	}
}

// editJSON decodes an object, edits it and encodes it.
func editJSON(t *testing.T, obj []byte, edit func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	js, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// editAsUser changes an object as a new release of its manifest would: a
// label, one annotation fewer, one more replica; in a pod template a new
// image, an environment variable, a port fewer and a sidecar; a rule, a
// key of data, a short name, a port more.
func editAsUser(m map[string]any) {
	meta := objField(m, "metadata")
	objField(meta, "labels")["smp.example/release"] = "next"
	if ann, ok := meta["annotations"].(map[string]any); ok {
		for k := range ann {
			delete(ann, k)
			break
		}
	}
	spec, _ := m["spec"].(map[string]any)
	if r, ok := spec["replicas"].(float64); ok {
		spec["replicas"] = r + 1
	}
	if pod := podSpec(spec); pod != nil {
		cs, _ := pod["containers"].([]any)
		if len(cs) > 0 {
			c := cs[0].(map[string]any)
			c["image"] = fmt.Sprint(c["image"]) + "-next"
			env, _ := c["env"].([]any)
			c["env"] = append(env, map[string]any{"name": "SMP_RELEASE", "value": "next"})
			if ports, _ := c["ports"].([]any); len(ports) > 1 {
				c["ports"] = ports[:len(ports)-1]
			}
		}
		pod["containers"] = append(cs, map[string]any{"name": "smp-sidecar", "image": "busybox:1.36"})
	}
	switch m["kind"] {
	case "Role", "ClusterRole":
		rules, _ := m["rules"].([]any)
		m["rules"] = append(rules, map[string]any{"apiGroups": []any{""}, "resources": []any{"events"}, "verbs": []any{"create"}})
	case "ConfigMap":
		objField(m, "data")["smp.release"] = "next"
	case "Service":
		ports, _ := spec["ports"].([]any)
		spec["ports"] = append(ports, map[string]any{"name": "smp-metrics", "port": 9999.0, "protocol": "TCP"})
	case "CustomResourceDefinition":
		names := objField(spec, "names")
		short, _ := names["shortNames"].([]any)
		names["shortNames"] = append(short, "smp")
	}
}

// editAsServer changes an object as the API server and controllers would:
// a uid, a status, an injected sidecar in a pod template.
func editAsServer(m map[string]any) {
	objField(m, "metadata")["uid"] = "8e0c2c1b-4d7e-4f51-9a55-0d2b1f3c6a7e"
	spec, _ := m["spec"].(map[string]any)
	if pod := podSpec(spec); pod != nil {
		cs, _ := pod["containers"].([]any)
		pod["containers"] = append(cs, map[string]any{"name": "istio-proxy", "image": "istio/proxyv2:1.24"})
		if m["kind"] == "Job" {
			m["status"] = map[string]any{"active": 1.0}
		} else {
			m["status"] = map[string]any{"observedGeneration": 3.0}
		}
	}
}

// podSpec returns the pod spec of a workload's or a Job's template.
func podSpec(spec map[string]any) map[string]any {
	tmpl, _ := spec["template"].(map[string]any)
	pod, _ := tmpl["spec"].(map[string]any)
	return pod
}

// objField returns m[key] as an object, made if absent.
func objField(m map[string]any, key string) map[string]any {
	c, ok := m[key].(map[string]any)
	if !ok {
		c = map[string]any{}
		m[key] = c
	}
	return c
}
