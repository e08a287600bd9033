package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/typedpatch/typedpatch/ctrlpatch"
	"github.com/typedpatch/typedpatch/smp"
)

// ctrlClient is a controller-runtime client of the test server, as the
// admin user, trusting the server's own certificate only.
func ctrlClient(t *testing.T) client.Client {
	t.Helper()
	ca, err := os.ReadFile(filepath.Join(srv.dir, "certs", "apiserver.crt"))
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := appsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	cfg := &rest.Config{Host: srv.url, BearerToken: srv.token, TLSClientConfig: rest.TLSClientConfig{CAData: ca}}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// webDeployment is a Deployment of one container with one port.
func webDeployment(ns string) *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "web", Image: "web:1",
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				}}},
			},
		},
	}
}

// TestCtrlStrategicMergeFrom patches a Deployment through controller-runtime
// with ctrlpatch.StrategicMergeFrom while a webhook injected a sidecar
// since the controller read it: the server keeps the sidecar and stores
// the spec smp.Apply computes locally from the object it held. With
// WithOptimisticLock the same patch made from the stale read is refused
// (409), and made from a fresh read is accepted.
func TestCtrlStrategicMergeFrom(t *testing.T) {
	ctx := context.Background()
	c := ctrlClient(t)
	ns := srv.newNamespace(t)
	if err := c.Create(ctx, webDeployment(ns)); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKey{Namespace: ns, Name: "web"}
	read := &appsv1.Deployment{}
	if err := c.Get(ctx, key, read); err != nil {
		t.Fatal(err)
	}
	modified := read.DeepCopy()
	ctr := &modified.Spec.Template.Spec.Containers[0]
	ctr.Image = "web:2"
	ctr.Ports = append(ctr.Ports, corev1.ContainerPort{Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP})

	injected := read.DeepCopy()
	injected.Spec.Template.Spec.Containers = append(injected.Spec.Template.Spec.Containers,
		corev1.Container{Name: driftSidecar, Image: "proxy:1"})
	if err := c.Update(ctx, injected); err != nil {
		t.Fatal(err)
	}
	current := injected.DeepCopy() // as the server stored it, defaults and all

	locked := ctrlpatch.StrategicMergeFrom(read, ctrlpatch.WithOptimisticLock())
	if err := c.Patch(ctx, modified.DeepCopy(), locked); !apierrors.IsConflict(err) {
		t.Fatalf("a locked patch from a stale read: want 409 Conflict, got %v", err)
	}

	patch := ctrlpatch.StrategicMergeFrom(read)
	data, err := patch.Data(modified)
	if err != nil {
		t.Fatal(err)
	}
	diff, err := smp.Diff(read, modified)
	if err != nil {
		t.Fatal(err)
	}
	local, err := smp.Apply(current, diff)
	if err != nil {
		t.Fatal(err)
	}
	got := modified.DeepCopy()
	if err := c.Patch(ctx, got, patch); err != nil {
		t.Fatalf("PATCH %s: %v", data, err)
	}
	if d := cmp.Diff(specJSON(t, local.Spec), specJSON(t, got.Spec)); d != "" {
		t.Errorf("the server's spec is not smp.Apply's (-local +server):\n%s\npatch: %s", d, data)
	}
	cs := got.Spec.Template.Spec.Containers
	if len(cs) != 2 || cs[1].Name != driftSidecar {
		t.Errorf("the injected sidecar is lost: %+v\npatch: %s", cs, data)
	}
	if cs[0].Image != "web:2" || len(cs[0].Ports) != 2 {
		t.Errorf("the configuration is not applied: %+v\npatch: %s", cs[0], data)
	}

	fresh := got.DeepCopy()
	fresh.Spec.Template.Spec.Containers[0].Image = "web:3"
	if err := c.Patch(ctx, fresh, ctrlpatch.StrategicMergeFrom(got, ctrlpatch.WithOptimisticLock())); err != nil {
		t.Fatalf("a locked patch from a fresh read: %v", err)
	}
	if fresh.Spec.Template.Spec.Containers[0].Image != "web:3" {
		t.Errorf("the locked patch from a fresh read is not applied: %+v", fresh.Spec.Template.Spec.Containers[0])
	}
}

