package bench

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// helmCreatePatch reproduces the strategic branch of Helm's createPatch
// (helm/helm pkg/kube/client.go, createPatch; v3 and v4 make the same two
// calls): oldData, newData and currentData are the JSON of the previous
// release's object, of the new chart's and of the live one. Helm takes the
// patch meta from the typed, versioned target (AsVersioned, here a decode
// into the empty object newObj returns) and makes a three-way patch that
// overwrites: strategicpatch.NewPatchMetaFromStruct(versionedObject), then
// strategicpatch.CreateThreeWayMergePatch(oldData, newData, currentData,
// patchMeta, true). Objects with no Go type take Helm's JSON merge patch
// branch, which uses neither package and is not reproduced.
func helmCreatePatch(e consumerEngine, newObj func() runtime.Object, oldData, newData, currentData []byte) ([]byte, error) {
	versionedObject := newObj()
	if err := json.Unmarshal(newData, versionedObject); err != nil {
		return nil, err
	}
	return e.threeWay(oldData, newData, currentData, versionedObject, true)
}

// helmServerApply reproduces what kube-apiserver does with the patch Helm
// sends (kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
// patch.go, strategicPatchObject and applyPatchToObject): the live typed
// object goes through runtime.DefaultUnstructuredConverter.ToUnstructured,
// the patch is decoded keeping integers (UnmarshalCaseSensitivePreserveInts,
// what k8s.io/apimachinery/pkg/util/json.Unmarshal calls), and
// strategicpatch.StrategicMergeMapPatch(originalMap, patchMap,
// schemaReferenceObj) merges them, the reference being an empty versioned
// object. It returns the merged map as JSON and the object stored from it.
func helmServerApply(e consumerEngine, newObj func() runtime.Object, currentData, patch []byte) (merged, stored []byte, err error) {
	live := newObj()
	if err := json.Unmarshal(currentData, live); err != nil {
		return nil, nil, err
	}
	originalMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(live)
	if err != nil {
		return nil, nil, err
	}
	patchMap := map[string]interface{}{}
	if err := utiljson.Unmarshal(patch, &patchMap); err != nil {
		return nil, nil, err
	}
	patched, err := e.applyMap(originalMap, patchMap, newObj())
	if err != nil {
		return nil, nil, err
	}
	if merged, err = json.Marshal(patched); err != nil {
		return nil, nil, err
	}
	objToUpdate := newObj()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(patched, objToUpdate); err != nil {
		return nil, nil, err
	}
	stored, err = json.Marshal(objToUpdate)
	return merged, stored, err
}

// helmScenario is one resource of a `helm upgrade`: the previous release's
// manifest, the new chart's and the object the server holds.
type helmScenario struct {
	name                  string
	newObj                func() runtime.Object
	previous, chart, live string
	// check asserts what the upgrade must leave on the server (or, when
	// live is "null", what the patch must create).
	check func(t *testing.T, stored []byte)
}

func newDeployment() runtime.Object { return &appsv1.Deployment{} }
func newService() runtime.Object    { return &corev1.Service{} }
func newConfigMap() runtime.Object  { return &corev1.ConfigMap{} }

// TestHelmCreatePatch runs Helm's createPatch and the server's application
// of its patch with Kubernetes' package and with the kube module on
// upgrades Helm users make, and asserts one patch, one stored object, and
// the object the upgrade is meant to leave.
func TestHelmCreatePatch(t *testing.T) {
	for _, sc := range helmScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			oldData, newData := consumerYAML(t, sc.previous), consumerYAML(t, sc.chart)
			currentData := []byte("null") // json.Marshal of the nil object Helm gets for a NotFound
			if sc.live != "null" {
				currentData = consumerYAML(t, sc.live)
			}
			want, wantErr := helmCreatePatch(consumerK8s, sc.newObj, oldData, newData, currentData)
			got, gotErr := helmCreatePatch(consumerKube, sc.newObj, oldData, newData, currentData)
			if !consumerSameErr(t, "createPatch", wantErr, gotErr) {
				return
			}
			assert.JSONEq(t, string(want), string(got), "createPatch")
			t.Logf("patch: %s", got)
			if sc.live == "null" {
				// The object is gone: the server answers NotFound, so only the
				// patch matters, and from nothing it must build the chart's object.
				for _, e := range []consumerEngine{consumerK8s, consumerKube} {
					created, err := e.apply([]byte(`{}`), got, sc.newObj())
					require.NoError(t, err, e.name)
					sc.check(t, created)
				}
				return
			}
			wantMerged, wantStored, wantErr := helmServerApply(consumerK8s, sc.newObj, currentData, want)
			gotMerged, gotStored, gotErr := helmServerApply(consumerKube, sc.newObj, currentData, got)
			if !consumerSameErr(t, "server apply", wantErr, gotErr) {
				return
			}
			assert.JSONEq(t, string(wantMerged), string(gotMerged), "merged object")
			assert.JSONEq(t, string(wantStored), string(gotStored), "stored object")
			t.Run("kubernetes", func(t *testing.T) { sc.check(t, wantStored) })
			t.Run("kube module", func(t *testing.T) { sc.check(t, gotStored) })
		})
	}
}
