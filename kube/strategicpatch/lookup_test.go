package strategicpatch_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/mergepatch"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/kube/strategicpatch"
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// TestDataStructArgument: where Kubernetes takes a data struct, a struct,
// a pointer to one, this package's LookupPatchMeta values and a
// *reflectschema.Type all merge lists by key; Kubernetes' own
// PatchMetaFromStruct (which would describe no field) and values that are
// not structs are errors, never a JSON merge patch.
func TestDataStructArgument(t *testing.T) {
	original := []byte(`{"parts":[{"name":"a","value":"1"},{"name":"b"}]}`)
	patch := []byte(`{"parts":[{"name":"c"}]}`)
	wantJSON, err := k8s.StrategicMergePatch(original, patch, widget{})
	if err != nil {
		t.Fatal(err)
	}
	want := string(wantJSON)
	schema, err := reflectschema.For[widget]()
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := strategicpatch.NewPatchMetaFromStruct(widget{})
	for _, ds := range []interface{}{widget{}, &widget{}, ours, &ours, schema} {
		got, err := strategicpatch.StrategicMergePatch(original, patch, ds)
		if err != nil || string(got) != want {
			t.Errorf("data struct %T: got %s, %v; want %s", ds, got, err, want)
		}
	}
	theirs, _ := k8s.NewPatchMetaFromStruct(widget{})
	for _, ds := range []interface{}{theirs, &theirs, k8s.PatchMetaFromOpenAPI{}} {
		if got, err := strategicpatch.StrategicMergePatch(original, patch, ds); err == nil {
			t.Errorf("Kubernetes' %T as a data struct: got %s, no error", ds, got)
		} else if !strings.Contains(err.Error(), "LookupPatchMeta of another package") {
			t.Errorf("Kubernetes' %T: the error does not say why: %v", ds, err)
		}
		if _, err := strategicpatch.CreateTwoWayMergePatch(original, patch, ds); err == nil {
			t.Errorf("CreateTwoWayMergePatch with Kubernetes' %T: no error", ds)
		}
		if _, err := strategicpatch.StrategicMergeMapPatch(map[string]interface{}{}, map[string]interface{}{}, ds); err == nil {
			t.Errorf("StrategicMergeMapPatch with Kubernetes' %T: no error", ds)
		}
	}
	for _, ds := range []interface{}{nil, []byte("<not a struct>"), "widget", 3, map[string]interface{}{}, []widget{}} {
		_, want := k8s.StrategicMergePatch(original, patch, ds)
		_, got := strategicpatch.StrategicMergePatch(original, patch, ds)
		if got == nil || want == nil || got.Error() != want.Error() {
			t.Errorf("data struct %#v: got error %v, Kubernetes %v", ds, got, want)
		}
		if _, err := strategicpatch.CreateTwoWayMergeMapPatch(nil, nil, ds); err == nil {
			t.Errorf("CreateTwoWayMergeMapPatch with %#v: no error", ds)
		}
	}
}

// counting is a LookupPatchMeta of a user's own: it delegates to another
// and counts the questions.
type counting struct {
	inner strategicpatch.LookupPatchMeta
	calls *int
	fail  string // a key whose lookups fail
}

var errLookup = errors.New("no such field in this lookup")

func (c counting) LookupPatchMetadataForStruct(key string) (strategicpatch.LookupPatchMeta, strategicpatch.PatchMeta, error) {
	*c.calls++
	if key == c.fail {
		return nil, strategicpatch.PatchMeta{}, errLookup
	}
	sub, meta, err := c.inner.LookupPatchMetadataForStruct(key)
	return counting{sub, c.calls, c.fail}, meta, err
}

func (c counting) LookupPatchMetadataForSlice(key string) (strategicpatch.LookupPatchMeta, strategicpatch.PatchMeta, error) {
	*c.calls++
	if key == c.fail {
		return nil, strategicpatch.PatchMeta{}, errLookup
	}
	sub, meta, err := c.inner.LookupPatchMetadataForSlice(key)
	return counting{sub, c.calls, c.fail}, meta, err
}

func (c counting) Name() string { return "counting " + c.inner.Name() }

