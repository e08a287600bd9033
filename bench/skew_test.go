package bench

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// Kubernetes' strategicpatch stands for an old server: it does not know
// $patchMergeKey, and decoding its result into the typed struct drops the
// directive it kept as a field.

func podWithPorts(ports ...exampletypes.ContainerPort) *exampletypes.Pod {
	return &exampletypes.Pod{Spec: exampletypes.PodSpec{Containers: []exampletypes.Container{{Name: "dns", Image: "dns:1", Ports: ports}}}}
}

// applyOnOldServer applies a patch with Kubernetes and decodes the result.
func applyOnOldServer(t require.TestingT, original *exampletypes.Pod, patch []byte) *exampletypes.Pod {
	ob, err := json.Marshal(original)
	require.NoError(t, err)
	out, err := k8s.StrategicMergePatch(ob, patch, &exampletypes.Pod{})
	require.NoError(t, err)
	var got exampletypes.Pod
	require.NoError(t, json.Unmarshal(out, &got))
	return &got
}

// TestSharedDefaultKeyDelete: two ports share 53, one TCP and one UDP; the
// modified pod drops TCP.
func TestSharedDefaultKeyDelete(t *testing.T) {
	tcp := exampletypes.ContainerPort{Name: "dns-tcp", ContainerPort: 53, Protocol: "TCP"}
	udp := exampletypes.ContainerPort{Name: "dns-udp", ContainerPort: 53, Protocol: "UDP"}
	original, modified := podWithPorts(tcp, udp), podWithPorts(udp)
	ob, _ := json.Marshal(original)
	mb, _ := json.Marshal(modified)

	// The default patch, without $patchMergeKey, replaces the list, which
	// every server applies as this engine does.
	patch, err := smp.DiffJSON(ob, mb, &exampletypes.Pod{})
	require.NoError(t, err)
	require.NotContains(t, string(patch), "$patchMergeKey")
	requireBothServers(t, original, modified, ob, patch)

	// With $patchMergeKey, skew-safe mode is the default: the same.
	all := smp.WithDirectives(smp.DirectivesAll)
	safe, err := smp.DiffJSON(ob, mb, &exampletypes.Pod{}, all)
	require.NoError(t, err)
	require.Contains(t, string(safe), `"$patch":"replace"`)
	requireBothServers(t, original, modified, ob, safe)

	// Opting out, this engine deletes exactly the TCP port, and an old
	// server deletes every port 53 (docs/skew.md).
	unsafe, err := smp.DiffJSON(ob, mb, &exampletypes.Pod{}, all, smp.WithSkewSafe(false))
	require.NoError(t, err)
	require.Contains(t, string(unsafe), "$patchMergeKey")
	res, err := smp.ApplyJSON(ob, unsafe, &exampletypes.Pod{})
	require.NoError(t, err)
	var got exampletypes.Pod
	require.NoError(t, json.Unmarshal(res, &got))
	require.Empty(t, cmp.Diff(modified, &got), "patch %s", unsafe)
	old := applyOnOldServer(t, original, unsafe)
	require.Empty(t, old.Spec.Containers[0].Ports, "old server, unsafe patch %s", unsafe)
}

// requireBothServers applies patch on this engine and on an old server,
// and requires modified from both.
func requireBothServers(t *testing.T, original, modified *exampletypes.Pod, ob, patch []byte) {
	t.Helper()
	old := applyOnOldServer(t, original, patch)
	require.Empty(t, cmp.Diff(modified, old), "old server, patch %s", patch)
	res, err := smp.ApplyJSON(ob, patch, &exampletypes.Pod{})
	require.NoError(t, err)
	var got exampletypes.Pod
	require.NoError(t, json.Unmarshal(res, &got))
	require.Empty(t, cmp.Diff(modified, &got), "this engine, patch %s", patch)
}

// genPorts draws ports; with unique, the default key (containerPort) is
// unique in the list.
func genPorts(t *rapid.T, label string, unique bool) []exampletypes.ContainerPort {
	n := rapid.IntRange(0, 5).Draw(t, label+".n")
	var ports []exampletypes.ContainerPort
	seen := map[string]bool{}
	for i := range n {
		p := exampletypes.ContainerPort{
			ContainerPort: int32(rapid.IntRange(53, 55).Draw(t, fmt.Sprintf("%s[%d].port", label, i))),
			Protocol:      rapid.SampledFrom([]string{"TCP", "UDP", ""}).Draw(t, fmt.Sprintf("%s[%d].protocol", label, i)),
			Name:          rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, fmt.Sprintf("%s[%d].name", label, i)),
		}
		key := fmt.Sprint(p.ContainerPort, "/", p.Protocol)
		if unique {
			key = fmt.Sprint(p.ContainerPort)
		}
		if !seen[key] {
			seen[key] = true
			ports = append(ports, p)
		}
	}
	return ports
}

// TestNewPatchOnOldServer: where the default key is unique, a patch with
// $patchMergeKey gives an old server the same result as this engine.
func TestNewPatchOnOldServer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		original := podWithPorts(genPorts(t, "original", true)...)
		modified := podWithPorts(genPorts(t, "modified", true)...)
		ob, _ := json.Marshal(original)
		mb, _ := json.Marshal(modified)
		patch, err := smp.DiffJSON(ob, mb, &exampletypes.Pod{})
		if err != nil {
			t.Fatal(err)
		}
		old := applyOnOldServer(t, original, patch)
		if d := cmp.Diff(modified, old); d != "" {
			t.Fatalf("old server (-modified +got):\n%s\npatch: %s", d, patch)
		}
	})
}

// TestSkewSafeOnOldServer: in skew-safe mode, any ports (default keys
// shared or not) reach an old server intact, but for their order: an old
// server's $patch: replace groups elements sharing a default key
// (docs/skew.md).
func TestSkewSafeOnOldServer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		original := podWithPorts(genPorts(t, "original", false)...)
		modified := podWithPorts(genPorts(t, "modified", false)...)
		ob, _ := json.Marshal(original)
		mb, _ := json.Marshal(modified)
		patch, err := smp.DiffJSON(ob, mb, &exampletypes.Pod{}, smp.WithSkewSafe(true))
		if err != nil {
			t.Fatal(err)
		}
		old := applyOnOldServer(t, original, patch)
		byKey := cmpopts.SortSlices(func(a, b exampletypes.ContainerPort) bool {
			return fmt.Sprint(a.ContainerPort, a.Protocol, a.Name) < fmt.Sprint(b.ContainerPort, b.Protocol, b.Name)
		})
		if d := cmp.Diff(modified, old, byKey); d != "" {
			t.Fatalf("old server (-modified +got):\n%s\npatch: %s", d, patch)
		}
	})
}
