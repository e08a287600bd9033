package bench

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// TestTypedOnKubernetesTypes runs the typed API on k8s.io/api Deployments:
// its patch equals the JSON path's, and applying it gives what Kubernetes'
// StrategicMergePatch plus a decode gives, which is the modified object.
func TestTypedOnKubernetesTypes(t *testing.T) {
	checkN(t, 300, func(t *rapid.T) {
		o := genDeployment(t, "original")
		m := genDeployment(t, "modified")
		c := genDeployment(t, "current")
		ob, mb, cb := mustJSON(t, o), mustJSON(t, m), mustJSON(t, c)

		patch, err := smp.Diff(o, m)
		if err != nil {
			t.Fatal(err)
		}
		pb, err := json.Marshal(patch)
		if err != nil {
			t.Fatal(err)
		}
		jp, err := smp.DiffJSON(ob, mb, &appsv1.Deployment{})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(decode(t, jp), decode(t, pb)); d != "" {
			t.Fatalf("typed Diff differs from the JSON path (-json +typed):\n%s", d)
		}
		got, err := smp.Apply(o, patch)
		if err != nil {
			t.Fatal(err)
		}
		kr, err := k8s.StrategicMergePatch(ob, pb, &appsv1.Deployment{})
		if err != nil {
			t.Fatal(err)
		}
		want := &appsv1.Deployment{}
		if err := json.Unmarshal(kr, want); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("typed Apply differs from Kubernetes' apply and decode (-k8s +typed):\n%s", d)
		}
		// m may hold empty maps and slices its JSON leaves out: compare as JSON.
		if d := cmp.Diff(decode(t, mb), decode(t, mustJSON(t, got))); d != "" {
			t.Fatalf("typed Apply(o, Diff(o, m)) is not m (-m +got):\n%s", d)
		}

		for _, overwrite := range []bool{false, true} {
			tp, terr := smp.ThreeWay(o, m, c, smp.WithOverwrite(overwrite))
			jp, jerr := smp.ThreeWayJSON(ob, mb, cb, &appsv1.Deployment{}, smp.WithOverwrite(overwrite))
			if (terr == nil) != (jerr == nil) || smp.IsConflict(terr) != smp.IsConflict(jerr) {
				t.Fatalf("three-way errors differ: typed %v, JSON %v", terr, jerr)
			}
			if terr == nil {
				if d := cmp.Diff(decode(t, jp), decode(t, mustJSON(t, tp))); d != "" {
					t.Fatalf("typed ThreeWay differs from the JSON path (-json +typed):\n%s", d)
				}
			}
		}
	})
}
