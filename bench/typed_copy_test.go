package bench

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	rs "github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// TestTypedCopyIsJSONRoundTrip: Apply of an empty patch copies a whole
// object, resource.Quantity values included (they go through their
// marshaller, remembered by content across calls), and the copy is what
// encoding/json's round trip gives, Go value for Go value. Random objects
// of kinds that hold quantities, and quantities written in non-canonical
// forms, which the round trip rewrites; then all of it again at once.
func TestTypedCopyIsJSONRoundTrip(t *testing.T) {
	var checks []func() error
	for seed := range uint64(40) {
		g := &kindGen{r: rand.New(rand.NewPCG(seed, 7)), maxDepth: 10, budget: genBudget}
		checks = append(checks,
			copyCheck(t, genKind[corev1.Pod](t, g)),
			copyCheck(t, genKind[appsv1.StatefulSet](t, g)),
			copyCheck(t, genKind[autoscalingv2.HorizontalPodAutoscaler](t, g)),
			copyCheck(t, genKind[corev1.ResourceQuota](t, g)),
			copyCheck(t, genKind[corev1.LimitRange](t, g)))
	}
	// Each quantity twice, in two forms that round-trip to one text.
	forms := []string{"0.5", "500m", "1000m", "1", "1024Mi", "1Gi", "0.25Gi", "256Mi", "1e3", "1k", "+2", "2"}
	for i := range 3 {
		q := corev1.ResourceQuota{}
		q.Spec.Hard = corev1.ResourceList{}
		for j, f := range forms {
			q.Spec.Hard[corev1.ResourceName(forms[(j+i)%len(forms)])] = resource.MustParse(f)
		}
		checks = append(checks, copyCheck(t, &q))
	}
	for _, check := range checks {
		if err := check(); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(checks))
	for i, check := range checks {
		wg.Go(func() { errs[i] = check() })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrently: %v", err)
		}
	}
}

// genKind makes a random *T with g.
func genKind[T any](t *testing.T, g *kindGen) *T {
	t.Helper()
	st, err := rs.Of(reflect.TypeFor[T]())
	if err != nil {
		t.Fatal(err)
	}
	g.budget = genBudget
	return g.value(reflect.TypeFor[T](), st, rs.PatchMeta{}, 0).Addr().Interface().(*T)
}

// copyCheck returns a check that Apply(v, empty patch) is v's JSON round
// trip, as Go values.
func copyCheck[T any](t *testing.T, v *T) func() error {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := new(T)
	if err := json.Unmarshal(b, want); err != nil {
		t.Fatal(err)
	}
	return func() error {
		got, err := smp.Apply(v, smp.Patch{})
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			return &copyMismatch{typ: reflect.TypeFor[T](), got: g, want: b}
		}
		return nil
	}
}

type copyMismatch struct {
	typ       reflect.Type
	got, want []byte
}

func (e *copyMismatch) Error() string {
	return "copy of " + e.typ.String() + " is not its JSON round trip:\ngot  " + string(e.got) + "\nwant " + string(e.want)
}
