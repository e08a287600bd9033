package bench

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	networkingv1 "k8s.io/api/networking/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/smp"
)

// Inputs TestDifferentialBuiltin found, kept as tests of their own.

// Kubernetes' conflict check sorts a replaced list of scalars inside its
// own three-way patch (docs/compat.md, "Kubernetes' conflict check can
// panic"); this engine's patch holds the modified list as it is.
func TestCompatConflictCheckReordersPatch(t *testing.T) {
	original := []byte(`{}`)
	modified := []byte(`{"spec":{"tls":[{},{"hosts":["b","a","a"]},{},{"secretName":"a"}]}}`)
	current := []byte(`{"spec":{"tls":[{},{"hosts":["b","a","a"]},{},{}]}}`)
	meta, err := k8s.NewPatchMetaFromStruct(&networkingv1.Ingress{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[bool]string{
		false: `{"spec":{"tls":[{},{"hosts":["a","b","a"]},{},{"secretName":"a"}]}}`,
		true:  `{"spec":{"tls":[{},{"hosts":["b","a","a"]},{},{"secretName":"a"}]}}`,
	}
	bundled, err := builtin.Lookup("networking.k8s.io/v1", "Ingress")
	if err != nil {
		t.Fatal(err)
	}
	for _, overwrite := range []bool{false, true} {
		kp, kerr := k8s.CreateThreeWayMergePatch(original, modified, current, meta, overwrite)
		op, oerr := smp.ThreeWayJSON(original, modified, current, bundled, smp.WithOverwrite(overwrite))
		if kerr != nil || oerr != nil || string(kp) != want[overwrite] || string(op) != want[true] {
			t.Errorf("overwrite %v: k8s %s %v, want %s; ours %s %v, want %s", overwrite, kp, kerr, want[overwrite], op, oerr, want[true])
		}
	}
}

// A replaced list whose elements hold empty objects and nulls is written
// whole in a three-way patch, as Kubernetes writes it (found by
// TestDifferentialBuiltin: the engine once dropped the empty element).
func TestThreeWayReplacedListWithNulls(t *testing.T) {
	bundled, err := builtin.Lookup("apps/v1", "StatefulSet")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := k8s.NewPatchMetaFromStruct(&appsv1.StatefulSet{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{
		{`{"spec":{"volumeClaimTemplates":[{"spec":{}}]}}`, `{"spec":{"volumeClaimTemplates":[{"spec":{}},{"kind":null}]}}`},
		{`{"spec":{"volumeClaimTemplates":[{"metadata":{}},{"kind":"a"}]}}`, `{"spec":{"volumeClaimTemplates":[{"metadata":{},"status":{"phase":null}},{"spec":{}}]}}`},
		{`{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1}]}]}}}}`, `{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1}],"resizePolicy":[{"resourceName":"cpu","restartPolicy":null},{}]}]}}}}`},
	} {
		o, m := []byte(c[0]), []byte(c[1])
		for _, overwrite := range []bool{false, true} {
			kp, kerr := k8s.CreateThreeWayMergePatch(o, m, o, meta, overwrite)
			op, oerr := smp.ThreeWayJSON(o, m, o, bundled, smp.WithOverwrite(overwrite))
			if kerr != nil || oerr != nil {
				t.Fatalf("%s: k8s %v, ours %v", c[1], kerr, oerr)
			}
			kv, _ := decodeJSON(kp)
			ov, _ := decodeJSON(op)
			if !cmp.Equal(kv, ov) {
				t.Errorf("%s overwrite %v:\nk8s:  %s\nours: %s", c[1], overwrite, kp, op)
			}
		}
	}
}
