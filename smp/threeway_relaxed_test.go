package smp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/fixtures"
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
	res, err := smp.StrategicMergePatch([]byte(current), mustMarshal(p), &fixtures.Pod{})
	require.NoError(t, err)
	assert.Equal(t, decodeMap([]byte(`{"spec":{"containers":[{"name":"web","image":"nginx:2","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}`)), decodeMap(res), "patch %v", p)

	// The configuration drops a key field it had: the port is written anew
	// without it, not lost.
	original = `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"protocol":"UDP","hostPort":1}]}]}}`
	modified = `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"hostPort":1}]}]}}`
	p, err = threeWay(t, original, modified, original)
	require.NoError(t, err)
	res, err = smp.StrategicMergePatch([]byte(original), mustMarshal(p), &fixtures.Pod{})
	require.NoError(t, err)
	assert.Equal(t, decodeMap([]byte(modified)), decodeMap(res), "patch %v", p)
}

// TestThreeWayServerFilledKeyFieldDeletion: the configuration drops a
// field of a port whose protocol the server filled in; the deletion must
// address the live port. (The conflict check still sees the filled-in
// protocol as a change of identity and reports a conflict here: a known
// limitation, so the test overwrites.)
func TestThreeWayServerFilledKeyFieldDeletion(t *testing.T) {
	original := `{"spec":{"ports":[{"port":1,"nodePort":1}]}}`
	modified := `{"spec":{"ports":[{"port":1}]}}`
	current := `{"spec":{"ports":[{"port":1,"protocol":"x","nodePort":1}]}}`
	out, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), &fixtures.Service{}, smp.WithOverwrite(true))
	require.NoError(t, err)
	res, err := smp.StrategicMergePatch([]byte(current), out, &fixtures.Service{})
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
	out, err := smp.ThreeWayJSON([]byte(original), []byte(modified), []byte(modified), &fixtures.SeedRecommended{})
	require.NoError(t, err)
	for _, d := range []smp.DirectiveSet{smp.DirectivesAll, smp.DirectivesRetainKeys} {
		res, err := smp.ApplyJSON([]byte(modified), out, &fixtures.SeedRecommended{}, smp.WithDirectives(d))
		require.NoError(t, err)
		got := decodeMap(res)
		for _, e := range got["list"].([]any) {
			delete(e.(map[string]any), "$patchMergeKey") // an old server keeps the directive as a field
		}
		assert.Equal(t, decodeMap([]byte(modified)), got, "%v applier, patch %s", d, out)
	}
}
