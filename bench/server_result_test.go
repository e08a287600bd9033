package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// TestPatchesApplyAsOnKubernetes draws pods whose containers come and go
// and whose ports may share a number across protocols (Kubernetes' merge
// key for ports is the number alone), and checks that the default two-way
// and three-way patches give Kubernetes' strategic merge (what a server
// runs) the result smp.ApplyJSON gives: a container the patch adds is
// stored as the patch holds it there, directives and all, so the patch
// must hold none inside it. The one difference allowed is documented: a
// list replaced whole comes back from Kubernetes with the elements that
// share a merge key grouped at the first one's place.
func TestPatchesApplyAsOnKubernetes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		original, modified, current := drawPod(t, "original"), drawPod(t, "modified"), drawPod(t, "current")
		two, err := smp.DiffJSON(original, modified, corev1.Pod{})
		if err != nil {
			t.Fatal(err)
		}
		three, err := smp.ThreeWayJSON(original, modified, current, corev1.Pod{}, smp.WithOverwrite(true))
		if err != nil {
			t.Fatal(err)
		}
		twoTyped, threeTyped := typedPatches(t, original, modified, current)
		for _, c := range []struct {
			what          string
			target, patch []byte
			want          []byte // the intended result, when there is one
		}{
			{"two-way patch on original", original, two, modified},
			{"three-way patch on current", current, three, nil},
			{"typed two-way patch on original", original, twoTyped, modified},
			{"typed three-way patch on current", current, threeTyped, nil},
		} {
			server, err := k8s.StrategicMergePatch(c.target, c.patch, corev1.Pod{})
			if err != nil {
				t.Fatalf("%s: Kubernetes: %v\npatch: %s", c.what, err, c.patch)
			}
			local, err := smp.ApplyJSON(c.target, c.patch, corev1.Pod{})
			if err != nil {
				t.Fatalf("%s: ApplyJSON: %v\npatch: %s", c.what, err, c.patch)
			}
			if strings.Contains(string(server), `"$`) {
				t.Fatalf("%s: Kubernetes stores a directive (a server refuses it under Strict, drops it or worse under Warn): %s\npatch: %s", c.what, server, c.patch)
			}
			if d := cmp.Diff(groupedPorts(t, local), groupedPorts(t, server)); d != "" {
				t.Fatalf("%s: Kubernetes' result differs from ApplyJSON's (-local +Kubernetes):\n%s\npatch: %s", c.what, d, c.patch)
			}
			if c.want != nil {
				if d := cmp.Diff(groupedPorts(t, c.want), groupedPorts(t, server)); d != "" {
					t.Fatalf("%s: Kubernetes' result is not the modified pod (-modified +Kubernetes):\n%s\npatch: %s", c.what, d, c.patch)
				}
			}
		}
	})
}

// typedPatches computes the patches of TestPatchesApplyAsOnKubernetes with
// the typed engine, on corev1.Pod values.
func typedPatches(t *rapid.T, original, modified, current []byte) (two, three []byte) {
	var o, m, c corev1.Pod
	for _, x := range []struct {
		b []byte
		v *corev1.Pod
	}{{original, &o}, {modified, &m}, {current, &c}} {
		if err := json.Unmarshal(x.b, x.v); err != nil {
			t.Fatal(err)
		}
	}
	p2, err := smp.Diff(o, m)
	if err != nil {
		t.Fatal(err)
	}
	p3, err := smp.ThreeWay(o, m, c, smp.WithOverwrite(true))
	if err != nil {
		t.Fatal(err)
	}
	if two, err = json.Marshal(p2); err != nil {
		t.Fatal(err)
	}
	if three, err = json.Marshal(p3); err != nil {
		t.Fatal(err)
	}
	return two, three
}

// drawPod draws a pod of one to three containers (a server refuses none), in any order, each with
// ports that may share a number.
func drawPod(t *rapid.T, label string) []byte {
	var pod corev1.Pod
	for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"dns", "web", "log"}), 1, 3, rapid.ID[string]).Draw(t, label+".containers") {
		c := corev1.Container{Name: name, Image: rapid.SampledFrom([]string{"a:1", "a:2"}).Draw(t, label+"."+name+".image")}
		n := rapid.IntRange(0, 4).Draw(t, label+"."+name+".ports")
		seen := map[string]bool{}
		for i := range n {
			p := corev1.ContainerPort{
				ContainerPort: int32(rapid.IntRange(53, 54).Draw(t, fmt.Sprintf("%s.%s[%d].port", label, name, i))),
				Protocol:      rapid.SampledFrom([]corev1.Protocol{"TCP", "UDP"}).Draw(t, fmt.Sprintf("%s.%s[%d].protocol", label, name, i)),
				Name:          rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, fmt.Sprintf("%s.%s[%d].name", label, name, i)),
			}
			if k := fmt.Sprint(p.ContainerPort, p.Protocol); !seen[k] { // a server refuses a port twice
				seen[k] = true
				c.Ports = append(c.Ports, p)
			}
		}
		pod.Spec.Containers = append(pod.Spec.Containers, c)
	}
	b, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// groupedPorts decodes a pod as a server does, into its Go type (a null
// is an absent field), and returns it as JSON values with each container's
// ports grouped by number in the order of each number's first port: the
// order Kubernetes gives a list it replaces whole.
func groupedPorts(t *rapid.T, b []byte) map[string]any {
	var typed corev1.Pod
	if err := json.Unmarshal(b, &typed); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(typed)
	if err != nil {
		t.Fatal(err)
	}
	var pod map[string]any
	if err := json.Unmarshal(b, &pod); err != nil {
		t.Fatal(err)
	}
	spec, _ := pod["spec"].(map[string]any)
	containers, _ := spec["containers"].([]any)
	for _, c := range containers {
		cm, _ := c.(map[string]any)
		ports, _ := cm["ports"].([]any)
		if ports == nil {
			continue
		}
		var order []any
		groups := map[any][]any{}
		for _, p := range ports {
			n := p.(map[string]any)["containerPort"]
			if _, ok := groups[n]; !ok {
				order = append(order, n)
			}
			groups[n] = append(groups[n], p)
		}
		out := make([]any, 0, len(ports))
		for _, n := range order {
			out = append(out, groups[n]...)
		}
		cm["ports"] = out
	}
	return pod
}