// TestUsersLookupPatchMeta: a LookupPatchMeta of the user's own drives
// the engine as Kubernetes' lookup does Kubernetes': the same patches and
// results as Kubernetes with its own PatchMetaFromStruct, in the JSON and
// map functions, two-way, three-way and applied.
func TestUsersLookupPatchMeta(t *testing.T) {
	inner, _ := strategicpatch.NewPatchMetaFromStruct(widget{})
	calls := 0
	user := counting{inner: inner, calls: &calls}
	kmeta, _ := k8s.NewPatchMetaFromStruct(widget{})
	cases := []struct{ original, modified, current string }{
		{`{"parts":[{"name":"a","parts":[{"name":"x"}]},{"name":"b"}],"ports":[1,2]}`,
			`{"parts":[{"name":"b","value":"v"},{"name":"c","parts":[{"name":"y"}]}],"ports":[2,3]}`,
			`{"parts":[{"name":"a","parts":[{"name":"x"}]},{"name":"b"},{"name":"live"}],"ports":[1,2,9]}`},
		{`{"strategy":{"type":"Rolling","rolling":{"max":"1"}},"tags":["a"]}`,
			`{"strategy":{"type":"Recreate"},"tags":["b"]}`,
			`{"strategy":{"type":"Rolling","rolling":{"max":"1"}},"tags":["a"],"Annotations":{"k":"v"}}`},
	}
	for i, c := range cases {
		o, m, cur := []byte(c.original), []byte(c.modified), []byte(c.current)
		want, err := k8s.CreateTwoWayMergePatch(o, m, widget{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(o, m, user)
		sameJSON(t, fmt.Sprintf("case %d two-way", i), string(want), string(got), err)
		wantRes, _ := k8s.StrategicMergePatch(cur, want, widget{})
		gotRes, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(cur, want, user)
		sameJSON(t, fmt.Sprintf("case %d apply", i), string(wantRes), string(gotRes), err)
		want3, _ := k8s.CreateThreeWayMergePatch(o, m, cur, kmeta, true)
		got3, err := strategicpatch.CreateThreeWayMergePatch(o, m, cur, user, true)
		sameJSON(t, fmt.Sprintf("case %d three-way", i), string(want3), string(got3), err)
		var cm, pm map[string]interface{}
		_ = json.Unmarshal(cur, &cm)
		_ = json.Unmarshal(want, &pm)
		gotMap, err := strategicpatch.StrategicMergeMapPatchUsingLookupPatchMeta(cm, pm, user)
		gotMapJSON, _ := json.Marshal(gotMap)
		sameJSON(t, fmt.Sprintf("case %d map apply", i), string(wantRes), string(gotMapJSON), err)
	}
	if calls == 0 {
		t.Error("the user's lookup was never asked")
	}
}

func sameJSON(t *testing.T, what, want, got string, err error) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	var w, g interface{}
	if json.Unmarshal([]byte(want), &w) != nil || json.Unmarshal([]byte(got), &g) != nil || !reflect.DeepEqual(w, g) {
		t.Errorf("%s:\n got  %s\n want %s", what, got, want)
	}
}

// TestUsersLookupIsAskedPerField: the walk asks the lookup once per field
// of each position, however many elements share it: as many questions
// for 4 elements as for 4,000.
func TestUsersLookupIsAskedPerField(t *testing.T) {
	inner, _ := strategicpatch.NewPatchMetaFromStruct(widget{})
	ask := func(n int) int {
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, fmt.Sprintf(`{"name":"p%d","value":"v","parts":[{"name":"q","ports":[%d]}]}`, i, i))
		}
		doc := []byte(`{"parts":[` + strings.Join(parts, ",") + `]}`)
		calls := 0
		if _, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(doc, doc, counting{inner: inner, calls: &calls}); err != nil {
			t.Fatal(err)
		}
		return calls
	}
	small, large := ask(4), ask(4000)
	if small == 0 || small != large {
		t.Errorf("lookups: %d for 4 elements, %d for 4,000; want the same non-zero count", small, large)
	}
}

