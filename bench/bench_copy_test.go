package bench

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/typedpatch/typedpatch/smp"
)

// BenchmarkCopy measures what typed Apply spends on the parts of the live
// object a patch does not touch: Apply of an empty patch, which copies
// the whole live Deployment, beside its floor, the generated DeepCopy.
// The copy must be what a JSON round trip gives, checked before timing.
func BenchmarkCopy(b *testing.B) {
	for _, n := range deploymentContainerCounts {
		live := benchDeploymentCurrent(n)
		want := &appsv1.Deployment{}
		if err := json.Unmarshal(marshal(b, live), want); err != nil {
			b.Fatal(err)
		}
		if got := must[*appsv1.Deployment](b)(smp.Apply(live, smp.Patch{})); !reflect.DeepEqual(got, want) {
			b.Fatalf("Apply of an empty patch is not the JSON round trip:\n%s\n%s", marshal(b, got), marshal(b, want))
		}
		prefix := "containers=" + strconv.Itoa(n)
		b.Run(prefix+"/ours", func(b *testing.B) {
			benchLoop(b, func() error {
				_, err := smp.Apply(live, smp.Patch{})
				return err
			})
		})
		b.Run(prefix+"/deepcopy", func(b *testing.B) {
			benchLoop(b, func() error {
				_ = live.DeepCopy()
				return nil
			})
		})
	}
}
