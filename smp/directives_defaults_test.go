package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// By default the differ writes what today's servers understand: no
// $patchMergeKey, though ports have a recommended key. Asked for it, a
// list whose default key two elements share is written whole unless
// skew-safe mode is turned off; the applier acts on $patchMergeKey
// without being asked.
func TestDefaultDirectives(t *testing.T) {
	pod := func(udpName string) exampletypes.Pod {
		var p exampletypes.Pod
		p.Spec.Containers = []exampletypes.Container{{Name: "dns", Ports: []exampletypes.ContainerPort{
			{Name: "dns-tcp", ContainerPort: 53, Protocol: "TCP"},
			{Name: udpName, ContainerPort: 53, Protocol: "UDP"},
			{Name: "metrics", ContainerPort: 9000, Protocol: "TCP"}}}}
		return p
	}
	o, m := pod("dns"), pod("dns-udp")
	ob, _ := json.Marshal(o)
	mb, _ := json.Marshal(m)
	typed := func(opts ...smp.Option) string {
		p, err := smp.Diff(o, m, opts...)
		require.NoError(t, err)
		return p.String()
	}
	untyped := func(opts ...smp.Option) string {
		p, err := smp.DiffJSON(ob, mb, &exampletypes.Pod{}, opts...)
		require.NoError(t, err)
		return string(p)
	}
	all := smp.WithDirectives(smp.DirectivesAll)
	for name, diff := range map[string]func(...smp.Option) string{"typed": typed, "json": untyped} {
		p := diff()
		require.NotContains(t, p, "$patchMergeKey", name)
		p = diff(all)
		require.Contains(t, p, `"$patch":"replace"`, name)
		require.NotContains(t, p, "$patchMergeKey", name)
		p = diff(all, smp.WithSkewSafe(false))
		require.Contains(t, p, "$patchMergeKey", name)
		require.NotContains(t, p, `"$patch":"replace"`, name)
		// The default applier takes the element-by-element form.
		out, err := smp.ApplyJSON(ob, []byte(p), &exampletypes.Pod{})
		require.NoError(t, err)
		require.JSONEq(t, string(mb), string(out), name)
	}
	// Where the default key is unique, $patchMergeKey would be written
	// element by element: only on request.
	u1, u2 := pod("dns"), pod("dns")
	u1.Spec.Containers[0].Ports = u1.Spec.Containers[0].Ports[1:]
	u2.Spec.Containers[0].Ports = u2.Spec.Containers[0].Ports[1:]
	u2.Spec.Containers[0].Ports[1].Name = "prom"
	p, err := smp.Diff(u1, u2)
	require.NoError(t, err)
	require.NotContains(t, p.String(), "$patchMergeKey")
	p, err = smp.Diff(u1, u2, all)
	require.NoError(t, err)
	require.Contains(t, p.String(), "$patchMergeKey")
}