// TestUsersLookupErrors: a failing lookup fails the operation where
// Kubernetes would ask it (objects in two documents that differ), with
// the lookup's own error; a field only one document has needs no lookup.
func TestUsersLookupErrors(t *testing.T) {
	inner, _ := strategicpatch.NewPatchMetaFromStruct(widget{})
	calls := 0
	user := counting{inner: inner, calls: &calls, fail: "extra"}
	_, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(`{"extra":{"a":1}}`), []byte(`{"extra":{"b":2}}`), user)
	if !errors.Is(err, errLookup) {
		t.Errorf("nested change under a field the lookup fails on: got %v, want the lookup's error", err)
	}
	_, err = strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta([]byte(`{"extra":[{"a":1}]}`), []byte(`{"extra":[{"a":2}]}`), user)
	if !errors.Is(err, errLookup) {
		t.Errorf("two-way change of a list under such a field: got %v, want the lookup's error", err)
	}
	got, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(`{"name":"a"}`), []byte(`{"extra":{"b":{"c":null,"d":1}}}`), user)
	sameJSON(t, "adding such a field whole", `{"name":"a","extra":{"b":{"d":1}}}`, string(got), err)
	got, err = strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta([]byte(`{"extra":{"a":[1]}}`), []byte(`{"extra":{"a":[1]},"name":"x"}`), user)
	sameJSON(t, "such a field unchanged", `{"name":"x"}`, string(got), err)
}

// TestMergePatches: merging patches gives one with the effect of
// applying them in order, which is Kubernetes' effect (Kubernetes' own
// merge loses a deletion in sequences 1 and 2), or refuses: in sequences
// 0, 4 and 5 each patch places items of one list without a
// $setElementOrder, so the merged patch's order would move a live item,
// and Kubernetes' merged patch does. No argument is changed.
func TestMergePatches(t *testing.T) {
	meta, _ := strategicpatch.NewPatchMetaFromStruct(widget{})
	doc := `{"name":"w","parts":[{"name":"a","value":"1"},{"name":"b"}],"ports":[1,2],"tags":["t"]}`
	sequences := []struct {
		patches []string
		refused bool
	}{
		{patches: []string{`{"parts":[{"name":"a","value":"2"}]}`, `{"parts":[{"name":"c"}]}`}, refused: true},
		{patches: []string{`{"parts":[{"name":"a","$patch":"delete"}]}`, `{"value":"x","ports":[3]}`}},
		{patches: []string{`{"ports":[5]}`, `{"$deleteFromPrimitiveList/ports":[5,1]}`}},
		{patches: []string{`{"value":"x"}`, `{"value":null}`, `{"tags":["u"]}`}},
		{patches: []string{`{"parts":[{"name":"c"}]}`, `{"parts":[{"name":"a","value":"2"}]}`}, refused: true},
		{patches: []string{`{"parts":[{"name":"a","value":null}]}`, `{"parts":[{"name":"b","value":"9"}],"name":"v"}`}, refused: true},
		{patches: []string{`{"parts":[{"name":"c"}]}`, `{"$setElementOrder/parts":[{"name":"a"},{"name":"b"},{"name":"c"}],"parts":[{"name":"a","value":"2"}]}`}},
	}
	for i, seq := range sequences {
		patches := make([]strategicpatch.JSONMap, len(seq.patches))
		before := make([]string, len(seq.patches))
		sequential, kSequential := []byte(doc), []byte(doc)
		for j, p := range seq.patches {
			_ = json.Unmarshal([]byte(p), &patches[j])
			b, _ := json.Marshal(patches[j])
			before[j] = string(b)
			var err error
			if sequential, err = strategicpatch.StrategicMergePatch(sequential, []byte(p), widget{}); err != nil {
				t.Fatal(err)
			}
			kSequential, _ = k8s.StrategicMergePatch(kSequential, []byte(p), widget{})
		}
		sameJSON(t, fmt.Sprintf("sequence %d: in order, against Kubernetes", i), string(kSequential), string(sequential), nil)
		merged, err := strategicpatch.MergeStrategicMergeMapPatchUsingLookupPatchMeta(meta, patches...)
		if seq.refused {
			var se *smp.Error
			if !errors.As(err, &se) || se.Kind != smp.ErrNotComposable {
				t.Errorf("sequence %d: got %v, %v; want ErrNotComposable", i, merged, err)
			}
			if !mergeMisplaces(t, seq.patches, doc, `{"parts":[{"name":"b"},{"name":"a","value":"1"}]}`, `{"parts":[{"name":"a","value":"1"},{"name":"c"}]}`) {
				t.Errorf("sequence %d: Kubernetes' merged patch has the effect of the patches in order on every document tried: want a difference that justifies refusing", i)
			}
			continue
		}
		if err != nil {
			t.Errorf("sequence %d: %v", i, err)
			continue
		}
		mergedJSON, _ := json.Marshal(merged)
		once, err := strategicpatch.StrategicMergePatch([]byte(doc), mergedJSON, widget{})
		sameJSON(t, fmt.Sprintf("sequence %d: merged %s", i, mergedJSON), string(sequential), string(once), err)
		for j := range patches {
			if b, _ := json.Marshal(patches[j]); string(b) != before[j] {
				t.Errorf("sequence %d: patch %d changed: %s", i, j, b)
			}
		}
	}
}

