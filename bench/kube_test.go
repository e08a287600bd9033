package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	kube "github.com/typedpatch/typedpatch/kube/strategicpatch"
)

// TestKubeModuleSwapsIn checks that the kube module and Kubernetes, called
// alike, give one result on a Deployment: the least a drop-in must do.
func TestKubeModuleSwapsIn(t *testing.T) {
	original := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"}]}}}}`)
	modified := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"2"}]}}}}`)
	want, err := k8s.CreateTwoWayMergePatch(original, modified, appsv1.Deployment{})
	require.NoError(t, err)
	got, err := kube.CreateTwoWayMergePatch(original, modified, appsv1.Deployment{})
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
	wantApplied, err := k8s.StrategicMergePatch(original, want, appsv1.Deployment{})
	require.NoError(t, err)
	gotApplied, err := kube.StrategicMergePatch(original, got, appsv1.Deployment{})
	require.NoError(t, err)
	assert.JSONEq(t, string(wantApplied), string(gotApplied))
	assert.JSONEq(t, string(modified), string(gotApplied))
}
