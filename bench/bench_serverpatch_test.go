package bench

import (
	"strconv"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	appsv1 "k8s.io/api/apps/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/smp"
)

// BenchmarkServerPatches measures the merge patch and the JSON patch that
// turn a live Deployment into a two-way patch's result (ours), against
// what a program without this engine does for the merge patch: apply the
// strategic merge patch with Kubernetes' library, then diff with
// evanphx/json-patch's CreateMergePatch (k8s+rfc7386).
func BenchmarkServerPatches(b *testing.B) {
	for _, n := range deploymentContainerCounts {
		c := newDeploymentCase(b, n)
		schema := &appsv1.Deployment{}
		prefix := "containers=" + strconv.Itoa(n)
		b.Run(prefix+"/merge/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.MergePatchJSON(c.cb, c.twoWay, schema) })
		})
		b.Run(prefix+"/merge/k8s+rfc7386", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) {
				res, err := k8s.StrategicMergePatch(c.cb, c.twoWay, schema)
				if err != nil {
					return nil, err
				}
				return jsonpatch.CreateMergePatch(c.cb, res)
			})
		})
		b.Run(prefix+"/jsonpatch/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.JSONPatchJSON(c.cb, c.twoWay, schema) })
		})
	}
}
