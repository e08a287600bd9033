package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// TestPartialKeyKeepsItsPlace: a patch element named by part of its keys
// ($patchMergeKey) takes the place of the live element it merges into,
// as one named by all of them does: server-only elements stay near their
// live neighbours, with and without $setElementOrder, JSON and typed
// alike. FuzzParsePatchApply found ApplyJSON placing the merged element
// as if it were new, after every server-only element.
func TestPartialKeyKeepsItsPlace(t *testing.T) {
	live := `{"spec":{"containers":[{"name":"c","ports":[
		{"containerPort":53,"protocol":"TCP","name":"dns"},
		{"containerPort":80,"protocol":"TCP","name":"web"},
		{"containerPort":90,"protocol":"UDP","name":"x"}]}]}}`
	for _, c := range []struct {
		name, patch string
		want        []int32 // containerPorts, in order
	}{
		{"merged in place", `{"spec":{"containers":[{"name":"c","ports":[
			{"$patchMergeKey":["containerPort"],"containerPort":53,"hostPort":1}]}]}}`, []int32{53, 80, 90}},
		{"the middle one", `{"spec":{"containers":[{"name":"c","ports":[
			{"$patchMergeKey":["containerPort"],"containerPort":80,"hostPort":2}]}]}}`, []int32{53, 80, 90}},
		{"ordered by partial keys", `{"spec":{"containers":[{"name":"c",
			"$setElementOrder/ports":[{"$patchMergeKey":["containerPort"],"containerPort":90},{"$patchMergeKey":["containerPort"],"containerPort":53},{"$patchMergeKey":["containerPort"],"containerPort":80}],
			"ports":[{"$patchMergeKey":["containerPort"],"containerPort":53,"hostPort":1}]}]}}`, []int32{90, 53, 80}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := smp.ApplyJSON([]byte(live), []byte(c.patch), exampletypes.Pod{})
			require.NoError(t, err)
			var jp exampletypes.Pod
			require.NoError(t, json.Unmarshal(got, &jp))
			var lp exampletypes.Pod
			require.NoError(t, json.Unmarshal([]byte(live), &lp))
			tp, err := smp.Apply(lp, typedMustParse(t, c.patch))
			require.NoError(t, err)
			for what, pod := range map[string]exampletypes.Pod{"ApplyJSON": jp, "Apply": tp} {
				var ports []int32
				for _, p := range pod.Spec.Containers[0].Ports {
					ports = append(ports, p.ContainerPort)
				}
				assert.Equal(t, c.want, ports, what)
			}
		})
	}
}