// mergeMisplaces reports whether, on one of docs, Kubernetes' merged
// patch gives another result than the patches applied in order.
func mergeMisplaces(t *testing.T, patches []string, docs ...string) bool {
	t.Helper()
	for _, doc := range docs {
		inOrder := []byte(doc)
		for _, p := range patches {
			inOrder, _ = k8s.StrategicMergePatch(inOrder, []byte(p), widget{})
		}
		merged, err := k8s.MergeStrategicMergeMapPatchUsingLookupPatchMeta(k8s.PatchMetaFromStruct{T: reflect.TypeOf(widget{})}, copyMaps(t, patches)...)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(merged)
		once, _ := k8s.StrategicMergePatch([]byte(doc), data, widget{})
		var a, b interface{}
		if json.Unmarshal(once, &a) != nil || json.Unmarshal(inOrder, &b) != nil || !reflect.DeepEqual(a, b) {
			return true
		}
	}
	return false
}

// copyMaps decodes each patch afresh (Kubernetes' merge may change its
// arguments).
func copyMaps(t *testing.T, patches []string) []k8s.JSONMap {
	t.Helper()
	out := make([]k8s.JSONMap, len(patches))
	for i, p := range patches {
		if err := json.Unmarshal([]byte(p), &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestMapFunctions: the map functions give Kubernetes' results, change
// neither argument, and return ErrBadArgKind as Kubernetes does.
func TestMapFunctions(t *testing.T) {
	original := map[string]interface{}{"name": "w", "parts": []interface{}{map[string]interface{}{"name": "a"}}, "ports": []interface{}{int64(80)}}
	modified := map[string]interface{}{"name": "w", "parts": []interface{}{map[string]interface{}{"name": "b"}}, "ports": []interface{}{int64(80), int64(81)}}
	origJSON, _ := json.Marshal(original)
	want, err := k8s.CreateTwoWayMergeMapPatch(original, modified, widget{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := strategicpatch.CreateTwoWayMergeMapPatch(original, modified, widget{})
	if err != nil || !reflect.DeepEqual(map[string]interface{}(got), map[string]interface{}(want)) {
		t.Errorf("CreateTwoWayMergeMapPatch: got %v, %v; want %v", got, err, want)
	}
	wantRes, _ := json.Marshal(modified)
	res, err := strategicpatch.StrategicMergeMapPatch(original, strategicpatch.JSONMap(got), &widget{})
	resJSON, _ := json.Marshal(res)
	sameJSON(t, "StrategicMergeMapPatch", string(wantRes), string(resJSON), err)
	if after, _ := json.Marshal(original); string(after) != string(origJSON) {
		t.Errorf("the original changed: %s", after)
	}
	if _, ok := res["ports"].([]interface{})[1].(int64); !ok {
		t.Errorf("an integer in the result is %T, want int64 as Kubernetes decodes it", res["ports"].([]interface{})[1])
	}
	conflict, err := strategicpatch.MergingMapsHaveConflicts(map[string]interface{}{"name": "a"}, map[string]interface{}{"name": "b"}, strategicpatch.PatchMetaFromStruct{T: reflect.TypeOf(widget{})})
	if err != nil || !conflict {
		t.Errorf("MergingMapsHaveConflicts on two names: %v, %v", conflict, err)
	}
	_, err = strategicpatch.StrategicMergeMapPatch(original, modified, nil)
	if err == nil || err.Error() != mergepatch.ErrBadArgKind(struct{}{}, nil).Error() {
		t.Errorf("nil data struct: %v", err)
	}
}
