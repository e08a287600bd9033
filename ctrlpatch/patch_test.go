package ctrlpatch_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/typedpatch/typedpatch/ctrlpatch"
	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

func deployment() *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "dns", Namespace: "ns"},
		Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "dns", Image: "dns:1",
			Ports: []corev1.ContainerPort{
				{Name: "dns-tcp", ContainerPort: 53, Protocol: corev1.ProtocolTCP},
				{Name: "dns", ContainerPort: 53, Protocol: corev1.ProtocolUDP},
			},
		}}}}},
	}
}

func typedClient(t *testing.T) client.Client {
	s := runtime.NewScheme()
	if err := appsv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(deployment()).Build()
}

// A controller renames the UDP port and changes the image while a webhook
// injects a sidecar: the strategic merge patch keeps the sidecar and
// changes the UDP port only, where the two ports share containerPort 53.
func TestStrategicMergeFrom(t *testing.T) {
	ctx := context.Background()
	c := typedClient(t)
	key := client.ObjectKey{Namespace: "ns", Name: "dns"}
	live := &appsv1.Deployment{}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	modified := live.DeepCopy()
	modified.Spec.Template.Spec.Containers[0].Image = "dns:2"
	modified.Spec.Template.Spec.Containers[0].Ports[1].Name = "dns-udp"

	injected := live.DeepCopy()
	injected.Spec.Template.Spec.Containers = append(injected.Spec.Template.Spec.Containers, corev1.Container{Name: "sidecar", Image: "envoy:1"})
	if err := c.Update(ctx, injected); err != nil {
		t.Fatal(err)
	}

	patch := ctrlpatch.StrategicMergeFrom(live)
	data, err := patch.Data(modified)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "$patchMergeKey") {
		t.Errorf("a directive servers do not know: %s", data)
	}
	if err := c.Patch(ctx, modified, patch); err != nil {
		t.Fatalf("patch %s: %v", data, err)
	}
	got := &appsv1.Deployment{}
	if err := c.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	cs := got.Spec.Template.Spec.Containers
	if len(cs) != 2 || cs[1].Name != "sidecar" {
		t.Fatalf("the injected sidecar is lost: %+v (patch %s)", cs, data)
	}
	want := []corev1.ContainerPort{
		{Name: "dns-tcp", ContainerPort: 53, Protocol: corev1.ProtocolTCP},
		{Name: "dns-udp", ContainerPort: 53, Protocol: corev1.ProtocolUDP},
	}
	if cs[0].Image != "dns:2" || !slices.Equal(cs[0].Ports, want) {
		t.Fatalf("got %+v, want image dns:2 and ports %+v (patch %s)", cs[0], want, data)
	}
	if live.Spec.Template.Spec.Containers[0].Image != "dns:1" {
		t.Error("the original was changed")
	}
}

// With an optimistic lock, a patch made from an object another writer
// changed since is refused.
func TestStrategicMergeFromOptimisticLock(t *testing.T) {
	ctx := context.Background()
	c := typedClient(t)
	live := &appsv1.Deployment{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "dns"}, live); err != nil {
		t.Fatal(err)
	}
	modified := live.DeepCopy()
	modified.Spec.Template.Spec.Containers[0].Image = "dns:2"
	if err := c.Patch(ctx, modified.DeepCopy(), ctrlpatch.StrategicMergeFrom(live, ctrlpatch.WithOptimisticLock())); err != nil {
		t.Fatalf("fresh: %v", err)
	}
	modified.Spec.Template.Spec.Containers[0].Image = "dns:3"
	err := c.Patch(ctx, modified, ctrlpatch.StrategicMergeFrom(live, ctrlpatch.WithOptimisticLock()))
	if !apierrors.IsConflict(err) {
		t.Fatalf("stale: want a conflict, got %v", err)
	}
	// A patch made for another type says so.
	if _, err := ctrlpatch.StrategicMergeFrom(live).Data(&corev1.Pod{}); err == nil {
		t.Error("a Pod given to a Deployment's patch")
	}
}

var widgetGVK = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}

