package bench

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// TestDifferentialDirectives adds to Kubernetes' own patches the
// directives its differ never writes ($patch: replace on objects and
// lists, $patch: delete on objects), at depth, and checks both engines
// agree on the result. Empty objects are dropped before comparing:
// Kubernetes leaves {} where $patch: delete removed an object
// (docs/compat.md, "delete directive on a map").
func TestDifferentialDirectives(t *testing.T) {
	checkN(t, 500, func(t *rapid.T) {
		o := genDeployment(t, "original")
		m := genDeployment(t, "modified")
		ob, mb := mustJSON(t, o), mustJSON(t, m)
		schema := &appsv1.Deployment{}
		kp, err := k8s.CreateTwoWayMergePatch(ob, mb, schema)
		if err != nil {
			t.Fatal(err)
		}
		patch := decode(t, kp).(map[string]any)
		od, md := decode(t, ob).(map[string]any), decode(t, mb).(map[string]any)
		spec := child(patch, "spec")
		tmpl := child(child(spec, "template"), "spec")
		mspec := md["spec"].(map[string]any)
		mtmpl := mspec["template"].(map[string]any)["spec"].(map[string]any)
		switch rapid.IntRange(0, 4).Draw(t, "directive") {
		case 0: // replace an object at depth
			spec["strategy"] = withDirective(mspec["strategy"], "replace")
		case 1: // replace the whole template spec
			child(spec, "template")["spec"] = withDirective(mtmpl, "replace")
		case 2: // replace a merge list
			if cs, ok := mtmpl["containers"].([]any); ok {
				tmpl["containers"] = append(append([]any{}, cs...), map[string]any{"$patch": "replace"})
				delete(tmpl, "$setElementOrder/containers")
			}
		case 3: // delete an object at depth
			child(spec, "strategy")["rollingUpdate"] = map[string]any{"$patch": "delete"}
		case 4: // delete the metadata labels map
			child(patch, "metadata")["labels"] = map[string]any{"$patch": "delete"}
		}
		pb := mustJSON(t, patch)
		kr, kerr := k8s.StrategicMergePatch(ob, pb, schema)
		or, oerr := smp.ApplyJSON(ob, pb, schema)
		if (kerr == nil) != (oerr == nil) {
			t.Fatalf("errors differ: k8s %v, ours %v\npatch %s", kerr, oerr, pb)
		}
		if kerr != nil {
			return
		}
		if d := cmp.Diff(dropEmpty(decode(t, dropNulls(t, kr))), dropEmpty(decode(t, dropNulls(t, or)))); d != "" {
			t.Fatalf("results differ (-k8s +ours):\n%s\npatch: %s\noriginal: %v", d, pb, od)
		}
	})
}

// child returns m[k] as an object, creating it.
func child(m map[string]any, k string) map[string]any {
	c, ok := m[k].(map[string]any)
	if !ok {
		c = map[string]any{}
		m[k] = c
	}
	return c
}

func withDirective(v any, d string) map[string]any {
	out := map[string]any{"$patch": d}
	if m, ok := v.(map[string]any); ok {
		for k, e := range m {
			out[k] = e
		}
	}
	return out
}

// dropEmpty removes empty objects, recursively.
func dropEmpty(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			e = dropEmpty(e)
			if m, ok := e.(map[string]any); ok && len(m) == 0 {
				delete(v, k)
				continue
			}
			v[k] = e
		}
	case []any:
		for i, e := range v {
			v[i] = dropEmpty(e)
		}
	}
	return v
}
