package bench

import (
	"encoding/json"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/typedpatch/typedpatch/smp"
)

// plainDeployment and plainPod are Kubernetes' types without their
// DeepCopyInto: Apply copies them through its own copier.
type (
	plainDeployment appsv1.Deployment
	plainPod        corev1.Pod
)

// FuzzApplyDeepCopyInto applies a fuzzed patch to a fuzzed Deployment or
// Pod (picked by a byte) twice: through the type's DeepCopyInto and the
// fix-up of its copy, and through Apply's own copier (the same type
// without DeepCopyInto). Both must fail, or give equal values, and
// neither may change the value applied to.
func FuzzApplyDeepCopyInto(f *testing.F) {
	for _, n := range []int{1, 3} {
		c := newDeploymentCase(f, n)
		cur := marshal(f, c.current)
		f.Add(uint8(0), cur, c.twoWay)
		f.Add(uint8(0), cur, c.threeWay)
		f.Add(uint8(1), marshal(f, corev1.Pod{ObjectMeta: c.current.Spec.Template.ObjectMeta, Spec: c.current.Spec.Template.Spec}),
			[]byte(`{"spec":{"containers":[{"name":"app-0","resources":{"limits":{"cpu":"2"}}}]}}`))
	}
	f.Add(uint8(0), []byte(`{"metadata":{"creationTimestamp":"2025-01-02T03:04:05Z","labels":{"a":"\xff"}},"status":{"conditions":[{"type":"A","lastUpdateTime":"2024-02-29T00:00:00Z"}]}}`),
		[]byte(`{"metadata":{"labels":{"b":"c"}}}`))
	f.Add(uint8(0), []byte(`{"metadata":{"labels":{},"finalizers":[]},"spec":{"template":{"spec":{"containers":[{"name":"a","args":[],"env":[],"resources":{"limits":{}}}],"nodeSelector":{}}}}}`),
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"}]}}}}`))
	f.Fuzz(func(t *testing.T, which uint8, doc, patch []byte) {
		p, err := smp.ParsePatch(patch)
		if err != nil {
			return
		}
		if which%2 == 0 {
			checkDeepCopyApply[appsv1.Deployment, plainDeployment](t, doc, p)
		} else {
			checkDeepCopyApply[corev1.Pod, plainPod](t, doc, p)
		}
	})
}

// checkDeepCopyApply decodes doc into a T (leniently) and checks Apply of
// p on it against Apply on the same value as a P, T without DeepCopyInto.
func checkDeepCopyApply[T, P any](t *testing.T, doc []byte, p smp.Patch) {
	cur := new(T)
	if json.Unmarshal(doc, cur) != nil {
		return
	}
	before := marshal(t, cur)
	got, err := smp.Apply(cur, p)
	want, werr := smp.Apply((*P)(reflect.ValueOf(cur).UnsafePointer()), p)
	if (err == nil) != (werr == nil) {
		t.Fatalf("Apply through DeepCopyInto: error %v; through the copier: %v\ndoc: %s\npatch: %s", err, werr, doc, p)
	}
	if err == nil && !reflect.DeepEqual(got, (*T)(reflect.ValueOf(want).UnsafePointer())) {
		t.Fatalf("Apply through DeepCopyInto:\n%s\nthrough the copier:\n%s\ndoc: %s\npatch: %s", marshal(t, got), marshal(t, want), doc, p)
	}
	if after := marshal(t, cur); string(after) != string(before) {
		t.Fatalf("Apply changed the value applied to:\n%s\nwas\n%s", after, before)
	}
}
