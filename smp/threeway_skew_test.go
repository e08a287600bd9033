package smp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// TestThreeWayServerFilledKeyField: the server filled in a recommended key
// field (protocol: TCP) the configuration never set. A three-way patch must
// not see a new port in that.
func TestThreeWayServerFilledKeyField(t *testing.T) {
	original := `{"spec":{"containers":[{"name":"web","image":"nginx:1","ports":[{"containerPort":80}]}]}}`
	modified := `{"spec":{"containers":[{"name":"web","image":"nginx:2","ports":[{"containerPort":80}]}]}}`
	current := `{"spec":{"containers":[{"name":"web","image":"nginx:1","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}`
	p, err := threeWay(t, original, modified, current)
	require.NoError(t, err, "no conflict")
	res, err := smp.ApplyJSON([]byte(current), mustMarshal(p), &exampletypes.Pod{})
	require.NoError(t, err)
	assert.Equal(t, decodeMap([]byte(`{"spec":{"containers":[{"name":"web","image":"nginx:2","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}`)), decodeMap(res), "patch %v", p)

	// The configuration drops a key field it had: the port is written anew
	// without it, not lost.
	original = `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"protocol":"UDP","hostPort":1}]}]}}`
	modified = `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"hostPort":1}]}]}}`
	p, err = threeWay(t, original, modified, original)
	require.NoError(t, err)
	res, err = smp.ApplyJSON([]byte(original), mustMarshal(p), &exampletypes.Pod{})
	require.NoError(t, err)
	assert.Equal(t, decodeMap([]byte(modified)), decodeMap(res), "patch %v", p)
}

// TestThreeWayServerFilledKeyFieldDeletion: the configuration drops a
// field of a port whose protocol the server filled in; the deletion must
// address the live port, and the filled-in protocol is no conflict.
func TestThreeWayServerFilledKeyFieldDeletion(t *testing.T) {
	original := `{"spec":{"ports":[{"port":1,"nodePort":1}]}}`
	modified := `{"spec":{"ports":[{"port":1}]}}`
	current := `{"spec":{"ports":[{"port":1,"protocol":"x","nodePort":1}]}}`
	out, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &exampletypes.Service{})
	require.NoError(t, err)
	res, err := smp.ApplyJSON([]byte(current), out, &exampletypes.Service{})
	require.NoError(t, err, "patch %s", out)
	assert.Equal(t, decodeMap([]byte(`{"spec":{"ports":[{"port":1,"protocol":"x"}]}}`)), decodeMap(res), "patch %s", out)
}

// TestThreeWayKeyChangeOnOldServer: the configuration changes a key field
// another writer already changed the same way. The patch deletes the old
// element and writes the new one, so that a server that knows no
// $patchMergeKey (deleting by the default key) ends with the new element.
func TestThreeWayKeyChangeOnOldServer(t *testing.T) {
	original := `{"list":[{"foo":"a"}]}`
	modified := `{"list":[{"foo":"a","bar":"x"}]}`
	out, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(modified), &exampletypes.SeedRecommended{})
	require.NoError(t, err)
	for _, d := range []smp.DirectiveSet{smp.DirectivesAll, smp.DirectivesRetainKeys} {
		res, err := smp.ApplyJSON([]byte(modified), out, &exampletypes.SeedRecommended{}, smp.WithDirectives(d))
		require.NoError(t, err)
		got := decodeMap(res)
		for _, e := range got["list"].([]any) {
			delete(e.(map[string]any), "$patchMergeKey") // an old server keeps the directive as a field
		}
		assert.Equal(t, decodeMap([]byte(modified)), got, "%v applier, patch %s", d, out)
	}
}

// applyAll applies a patch with the current applier and with one that
// knows no $patchMergeKey (an old server), and returns both results
// without the directive an old server keeps as a field.
func applyAll(t *testing.T, doc string, patch []byte, dataStruct any) (current, old map[string]any) {
	t.Helper()
	var out [2]map[string]any
	for i, d := range []smp.DirectiveSet{smp.DirectivesAll, smp.DirectivesRetainKeys} {
		res, err := smp.ApplyJSON([]byte(doc), patch, dataStruct, smp.WithDirectives(d))
		require.NoError(t, err, "%v applier, patch %s", d, patch)
		out[i] = decodeMap(res)
		if l, ok := out[i]["list"].([]any); ok {
			for _, e := range l {
				delete(e.(map[string]any), "$patchMergeKey")
			}
		}
	}
	return out[0], out[1]
}