func widget() *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "ns"},
		"spec": map[string]any{
			"ports": []any{
				map[string]any{"port": int64(53), "protocol": "TCP", "name": "dns-tcp"},
				map[string]any{"port": int64(53), "protocol": "UDP", "name": "dns"},
			},
			"containers": []any{map[string]any{"name": "app", "image": "app:1"}},
		},
	}}
	return u
}

// widgetSchema is the Widget's schema, from its CustomResourceDefinition.
func widgetSchema(t *testing.T) *reflectschema.Type {
	crd, err := os.ReadFile("testdata/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := openapischema.Read(crd)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schemas.Lookup("example.com/v1", "Widget")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func crClient(t *testing.T) client.Client {
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(widgetGVK, meta.RESTScopeNamespace)
	return fake.NewClientBuilder().WithRESTMapper(mapper).WithObjects(widget()).Build()
}

// For a custom resource, the merge patch and the JSON patch make the
// object what the strategic merge patch computed with the CRD's list-map
// keys makes of it, and are refused once another writer changed it.
func TestCustomResourcePatches(t *testing.T) {
	sch := widgetSchema(t)
	for name, make := range map[string]func(client.Object) client.Patch{
		"merge": func(o client.Object) client.Patch { return ctrlpatch.MergeFrom(o, sch) },
		"json":  func(o client.Object) client.Patch { return ctrlpatch.JSONPatchFrom(o, sch) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := crClient(t)
			live := &unstructured.Unstructured{}
			live.SetGroupVersionKind(widgetGVK)
			key := client.ObjectKey{Namespace: "ns", Name: "w"}
			if err := c.Get(ctx, key, live); err != nil {
				t.Fatal(err)
			}
			modified := live.DeepCopy()
			ports, _, _ := unstructured.NestedSlice(modified.Object, "spec", "ports")
			ports[1].(map[string]any)["name"] = "dns-udp"
			if err := unstructured.SetNestedSlice(modified.Object, ports, "spec", "ports"); err != nil {
				t.Fatal(err)
			}
			patch := make(live)
			data, err := patch.Data(modified)
			if err != nil {
				t.Fatal(err)
			}
			want := localResult(t, live, modified, sch)
			if err := c.Patch(ctx, modified.DeepCopy(), patch); err != nil {
				t.Fatalf("patch %s: %v", data, err)
			}
			got := &unstructured.Unstructured{}
			got.SetGroupVersionKind(widgetGVK)
			if err := c.Get(ctx, key, got); err != nil {
				t.Fatal(err)
			}
			if g, w := specJSON(t, got), specJSON(t, want); g != w {
				t.Fatalf("server's spec %s, local strategic result %s (patch %s)", g, w, data)
			}
			// The same patch again, now stale: refused, object unchanged.
			stale := modified.DeepCopy()
			cs, _, _ := unstructured.NestedSlice(stale.Object, "spec", "containers")
			cs[0].(map[string]any)["image"] = "app:2"
			_ = unstructured.SetNestedSlice(stale.Object, cs, "spec", "containers")
			if err := c.Patch(ctx, stale, make(live)); err == nil {
				t.Fatal("a stale patch was applied")
			}
			after := &unstructured.Unstructured{}
			after.SetGroupVersionKind(widgetGVK)
			if err := c.Get(ctx, key, after); err != nil {
				t.Fatal(err)
			}
			if specJSON(t, after) != specJSON(t, got) {
				t.Fatalf("a refused patch changed the object: %s", specJSON(t, after))
			}
		})
	}
}

// localResult is smp.ApplyJSON(live, smp.DiffJSON(live, modified)).
func localResult(t *testing.T, live, modified *unstructured.Unstructured, sch any) *unstructured.Unstructured {
	lj, _ := json.Marshal(live)
	mj, _ := json.Marshal(modified)
	p, err := smp.DiffJSON(lj, mj, sch)
	if err != nil {
		t.Fatal(err)
	}
	out, err := smp.ApplyJSON(lj, p, sch)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(out); err != nil {
		t.Fatal(err)
	}
	return u
}

func specJSON(t *testing.T, u *unstructured.Unstructured) string {
	b, err := json.Marshal(u.Object["spec"])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
