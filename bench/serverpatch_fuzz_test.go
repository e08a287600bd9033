package bench

import (
	"bytes"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/typedpatch/typedpatch/smp"
)

// On any live document and strategic merge patch that ApplyJSON accepts,
// the JSON patch applied by evanphx/json-patch gives ApplyJSON's result
// exactly, and the merge patch gives it up to null members; where
// ApplyJSON fails, both fail with its kind of error.
func FuzzServerPatches(f *testing.F) {
	for _, s := range [][2]string{
		{`{"metadata":{"resourceVersion":"1","labels":{"a/b":"1","c~d":"2"}},"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x","ports":[{"containerPort":53,"protocol":"TCP"},{"containerPort":53,"protocol":"UDP"}]},{"name":"b"}]}}}}`,
			`{"metadata":{"labels":{"a/b":null,"e/~f":"3"}},"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"y","ports":[{"$patch":"delete","containerPort":53,"protocol":"UDP"}]}]}}}}`},
		{`{"spec":{"containers":[{"name":"a","args":["1","2"],"env":[{"name":"X","value":"1"}]}],"finalizers":["a","b"]}}`,
			`{"spec":{"containers":[{"name":"c"},{"name":"a","args":["2"],"env":[{"name":"X","value":null}]}]}}`},
		{`{"metadata":{"finalizers":["a","b","c"]}}`, `{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"finalizers":["d"]}}`},
		{`{"spec":{"volumes":[{"name":"v","emptyDir":{}}]}}`, `{"spec":{"volumes":[{"name":"v","$retainKeys":["name","hostPath"],"hostPath":{"path":"/x"}}]}}`},
	} {
		f.Add(uint8(0), []byte(s[0]), []byte(s[1]))
		f.Add(uint8(1), []byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, which uint8, live, patch []byte) {
		schemas := [...]any{&corev1.Pod{}, &appsv1.Deployment{}}
		schema := schemas[int(which)%len(schemas)]
		want, werr := smp.ApplyJSON(live, patch, schema)
		mp, merr := smp.MergePatchJSON(live, patch, schema, smp.WithResourceVersionCheck(false))
		jp, jerr := smp.JSONPatchJSON(live, patch, schema, smp.WithResourceVersionCheck(false))
		if werr != nil {
			if smp.KindOf(merr) != smp.KindOf(werr) || smp.KindOf(jerr) != smp.KindOf(werr) {
				t.Fatalf("ApplyJSON: %v; merge patch: %v; JSON patch: %v", werr, merr, jerr)
			}
			return
		}
		if merr != nil || jerr != nil {
			t.Fatalf("merge patch: %v; JSON patch: %v", merr, jerr)
		}
		if t := bytes.TrimSpace(live); len(t) == 0 || string(t) == "null" {
			live = []byte("{}") // what ApplyJSON takes them for
		}
		got, err := applyJSONPatch(live, jp)
		if err != nil {
			t.Fatalf("evanphx applies %s: %v", jp, err)
		}
		if d := jsonDiff(want, got); d != "" {
			t.Fatalf("JSON patch %s:\n%s", jp, d)
		}
		got, err = jsonPatchMerge(live, mp)
		if err != nil {
			t.Fatalf("evanphx merges %s: %v", mp, err)
		}
		if d := jsonDiff(dropNullMembers(t, want), dropNullMembers(t, got)); d != "" {
			t.Fatalf("merge patch %s:\n%s", mp, d)
		}
	})
}
