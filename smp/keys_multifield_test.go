package smp_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// drawListeners draws gateway listeners keyed by (port, protocol); single
// key fields repeat often, the pair never does.
func drawListeners(t *rapid.T, label string) []exampletypes.Listener {
	var out []exampletypes.Listener
	seen := map[string]bool{}
	for i := range rapid.IntRange(0, 6).Draw(t, label+".n") {
		l := exampletypes.Listener{
			Port:     int32(rapid.IntRange(53, 54).Draw(t, fmt.Sprintf("%s[%d].port", label, i))),
			Protocol: rapid.SampledFrom([]string{"TCP", "UDP"}).Draw(t, fmt.Sprintf("%s[%d].protocol", label, i)),
			Name:     rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, fmt.Sprintf("%s[%d].name", label, i)),
		}
		if k := fmt.Sprint(l.Port, l.Protocol); !seen[k] {
			seen[k] = true
			out = append(out, l)
		}
	}
	return out
}

// drawPorts draws container ports under recommended keys (containerPort,
// protocol); protocol may be absent.
func drawPorts(t *rapid.T, label string) []exampletypes.ContainerPort {
	var out []exampletypes.ContainerPort
	seen := map[string]bool{}
	for i := range rapid.IntRange(0, 6).Draw(t, label+".n") {
		p := exampletypes.ContainerPort{
			ContainerPort: int32(rapid.IntRange(53, 54).Draw(t, fmt.Sprintf("%s[%d].port", label, i))),
			Protocol:      rapid.SampledFrom([]string{"TCP", "UDP", ""}).Draw(t, fmt.Sprintf("%s[%d].protocol", label, i)),
			HostPort:      int32(rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("%s[%d].hostPort", label, i))),
		}
		if k := fmt.Sprint(p.ContainerPort, p.Protocol); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// roundTrip checks Apply(original, Diff(original, modified)) == modified
// on the JSON path, decoding the result into T.
func roundTrip[T any](t *rapid.T, original, modified *T, opts ...smp.Option) {
	ob, _ := json.Marshal(original)
	mb, _ := json.Marshal(modified)
	patch, err := smp.DiffJSON(ob, mb, new(T), opts...)
	if err != nil {
		t.Fatalf("diff: %v", err)
	}
	res, err := smp.ApplyJSON(ob, patch, new(T), opts...)
	if err != nil {
		t.Fatalf("apply %s: %v", patch, err)
	}
	got := new(T)
	if err := json.Unmarshal(res, got); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(modified, got); d != "" {
		t.Fatalf("round trip (-modified +got):\n%s\npatch: %s", d, patch)
	}
}

func TestMultiFieldKeyRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := &exampletypes.Gateway{Spec: exampletypes.GatewaySpec{Listeners: drawListeners(t, "original")}}
		m := &exampletypes.Gateway{Spec: exampletypes.GatewaySpec{Listeners: drawListeners(t, "modified")}}
		roundTrip(t, o, m)
	})
}

func TestRecommendedKeyRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := func(label string) *exampletypes.Pod {
			return &exampletypes.Pod{Spec: exampletypes.PodSpec{Containers: []exampletypes.Container{{Name: "c", Ports: drawPorts(t, label)}}}}
		}
		o, m := pod("original"), pod("modified")
		roundTrip(t, o, m)
		roundTrip(t, o, m, smp.WithSkewSafe(true))
	})
}
