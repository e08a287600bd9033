package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// TestDiffRefusesNonScalarsInMergeSets: a merge list of scalars that holds
// an array or an object cannot be diffed element by element: the differ
// fails as the applier does (Kubernetes' ErrNoListOfLists), instead of
// writing a patch that loses the change ([["b"]] -> [["a"]] wrote only
// $setElementOrder) or that Apply rejects; two-way and three-way. (A Go
// type holds such a list only through elements that marshal themselves,
// rawSet: reflectschema refuses merge on []any without a key.)
func TestDiffRefusesNonScalarsInMergeSets(t *testing.T) {
	for _, c := range []struct{ original, modified, path, what string }{
		{`{"metadata":{"finalizers":["a"]}}`, `{"metadata":{"finalizers":["a",["a"]]}}`, "metadata.finalizers[1]", "an array"},
		{`{"metadata":{"finalizers":[["b"]]}}`, `{"metadata":{"finalizers":[["a"]]}}`, "metadata.finalizers[0]", "an array"},
		{`{"metadata":{"finalizers":["x"]}}`, `{"metadata":{"finalizers":[{"a":1}]}}`, "metadata.finalizers[0]", "an object"},
	} {
		_, err := smp.DiffJSON([]byte(c.original), []byte(c.modified), &exampletypes.Deployment{}, smp.WithTypeChecks(false))
		requireMixed(t, err, c.path, c.what)
		_, err = smp.ThreeWayJSON([]byte(c.original), []byte(c.modified), []byte(c.original), &exampletypes.Deployment{}, smp.WithTypeChecks(false))
		requireMixed(t, err, c.path, c.what)
	}
}

func requireMixed(t *testing.T, err error, path, what string) {
	t.Helper()
	var e *smp.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, smp.ErrMixedList, e.Kind, "%v", err)
	require.Equal(t, path, e.Path.String())
	require.Contains(t, e.Msg, "merge list of scalars holds "+what)
}

// rawSet is a Go type whose merge list of scalars can hold arrays: its
// elements marshal themselves.
type rawSet struct {
	Items []json.RawMessage `json:"items" patchStrategy:"merge"`
}

// TestTypedDiffRefusesNonScalarsInMergeSets: the typed differ refuses an
// array in a merge list of scalars as DiffJSON does on the same JSON,
// also when the original list is empty (the typed differ once wrote it
// whole, a patch Apply refuses); two-way and three-way.
func TestTypedDiffRefusesNonScalarsInMergeSets(t *testing.T) {
	arr := json.RawMessage(`[1]`)
	for _, c := range []struct{ original, modified rawSet }{
		{rawSet{Items: []json.RawMessage{}}, rawSet{Items: []json.RawMessage{arr}}},
		{rawSet{Items: []json.RawMessage{json.RawMessage(`2`)}}, rawSet{Items: []json.RawMessage{arr}}},
	} {
		o, err := json.Marshal(c.original)
		require.NoError(t, err)
		m, err := json.Marshal(c.modified)
		require.NoError(t, err)
		_, err = smp.DiffJSON(o, m, &rawSet{})
		requireMixed(t, err, "items[0]", "an array")
		_, err = smp.Diff(c.original, c.modified)
		requireMixed(t, err, "items[0]", "an array")
		_, err = smp.ThreeWayJSON(o, m, o, &rawSet{})
		requireMixed(t, err, "items[0]", "an array")
		_, err = smp.ThreeWay(c.original, c.modified, c.original)
		requireMixed(t, err, "items[0]", "an array")
	}
}
