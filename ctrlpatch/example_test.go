package ctrlpatch_test

import (
	"fmt"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/typedpatch/typedpatch/ctrlpatch"
	"github.com/typedpatch/typedpatch/openapischema"
)

// The patch a controller sends with client.Patch(ctx, modified, patch).
func ExampleStrategicMergeFrom() {
	original := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", ResourceVersion: "5"}}
	original.Spec.Template.Spec.Containers = []corev1.Container{{Name: "web", Image: "nginx:1"}}
	modified := original.DeepCopy()
	modified.Spec.Template.Spec.Containers[0].Image = "nginx:2"
	data, err := ctrlpatch.StrategicMergeFrom(original, ctrlpatch.WithOptimisticLock()).Data(modified)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(data))
	// Output: {"metadata":{"resourceVersion":"5"},"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"image":"nginx:2","name":"web"}]}}}}
}

// A custom resource's patch: a merge patch, its lists whole, with the
// original's resourceVersion.
func ExampleMergeFrom() {
	crd, err := os.ReadFile("testdata/widget-crd.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	schemas, err := openapischema.Read(crd)
	if err != nil {
		fmt.Println(err)
		return
	}
	original := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "resourceVersion": "8"},
		"spec": map[string]any{"containers": []any{
			map[string]any{"name": "app", "image": "app:1"},
			map[string]any{"name": "sidecar", "image": "envoy:1"},
		}},
	}}
	modified := original.DeepCopy()
	modified.Object["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["image"] = "app:2"
	widget, err := schemas.Lookup("example.com/v1", "Widget")
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := ctrlpatch.MergeFrom(original, widget).Data(modified)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(data))
	// Output: {"metadata":{"resourceVersion":"8"},"spec":{"containers":[{"image":"app:2","name":"app"},{"image":"envoy:1","name":"sidecar"}]}}
}