// specJSON is a value's JSON, decoded: what the server and the project
// compare by.
func specJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCtrlCustomResourcePatches patches a Widget, a custom resource whose
// ports are keyed by port and protocol, through controller-runtime with
// ctrlpatch.MergeFrom and ctrlpatch.JSONPatchFrom: from a read another
// writer has since changed the patch is refused (409 for the merge patch's
// resourceVersion, 422 for the JSON patch's test) and the object left as
// it was; read again, the patch is accepted, the server's spec is the
// local strategic result, and what the other writer added is kept.
func TestCtrlCustomResourcePatches(t *testing.T) {
	schema := installCRD(t, widgetCRD, "example.com/v1", "Widget")
	for _, pt := range []struct {
		name  string
		patch func(client.Object) client.Patch
		stale func(error) bool
	}{
		{"merge", func(o client.Object) client.Patch { return ctrlpatch.MergeFrom(o, schema) }, apierrors.IsConflict},
		{"json", func(o client.Object) client.Patch { return ctrlpatch.JSONPatchFrom(o, schema) }, apierrors.IsInvalid},
	} {
		t.Run(pt.name, func(t *testing.T) {
			ctx := context.Background()
			c := ctrlClient(t)
			ns := srv.newNamespace(t)
			get := func() *unstructured.Unstructured {
				u := &unstructured.Unstructured{}
				u.SetAPIVersion("example.com/v1")
				u.SetKind("Widget")
				if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "dns"}, u); err != nil {
					t.Fatal(err)
				}
				return u
			}
			created := &unstructured.Unstructured{Object: decode(t, inNamespace(t, widgetOriginal, ns))}
			if err := c.Create(ctx, created); err != nil {
				t.Fatal(err)
			}
			read := get()
			// The controller's change: the UDP port renamed, a new image.
			configure := func(u *unstructured.Unstructured) *unstructured.Unstructured {
				m := u.DeepCopy()
				ports, _, _ := unstructured.NestedSlice(m.Object, "spec", "ports")
				for _, p := range ports {
					if p.(object)["protocol"] == "UDP" {
						p.(object)["name"] = "dns-udp"
					}
				}
				cs, _, _ := unstructured.NestedSlice(m.Object, "spec", "containers")
				cs[0].(object)["image"] = "web:2"
				if err := unstructured.SetNestedSlice(m.Object, ports, "spec", "ports"); err != nil {
					t.Fatal(err)
				}
				if err := unstructured.SetNestedSlice(m.Object, cs, "spec", "containers"); err != nil {
					t.Fatal(err)
				}
				return m
			}
			// Another writer: a metrics port and a sidecar.
			other := read.DeepCopy()
			other.Object["spec"] = decode(t, encode(t, widgetCurrent))["spec"]
			if err := c.Update(ctx, other); err != nil {
				t.Fatal(err)
			}
			before := get()
			if err := c.Patch(ctx, configure(read), pt.patch(read)); !pt.stale(err) {
				t.Fatalf("a patch from a stale read: got %v", err)
			}
			if after := get(); after.GetResourceVersion() != before.GetResourceVersion() {
				t.Errorf("a refused patch changed the object: %v", after.Object["spec"])
			}

			modified := configure(before)
			patch := pt.patch(before)
			data, err := patch.Data(modified)
			if err != nil {
				t.Fatal(err)
			}
			live, mod := encode(t, before.Object), encode(t, modified.Object)
			strategic, err := smp.DiffJSON(live, mod, schema)
			if err != nil {
				t.Fatal(err)
			}
			local, err := smp.ApplyJSON(live, strategic, schema)
			if err != nil {
				t.Fatal(err)
			}
			got := modified.DeepCopy()
			if err := c.Patch(ctx, got, patch); err != nil {
				t.Fatalf("PATCH %s: %v", data, err)
			}
			stored := decode(t, encode(t, got.Object))["spec"].(object)
			if d := cmp.Diff(decode(t, local)["spec"], any(stored)); d != "" {
				t.Errorf("the server's spec is not the local strategic result (-local +server):\n%s\npatch: %s", d, data)
			}
			want := object{
				"ports": []any{object{"port": 53.0, "protocol": "TCP", "name": "dns-tcp"}, object{"port": 53.0, "protocol": "UDP", "name": "dns-udp"},
					object{"port": 9153.0, "protocol": "TCP", "name": "metrics"}},
				"containers": []any{object{"name": "web", "image": "web:2"}, object{"name": "sidecar", "image": "proxy:1"}},
			}
			if d := cmp.Diff(want, stored); d != "" {
				t.Errorf("the stored spec is not the configuration with the other writer's port and sidecar (-want +got):\n%s\npatch: %s", d, data)
			}
		})
	}
}