// TestThreeWayDeletionCurrentDoesNotHold: the configuration drops an
// element current no longer holds, while current holds another element of
// its default key. The deletion is left out: an old server would delete
// that other element.
func TestThreeWayDeletionCurrentDoesNotHold(t *testing.T) {
	original := `{"list":[{"foo":"b"},{"foo":"a","bar":"x"}]}`
	modified := `{"list":[{"foo":"b"}]}`
	current := `{"list":[{"foo":"b"},{"foo":"a"}]}`
	out, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &exampletypes.SeedRecommended{}, smp.WithDirectives(smp.DirectivesAll))
	require.NoError(t, err)
	now, old := applyAll(t, current, out, &exampletypes.SeedRecommended{})
	want := decodeMap([]byte(current))
	assert.Equal(t, want, now, "patch %s", out)
	assert.Equal(t, want, old, "old server, patch %s", out)
}

// TestThreeWayDeletesServerFilledElement: the configuration drops a port
// whose protocol the server filled in; the live port is deleted.
func TestThreeWayDeletesServerFilledElement(t *testing.T) {
	original := `{"spec":{"ports":[{"port":1},{"port":2}]}}`
	modified := `{"spec":{"ports":[{"port":2}]}}`
	current := `{"spec":{"ports":[{"port":1,"protocol":"TCP"},{"port":2,"protocol":"TCP"}]}}`
	out, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &exampletypes.Service{}, smp.WithDirectives(smp.DirectivesAll))
	require.NoError(t, err, "no conflict: the server filled the protocol in")
	res, err := smp.ApplyJSON([]byte(current), out, &exampletypes.Service{})
	require.NoError(t, err)
	assert.Equal(t, decodeMap([]byte(`{"spec":{"ports":[{"port":2,"protocol":"TCP"}]}}`)), decodeMap(res), "patch %s", out)
}

// TestSkewSafeThreeWaySharedInResult: another writer added {foo: a}; the
// configuration adds {foo: a, bar: x}. The result would hold two elements
// of default key a, which an old server merges into one: skew-safe mode
// writes the list whole, and both servers agree.
func TestSkewSafeThreeWaySharedInResult(t *testing.T) {
	original := `{"list":[{"foo":"b"}]}`
	modified := `{"list":[{"foo":"a","bar":"x"},{"foo":"b"}]}`
	current := `{"list":[{"foo":"a"}]}`
	_, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &exampletypes.SeedRecommended{}, smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(true))
	require.True(t, smp.IsConflict(err), "writing the list whole drops another writer's element: %v", err)
	out, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &exampletypes.SeedRecommended{}, smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(true), smp.WithOverwrite(true))
	require.NoError(t, err)
	now, old := applyAll(t, current, out, &exampletypes.SeedRecommended{})
	assert.Equal(t, decodeMap([]byte(modified)), now, "patch %s", out)
	assert.ElementsMatch(t, now["list"], old["list"], "old server, patch %s", out)

	// Skew-safe mode is the default with $patchMergeKey.
	dflt, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &exampletypes.SeedRecommended{}, smp.WithDirectives(smp.DirectivesAll), smp.WithOverwrite(true))
	require.NoError(t, err)
	assert.JSONEq(t, string(out), string(dflt))

	// Without skew-safe mode the current applier keeps the other writer's
	// element, and an old one does not: the documented exception.
	out, err = smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &exampletypes.SeedRecommended{}, smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(false), smp.WithOverwrite(true))
	require.NoError(t, err)
	now, old = applyAll(t, current, out, &exampletypes.SeedRecommended{})
	assert.Len(t, now["list"], 3, "patch %s", out)
	assert.Len(t, old["list"], 2, "old server, patch %s", out)
}

// TestTypedThreeWayDeletesServerFilledElement is
// TestThreeWayDeletesServerFilledElement on Go values: the deletion
// follows current's port (protocol filled in by the server), found by
// descending into current alongside the other two.
func TestTypedThreeWayDeletesServerFilledElement(t *testing.T) {
	svc := func(ports ...exampletypes.ServicePort) exampletypes.Service {
		return exampletypes.Service{Spec: exampletypes.ServiceSpec{Ports: ports}}
	}
	original := svc(exampletypes.ServicePort{Port: 1}, exampletypes.ServicePort{Port: 2})
	modified := svc(exampletypes.ServicePort{Port: 2})
	current := svc(exampletypes.ServicePort{Port: 1, Protocol: "TCP"}, exampletypes.ServicePort{Port: 2, Protocol: "TCP"})
	p, err := smp.ThreeWay(original, modified, current, smp.WithDirectives(smp.DirectivesAll))
	require.NoError(t, err, "no conflict: the server filled the protocol in")
	res, err := smp.Apply(current, p)
	require.NoError(t, err)
	assert.Equal(t, svc(exampletypes.ServicePort{Port: 2, Protocol: "TCP"}), res, "patch %v", p)
}
