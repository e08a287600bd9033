package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	appsv1 "k8s.io/api/apps/v1"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// The JSON merge patch and the JSON patch that smp writes for a live
// object and a strategic merge patch, applied by an independent RFC 7386
// and RFC 6902 implementation (evanphx/json-patch, which Kubernetes' API
// server uses too), give what applying the strategic merge patch gives:
// two-way and three-way patches of random objects of ten built-in kinds.
func TestServerPatchesBuiltin(t *testing.T) {
	for _, k := range registeredDifferentialKinds(t) {
		t.Run(k.GVK.Kind, func(t *testing.T) {
			goType, bundled := kindSchemas(t, k)
			run := &diffRun{kind: k, goType: goType, bundled: bundled, counts: map[string]int{}}
			h := fnv.New64a()
			h.Write([]byte("server " + k.APIVersion() + "/" + k.GVK.Kind))
			for seed := range uint64(100) {
				g := &kindGen{r: rand.New(rand.NewPCG(seed, h.Sum64())), maxDepth: 10}
				docs := run.generate(g)
				// A configuration holds no resourceVersion; the live object does.
				docs[0], docs[1] = withResourceVersion(t, docs[0], ""), withResourceVersion(t, docs[1], "")
				live := withResourceVersion(t, docs[2], "42")
				p2, err := smp.DiffJSON(docs[0], docs[1], bundled)
				if err == nil {
					checkServerPatches(t, run.counts, "two-way", live, p2, bundled)
				}
				p3, err := smp.ThreeWayJSON(docs[0], docs[1], live, bundled, smp.WithOverwrite(true))
				if err == nil {
					checkServerPatches(t, run.counts, "three-way", live, p3, bundled)
				}
				if t.Failed() {
					t.Fatalf("seed %d\noriginal: %s\nmodified: %s\ncurrent: %s", seed, docs[0], docs[1], live)
				}
			}
			t.Logf("%s", formatCounts(run.counts))
			if run.counts["three-way merge patch checked"] < 80 || run.counts["three-way JSON patch checked"] < 80 {
				t.Errorf("too few cases checked: %s", formatCounts(run.counts))
			}
		})
	}
}

// withResourceVersion sets metadata.resourceVersion, as a server's object
// has it, or removes it when rv is empty.
func withResourceVersion(t testing.TB, doc []byte, rv string) []byte {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	md["resourceVersion"] = rv
	if rv == "" {
		delete(md, "resourceVersion")
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkServerPatches checks both forms of patch against ApplyJSON's
// result, their resourceVersion preconditions, and that a JSON patch
// replaces no list whole that both objects hold.
func checkServerPatches(t testing.TB, counts map[string]int, what string, live, patch []byte, schema any) {
	t.Helper()
	want, werr := smp.ApplyJSON(live, patch, schema)
	mp, merr := smp.MergePatchJSON(live, patch, schema)
	jp, jerr := smp.JSONPatchJSON(live, patch, schema)
	if werr != nil {
		if merr == nil || jerr == nil || smp.KindOf(merr) != smp.KindOf(werr) || smp.KindOf(jerr) != smp.KindOf(werr) {
			t.Errorf("%s: ApplyJSON fails (%v), merge patch: %v, JSON patch: %v", what, werr, merr, jerr)
		}
		return
	}
	if jerr != nil {
		t.Errorf("%s: JSON patch: %v", what, jerr)
		return
	}
	got, err := applyJSONPatch(live, jp)
	if err != nil {
		t.Errorf("%s: evanphx applies %s: %v", what, jp, err)
	} else if d := jsonDiff(want, got); d != "" {
		t.Errorf("%s: JSON patch %s gives another result:\n%s", what, jp, d)
	}
	if _, err := applyJSONPatch(withResourceVersion(t, live, "43"), jp); err == nil || !strings.Contains(err.Error(), "test") {
		t.Errorf("%s: a JSON patch applies to a changed object: %v", what, err)
	}
	checkSmallOps(t, what, live, jp)
	counts[what+" JSON patch checked"]++
	if merr != nil {
		t.Errorf("%s: merge patch: %v", what, merr)
		return
	}
	got, err = jsonPatchMerge(live, mp)
	if err != nil {
		t.Errorf("%s: evanphx merges %s: %v", what, mp, err)
	} else if d := jsonDiff(want, got); d != "" {
		// A merge patch cannot write a null member: it may end absent.
		if d := jsonDiff(dropNullMembers(t, want), dropNullMembers(t, got)); d != "" {
			t.Errorf("%s: merge patch %s gives another result:\n%s", what, mp, d)
		}
		counts[what+" merge patch equal up to null members"]++
	}
	var m struct {
		Metadata struct{ ResourceVersion string } `json:"metadata"`
	}
	if err := json.Unmarshal(mp, &m); err != nil || m.Metadata.ResourceVersion != "42" {
		t.Errorf("%s: merge patch %s does not carry the live resourceVersion", what, mp)
	}
	counts[what+" merge patch checked"]++
}

// jsonPatchMerge applies an RFC 7386 merge patch.
func jsonPatchMerge(doc, patch []byte) ([]byte, error) { return jsonpatch.MergePatch(doc, patch) }

// applyJSONPatch applies an RFC 6902 patch.
func applyJSONPatch(doc, patch []byte) ([]byte, error) {
	p, err := jsonpatch.DecodePatch(patch)
	if err != nil {
		return nil, err
	}
	return p.Apply(doc)
}

// jsonDiff compares two JSON documents as values, numbers by their text.
func jsonDiff(want, got []byte) string {
	w, err1 := decodeJSON(want)
	g, err2 := decodeJSON(got)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("undecodable: %v %v", err1, err2)
	}
	if !reflect.DeepEqual(w, g) {
		return fmt.Sprintf("want %s\n got %s", want, got)
	}
	return ""
}

// checkSmallOps fails when an operation replaces a list the live object
// holds: changes to lists are made element by element.
func checkSmallOps(t testing.TB, what string, live, jp []byte) {
	t.Helper()
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(jp, &ops); err != nil {
		t.Fatalf("%s: %s: %v", what, jp, err)
	}
	if len(ops) == 0 || ops[0].Op != "test" || ops[0].Path != "/metadata/resourceVersion" {
		t.Errorf("%s: %s does not start by testing the resourceVersion", what, jp)
	}
	var doc any
	if err := json.Unmarshal(live, &doc); err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		if op.Op != "replace" || !bytes.HasPrefix(bytes.TrimSpace(op.Value), []byte("[")) {
			continue
		}
		if _, isList := lookupPointer(doc, op.Path).([]any); isList {
			t.Errorf("%s: %s replaces the list at %s whole", what, jp, op.Path)
		}
	}
}

