package bench

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"testing"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// kindGen's documents are valid for their kind: they decode into the Go
// type, every element of a keyed merge list carries its key fields and no
// two share a key, a merge list of scalars holds no duplicates, and the
// edits change something in most triples. Without this the differential
// test would compare the engines on inputs both reject, or on nothing.
func TestKindGenValid(t *testing.T) {
	registered, _, err := builtinKinds()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range registered {
		if k.GVK.Kind != "Pod" && k.GVK.Kind != "Deployment" && k.GVK.Kind != "NetworkPolicy" || k.GVK.Group == "extensions" {
			continue
		}
		goType, err := rs.Of(k.Go)
		if err != nil {
			t.Fatal(err)
		}
		run := &diffRun{kind: k, goType: goType}
		h := fnv.New64a()
		h.Write([]byte(k.APIVersion()))
		changed, lists := 0, 0
		for seed := range uint64(40) {
			docs := run.generate(&kindGen{r: rand.New(rand.NewPCG(seed, h.Sum64())), maxDepth: 10})
			if string(docs[0]) != string(docs[1]) {
				changed++
			}
			for _, d := range docs {
				if err := json.Unmarshal(d, reflect.New(k.Go).Interface()); err != nil {
					t.Fatalf("%s seed %d: %v\n%s", k.GVK.Kind, seed, err, d)
				}
				v, _ := decodeJSON(d)
				n, err := checkLists(v, goType, rs.PatchMeta{}, "")
				if err != nil {
					t.Fatalf("%s seed %d: %v\n%s", k.GVK.Kind, seed, err, d)
				}
				lists += n
			}
		}
		if changed < 25 || lists < 40 {
			t.Errorf("%s %s: %d of 40 edits changed the object, %d merge lists of two or more elements", k.APIVersion(), k.GVK.Kind, changed, lists)
		}
	}
}

// checkLists checks the merge lists of a decoded document against the
// schema t, and counts those with two elements or more.
func checkLists(v any, t *rs.Type, meta rs.PatchMeta, path string) (int, error) {
	count := 0
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			var ft *rs.Type
			var fm rs.PatchMeta
			switch {
			case t != nil && t.Kind == rs.Struct && t.Field(k) != nil:
				ft, fm = t.Field(k).Type, t.Field(k).Patch
			case t != nil && t.Kind == rs.Map:
				ft = t.Elem
			}
			n, err := checkLists(e, ft, fm, path+"."+k)
			if err != nil {
				return 0, err
			}
			count += n
		}
	case []any:
		if t == nil || t.Kind != rs.List {
			return 0, nil
		}
		if meta.IsMergeList() && len(x) > 1 {
			count++
		}
		seen := map[string]bool{}
		for _, e := range x {
			id := fmt.Sprint(e)
			if em, ok := e.(map[string]any); ok && meta.IsMergeList() {
				id = ""
				for _, k := range meta.MergeKey {
					if em[k] == nil {
						return 0, fmt.Errorf("%s: an element without its key %s: %v", path, k, e)
					}
					id += fmt.Sprint(em[k]) + "\x00"
				}
			}
			if meta.IsMergeList() && seen[id] {
				return 0, fmt.Errorf("%s: two elements with key %q", path, id)
			}
			seen[id] = true
			n, err := checkLists(e, t.Elem, rs.PatchMeta{}, path+"[]")
			if err != nil {
				return 0, err
			}
			count += n
		}
	}
	return count, nil
}
