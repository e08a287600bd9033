package smp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// threeWay runs ThreeWayJSON on a Pod and returns the decoded patch.
func threeWay(t *testing.T, original, modified, current string, opts ...smp.Option) (map[string]any, error) {
	t.Helper()
	out, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &exampletypes.Pod{}, opts...)
	if err != nil {
		return nil, err
	}
	return decodeMap(out), nil
}

// TestThreeWayNilEmptyCollections is kubernetes#48164: the new
// configuration drops a map another writer added to; Kubernetes deletes the
// whole map and reports a conflict.
func TestThreeWayNilEmptyCollections(t *testing.T) {
	original := `{"metadata":{"name":"app","annotations":{"upstream":""}}}`
	current := `{"metadata":{"name":"app","annotations":{"upstream":"","custom":""}}}`
	for _, modified := range []string{`{"metadata":{"name":"app"}}`, `{"metadata":{"name":"app","annotations":null}}`} {
		p, err := threeWay(t, original, modified, current)
		require.NoError(t, err, "no conflict: the patch removes only what the original had")
		assert.Equal(t, map[string]any{"metadata": map[string]any{"annotations": map[string]any{"upstream": nil}}}, p)
		res, err := smp.ApplyJSON([]byte(current), mustMarshal(p), &exampletypes.Pod{})
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"metadata": map[string]any{"name": "app", "annotations": map[string]any{"custom": ""}}}, decodeMap(res))
	}
	// An empty map turning absent is no change, on either side.
	p, err := threeWay(t, `{"metadata":{"labels":{}}}`, `{"metadata":{}}`, `{"metadata":{"labels":{"a":"1"}}}`)
	require.NoError(t, err)
	assert.Empty(t, p)
	p, err = threeWay(t, `{"metadata":{"labels":{}}}`, `{"metadata":{"labels":{"b":"2"}}}`, `{}`)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"metadata": map[string]any{"labels": map[string]any{"b": "2"}}}, p)
	// Where nobody else added entries, the patch is Kubernetes' own.
	p, err = threeWay(t, original, `{"metadata":{"name":"app"}}`, original)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"metadata": map[string]any{"annotations": nil}}, p)
}

func TestThreeWayConflictPaths(t *testing.T) {
	original := `{"spec":{"containers":[{"name":"a","image":"1"}],"nodeName":"n1"}}`
	modified := `{"spec":{"containers":[{"name":"a","image":"2"}],"nodeName":"n2"}}`
	current := `{"spec":{"containers":[{"name":"a","image":"3"}],"nodeName":"n3"}}`
	_, err := threeWay(t, original, modified, current)
	require.Error(t, err)
	assert.True(t, smp.IsConflict(err))
	var e *smp.Error
	require.ErrorAs(t, err, &e)
	var paths []string
	for _, p := range e.Conflicts {
		paths = append(paths, p.String())
	}
	assert.Equal(t, []string{"spec.containers[name=a].image", "spec.nodeName"}, paths)
	p, err := threeWay(t, original, modified, current, smp.WithOverwrite(true))
	require.NoError(t, err)
	res, err := smp.ApplyJSON([]byte(current), mustMarshal(p), &exampletypes.Pod{})
	require.NoError(t, err)
	assert.Equal(t, decodeMap([]byte(modified)), decodeMap(res), "overwrite resolves to modified")
	// A change current made to another field is kept and is no conflict.
	p, err = threeWay(t, original, modified, `{"spec":{"containers":[{"name":"a","image":"1"}],"nodeName":"n1","hostNetwork":true}}`)
	require.NoError(t, err)
	assert.NotContains(t, p["spec"], "hostNetwork")
}

func TestPreconditions(t *testing.T) {
	_, err := smp.DiffJSON([]byte(`{"metadata":{"name":"a"}}`), []byte(`{"metadata":{"name":"b"}}`), &exampletypes.Pod{}, smp.WithPreconditions(
		smp.RequireMetadataKeyUnchanged("name")))

	assert.True(t, smp.IsPreconditionFailed(err), "%v", err)
	_, err = smp.DiffJSON([]byte(`{"kind":"A"}`), []byte(`{"kind":"B"}`), &exampletypes.Pod{}, smp.WithPreconditions(smp.RequireKeyUnchanged("kind")))
	assert.True(t, smp.IsPreconditionFailed(err), "%v", err)
	_, err = smp.ThreeWayJSON([]byte(`{}`), []byte(`{"kind":"B"}`), []byte(`{}`), &exampletypes.Pod{}, smp.WithOverwrite(true), smp.WithPreconditions(smp.RequireKeyUnchanged("kind")))
	assert.True(t, smp.IsPreconditionFailed(err), "%v", err)
	p, err := smp.DiffJSON([]byte(`{"kind":"A"}`), []byte(`{"kind":"A","apiVersion":"v1"}`), &exampletypes.Pod{}, smp.WithPreconditions(smp.RequireKeyUnchanged("kind")))
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"v1"}`, string(p))
}
