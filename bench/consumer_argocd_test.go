package bench

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/runtime"
)

// Argo CD decides whether an application is out of sync with gitops-engine's
// diff (argoproj/gitops-engine pkg/diff/diff.go, now also
// argoproj/argo-cd gitops-engine/pkg/diff/diff.go). For a kind with a Go
// type and no server-side diff, Diff takes the last-applied configuration
// from the live object and calls ThreeWayDiff(orig, config, live), or
// TwoWayDiff(config, live), which is ThreeWayDiff(config, config, live).
// These functions reproduce the strategicpatch calls on that path, in order;
// remarshal and Normalize, which run before and use neither package, are
// left out. (Argo CD's own util/argo/normalizers, the ignore-differences and
// known-types normalizers, use JSON patch, jq and typed re-marshalling, not
// strategicpatch.)

// argoDiffResult is gitops-engine's DiffResult with the patch it came from.
type argoDiffResult struct {
	patch          []byte
	normalizedLive []byte
	predictedLive  []byte
	modified       bool
}

// argoDiff is diff.Diff's choice: a three-way diff against the
// last-applied-configuration annotation if live has one, falling back to
// the two-way diff if that fails or there is none.
func argoDiff(e consumerEngine, newObj func() runtime.Object, config, live []byte) (*argoDiffResult, error) {
	var liveObj struct {
		Metadata struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(live, &liveObj); err != nil {
		return nil, err
	}
	if orig, ok := liveObj.Metadata.Annotations[argoLastApplied]; ok {
		if dr, err := argoThreeWayDiff(e, newObj, []byte(orig), config, live); err == nil {
			return dr, nil
		}
	}
	return argoThreeWayDiff(e, newObj, config, config, live)
}

const argoLastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// argoThreeWayDiff is ThreeWayDiff: removeNamespaceAnnotation on orig and
// config, threeWayMergePatch (strategicpatch.NewPatchMetaFromStruct on
// scheme.Scheme.New(gvk), an empty versioned object, then
// strategicpatch.CreateThreeWayMergePatch(origBytes, configBytes,
// liveBytes, lookupPatchMeta, true)), then applyPatch on live, and
// Modified when the predicted live bytes differ from the normalized live.
func argoThreeWayDiff(e consumerEngine, newObj func() runtime.Object, orig, config, live []byte) (*argoDiffResult, error) {
	orig, err := argoRemoveNamespaceAnnotation(orig)
	if err != nil {
		return nil, err
	}
	if config, err = argoRemoveNamespaceAnnotation(config); err != nil {
		return nil, err
	}
	patch, err := e.threeWay(orig, config, live, newObj(), true)
	if err != nil {
		return nil, err
	}
	liveBytes, predictedLiveBytes, err := argoApplyPatch(e, live, patch, newObj)
	if err != nil {
		return nil, err
	}
	return &argoDiffResult{patch, liveBytes, predictedLiveBytes, string(predictedLiveBytes) != string(liveBytes)}, nil
}

// argoApplyPatch is applyPatch: strategicpatch.StrategicMergePatch(liveBytes,
// patchBytes, predictedLive) with an empty versioned object, then, on both
// the prediction and live, the scheme defaults applied as a two-way patch
// (argoDefaults) and a re-encoding that sorts the keys.
func argoApplyPatch(e consumerEngine, liveBytes, patchBytes []byte, newObj func() runtime.Object) ([]byte, []byte, error) {
	predictedLive := newObj()
	predictedLiveBytes, err := e.apply(liveBytes, patchBytes, predictedLive)
	if err != nil {
		return nil, nil, err
	}
	if err = json.Unmarshal(predictedLiveBytes, &predictedLive); err == nil {
		if predictedLiveBytes, err = argoDefaults(e, predictedLiveBytes, predictedLive); err != nil {
			return nil, nil, err
		}
	}
	live := newObj()
	if err = json.Unmarshal(liveBytes, live); err == nil {
		if liveBytes, err = argoDefaults(e, liveBytes, live); err != nil {
			return nil, nil, err
		}
	}
	return liveBytes, predictedLiveBytes, nil
}

// argoDefaults is generateSchemeDefaultPatch and its application:
// defaults set on a copy of the decoded object, the two-way patch from the
// object to the copy (strategicpatch.CreateTwoWayMergePatch(origBytes,
// newBytes, kubeObj.DeepCopyObject()), a populated object as data struct),
// applied to the undecoded bytes with
// strategicpatch.StrategicMergePatch(data, patch, obj.DeepCopyObject()),
// then decoded to a map and encoded again.
func argoDefaults(e consumerEngine, data []byte, obj runtime.Object) ([]byte, error) {
	patched := obj.DeepCopyObject()
	consumerDefault(patched)
	origBytes, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	newBytes, err := json.Marshal(patched)
	if err != nil {
		return nil, err
	}
	patch, err := e.twoWay(origBytes, newBytes, obj.DeepCopyObject())
	if err != nil {
		return nil, err
	}
	if data, err = e.apply(data, patch, obj.DeepCopyObject()); err != nil {
		return nil, err
	}
	var result map[string]interface{}
	if err := json.Unmarshal(data, &result); err != nil {
		return nil, err
	}
	return json.Marshal(result)
}

// argoRemoveNamespaceAnnotation is removeNamespaceAnnotation on JSON: it
// drops metadata.namespace and a null or empty metadata.annotations.
func argoRemoveNamespaceAnnotation(doc []byte) ([]byte, error) {
	var obj map[string]interface{}
	if err := json.Unmarshal(doc, &obj); err != nil {
		return nil, err
	}
	if md, ok := obj["metadata"].(map[string]interface{}); ok {
		delete(md, "namespace")
		if a, ok := md["annotations"]; ok {
			if m, isMap := a.(map[string]interface{}); a == nil || isMap && len(m) == 0 {
				delete(md, "annotations")
			}
		}
	}
	return json.Marshal(obj)
}

// argoScenario is one resource of an Argo CD application: the manifest
// from git and the live object, which carries the last-applied
// configuration when lastApplied is set (a kubectl apply or an Argo CD
// client-side sync).
type argoScenario struct {
	name                      string
	newObj                    func() runtime.Object
	lastApplied, config, live string
	check                     func(t *testing.T, dr *argoDiffResult)
}

// TestArgoCDDiff runs gitops-engine's diff with Kubernetes' package and
// with the kube module on application states Argo CD users meet, and
// asserts one patch, one normalized live, one predicted live, one verdict,
// and the verdict and prediction the scenario calls for.
func TestArgoCDDiff(t *testing.T) {
	for _, sc := range argoScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			config, live := consumerYAML(t, sc.config), consumerYAML(t, sc.live)
			if sc.lastApplied != "" {
				live = argoWithLastApplied(t, live, consumerYAML(t, sc.lastApplied))
			}
			want, wantErr := argoDiff(consumerK8s, sc.newObj, config, live)
			got, gotErr := argoDiff(consumerKube, sc.newObj, config, live)
			if !consumerSameErr(t, "diff", wantErr, gotErr) {
				return
			}
			t.Logf("patch: %s", got.patch)
			assert.JSONEq(t, string(want.patch), string(got.patch), "three-way patch")
			assert.JSONEq(t, string(want.normalizedLive), string(got.normalizedLive), "normalized live")
			assert.JSONEq(t, string(want.predictedLive), string(got.predictedLive), "predicted live")
			assert.Equal(t, want.modified, got.modified, "out of sync")
			t.Run("kubernetes", func(t *testing.T) { sc.check(t, want) })
			t.Run("kube module", func(t *testing.T) { sc.check(t, got) })
		})
	}
}

// argoWithLastApplied sets live's last-applied-configuration annotation to
// the applied document, as kubectl apply writes it.
func argoWithLastApplied(t *testing.T, live, applied []byte) []byte {
	t.Helper()
	var obj map[string]interface{}
	if err := json.Unmarshal(live, &obj); err != nil {
		t.Fatal(err)
	}
	md, _ := obj["metadata"].(map[string]interface{})
	if md == nil {
		md = map[string]interface{}{}
		obj["metadata"] = md
	}
	ann, _ := md["annotations"].(map[string]interface{})
	if ann == nil {
		ann = map[string]interface{}{}
		md["annotations"] = ann
	}
	ann[argoLastApplied] = string(applied) + "\n"
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
