package smp_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// FuzzComposeJSON composes any two inputs for a Pod: never a panic, an
// *Error on failure, and where both patches apply to the empty document in
// turn and compose, the composed patch gives the same there.
func FuzzComposeJSON(f *testing.F) {
	f.Add([]byte(`{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"a","image":"x"}]}}`),
		[]byte(`{"spec":{"containers":[{"$patch":"delete","name":"a"},{"name":"a","ports":[{"containerPort":80}]}]}}`))
	f.Add([]byte(`{"metadata":{"labels":null,"finalizers":["a"]}}`), []byte(`{"metadata":{"labels":{"x":"y"},"$deleteFromPrimitiveList/finalizers":["a"]}}`))
	f.Add([]byte(`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","emptyDir"],"emptyDir":{}}]}}`),
		[]byte(`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","hostPath"],"hostPath":{"path":"/x"}}]}}`))
	f.Add([]byte(`{"metadata":{"$patch":"replace","name":"p"}}`), []byte(`{"metadata":{"$patch":"delete"}}`))
	f.Fuzz(func(t *testing.T, p1, p2 []byte) {
		got, err := smp.ComposeJSON(exampletypes.Pod{}, p1, p2)
		if err != nil {
			require.NotZero(t, smp.KindOf(err), "%v", err)
			return
		}
		want, err := smp.ApplyJSON([]byte(`{}`), p1, exampletypes.Pod{})
		if err == nil {
			want, err = smp.ApplyJSON(want, p2, exampletypes.Pod{})
		}
		if err != nil {
			return
		}
		res, err := smp.ApplyJSON([]byte(`{}`), got, exampletypes.Pod{})
		require.NoError(t, err, "composed %s of %s, %s", got, p1, p2)
		// Compared with numbers as text (typedDecode): a valid JSON number
		// may not fit the float64 require.JSONEq decodes into (2e308).
		require.Equal(t, typedDecode(t, want), typedDecode(t, res), "composed %s of %s, %s", got, p1, p2)
	})
}
