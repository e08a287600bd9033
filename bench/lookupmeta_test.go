package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/smp"
)

// TestUpstreamPatchMetaIsRejected: Kubernetes' PatchMetaFromStruct kept
// after swapping the import to smp must be an error, not a patch built
// from the lookup's own fields (issue #15: it replaced the containers
// list, so a container removed from the configuration stayed).
func TestUpstreamPatchMetaIsRejected(t *testing.T) {
	meta, err := k8s.NewPatchMetaFromStruct(&appsv1.Deployment{})
	require.NoError(t, err)
	original := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}}}`)
	modified := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a"}]}}}}`)
	for _, ds := range []any{meta, &meta} {
		_, err := smp.DiffJSON(original, modified, ds)
		assert.Equal(t, smp.ErrSchema, smp.KindOf(err), "%T: %v", ds, err)
		_, err = smp.ThreeWayJSON(original, modified, original, ds, smp.WithOverwrite(true))
		assert.Equal(t, smp.ErrSchema, smp.KindOf(err), "%T: %v", ds, err)
		_, err = smp.ApplyJSON(original, []byte(`{}`), ds)
		assert.Equal(t, smp.ErrSchema, smp.KindOf(err), "%T: %v", ds, err)
		_, err = smp.PatchesConflict(map[string]any{}, map[string]any{}, ds)
		assert.Equal(t, smp.ErrSchema, smp.KindOf(err), "%T: %v", ds, err)
	}
}