// lookupPointer reads an RFC 6901 pointer in a decoded document.
func lookupPointer(doc any, ptr string) any {
	if ptr == "" {
		return doc
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch d := doc.(type) {
		case map[string]any:
			doc = d[tok]
		case []any:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(d) {
				return nil
			}
			doc = d[i]
		default:
			return nil
		}
	}
	return doc
}

// The typed forms, on random Deployments: MergePatch and JSONPatch of a
// two-way patch, applied by evanphx/json-patch to the live object's JSON,
// decode to Apply's result.
func TestServerPatchesTyped(t *testing.T) {
	checkN(t, 300, func(t *rapid.T) {
		o, m, c := genDeployment(t, "original"), genDeployment(t, "modified"), genDeployment(t, "current")
		c.ResourceVersion = "7"
		p, err := smp.Diff(o, m)
		if err != nil {
			t.Fatal(err)
		}
		res, err := smp.Apply(c, p)
		if err != nil {
			t.Skip("the patch does not apply:", err)
		}
		live, want := mustJSON(t, c), mustJSON(t, res)
		mp, err := smp.MergePatch(c, p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := jsonpatch.MergePatch(live, mp)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameDeployment(t, want, got); d != "" {
			t.Fatalf("merge patch %s:\n%s", mp, d)
		}
		jp, err := smp.JSONPatch(c, p)
		if err != nil {
			t.Fatal(err)
		}
		got, err = applyJSONPatch(live, jp)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameDeployment(t, want, got); d != "" {
			t.Fatalf("JSON patch %s:\n%s", jp, d)
		}
	})
}

// sameDeployment compares two Deployments' JSON after decoding them, as a
// server does: a field encoded as null is the field absent.
func sameDeployment(t *rapid.T, want, got []byte) string {
	var w, g appsv1.Deployment
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	return jsonDiff(mustJSON(t, &w), mustJSON(t, &g))
}

// dropNullMembers removes the object members holding null, at any depth.
func dropNullMembers(t testing.TB, doc []byte) []byte {
	v, err := decodeJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var drop func(v any)
	drop = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if e == nil {
					delete(v, k)
				} else {
					drop(e)
				}
			}
		case []any:
			for _, e := range v {
				drop(e)
			}
		}
	}
	drop(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
