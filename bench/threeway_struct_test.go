package bench

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/smp"
)

// A configuration moves a StatefulSet from RollingUpdate (partition 0) to
// OnDelete; the server filled in rollingUpdate.maxUnavailable. The
// three-way patch deletes rollingUpdate whole, as Kubernetes' does, since
// OnDelete forbids it: deleting only the original's partition would leave
// the server's default behind and the server would refuse the object.
// The same patch from the Go type, the bundled schema and the typed API;
// the merge and JSON patches a server takes give the same object.
func TestThreeWayDeletesStructWhole(t *testing.T) {
	original := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},"spec":{"serviceName":"db","updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}}}}`
	modified := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},"spec":{"serviceName":"db","updateStrategy":{"type":"OnDelete"}}}`
	current := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","resourceVersion":"9"},"spec":{"serviceName":"db","updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0,"maxUnavailable":1}}}}`
	o, m, c := []byte(original), []byte(modified), []byte(current)
	meta, err := k8s.NewPatchMetaFromStruct(&appsv1.StatefulSet{})
	require.NoError(t, err)
	bundled, err := builtin.Lookup("apps/v1", "StatefulSet")
	require.NoError(t, err)
	for _, overwrite := range []bool{true, false} {
		want, kerr, panicked := k8sThreeWay(o, m, c, meta, overwrite)
		require.Nil(t, panicked)
		for name, schema := range map[string]any{"Go type": &appsv1.StatefulSet{}, "bundled": bundled} {
			got, err := smp.ThreeWayJSON(o, m, c, schema, smp.WithOverwrite(overwrite))
			require.Equal(t, kerr == nil, err == nil, "%s, overwrite %v: ours %v, Kubernetes' %v", name, overwrite, err, kerr)
			if kerr == nil {
				require.JSONEq(t, string(want), string(got), "%s, overwrite %v", name, overwrite)
			}
		}
	}
	patch, err := smp.ThreeWayJSON(o, m, c, bundled, smp.WithOverwrite(true))
	require.NoError(t, err)
	require.JSONEq(t, `{"spec":{"updateStrategy":{"rollingUpdate":null,"type":"OnDelete"}}}`, string(patch))

	var to, tm, tc appsv1.StatefulSet
	require.NoError(t, json.Unmarshal(o, &to))
	require.NoError(t, json.Unmarshal(m, &tm))
	require.NoError(t, json.Unmarshal(c, &tc))
	tp, err := smp.ThreeWay(&to, &tm, &tc, smp.WithOverwrite(true))
	require.NoError(t, err)
	require.JSONEq(t, string(patch), tp.String(), "typed")

	wantObj := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","resourceVersion":"9"},"spec":{"serviceName":"db","updateStrategy":{"type":"OnDelete"}}}`
	res, err := smp.ApplyJSON(c, patch, bundled)
	require.NoError(t, err)
	require.JSONEq(t, wantObj, string(res))
	mp, err := smp.MergePatchJSON(c, patch, bundled)
	require.NoError(t, err)
	got, err := jsonPatchMerge(c, mp)
	require.NoError(t, err)
	require.JSONEq(t, wantObj, string(got), "merge patch %s", mp)
	jp, err := smp.JSONPatchJSON(c, patch, bundled)
	require.NoError(t, err)
	got, err = applyJSONPatch(c, jp)
	require.NoError(t, err)
	require.JSONEq(t, wantObj, string(got), "JSON patch %s", jp)
}

// A map with free keys still narrows: labels another writer added to a
// map the configuration drops survive (Kubernetes deletes them, the
// difference docs/compat.md lists), while a struct beside it goes whole.
func TestThreeWayNarrowsMapsOnly(t *testing.T) {
	original := `{"metadata":{"name":"p","labels":{"app":"web"}},"spec":{"securityContext":{"runAsUser":1}}}`
	modified := `{"metadata":{"name":"p"},"spec":{}}`
	current := `{"metadata":{"name":"p","labels":{"app":"web","team":"x"}},"spec":{"securityContext":{"runAsUser":1,"fsGroup":2}}}`
	got, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &corev1.Pod{}, smp.WithOverwrite(true))
	require.NoError(t, err)
	require.JSONEq(t, `{"metadata":{"labels":{"app":null}},"spec":{"securityContext":null}}`, string(got))
}
