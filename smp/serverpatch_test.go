package smp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// A JSON patch changes list elements one by one, found by their full
// merge key: 53/TCP and 53/UDP are two ports, not one.
func TestJSONPatchPerElement(t *testing.T) {
	live := `{"spec":{"containers":[{"name":"a","image":"1"},{"name":"dns","ports":[{"containerPort":53,"protocol":"TCP","name":"dns-tcp"},{"containerPort":53,"protocol":"UDP","name":"dns"}]},{"name":"c"}]}}`
	patch := `{"spec":{"containers":[{"$patch":"delete","name":"a"},{"name":"dns","ports":[{"$patchMergeKey":["containerPort","protocol"],"containerPort":53,"protocol":"UDP","name":"dns-udp"}]},{"name":"new","image":"2"}]}}`
	jp, err := smp.JSONPatchJSON([]byte(live), []byte(patch), exampletypes.Pod{})
	require.NoError(t, err)
	// a is removed, so dns and c move up one place; the merge puts new
	// after dns, its neighbour in the patch.
	require.JSONEq(t, `[
		{"op":"remove","path":"/spec/containers/0"},
		{"op":"replace","path":"/spec/containers/0/ports/1/name","value":"dns-udp"},
		{"op":"add","path":"/spec/containers/1","value":{"name":"new","image":"2"}}]`, string(jp))
}

// Elements that change places are removed and added again, in one pass:
// the operations are right, if not the fewest.
func TestJSONPatchReorder(t *testing.T) {
	live := `{"metadata":{"finalizers":["a","b","c"]},"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}}`
	patch := `{"spec":{"$setElementOrder/containers":[{"name":"c"},{"name":"b"},{"name":"a"}]},"metadata":{"$setElementOrder/finalizers":["b","c","a"]}}`
	jp, err := smp.JSONPatchJSON([]byte(live), []byte(patch), exampletypes.Pod{})
	require.NoError(t, err)
	require.JSONEq(t, `[
		{"op":"remove","path":"/metadata/finalizers/0"},
		{"op":"add","path":"/metadata/finalizers/2","value":"a"},
		{"op":"remove","path":"/spec/containers/2"},
		{"op":"remove","path":"/spec/containers/1"},
		{"op":"add","path":"/spec/containers/0","value":{"name":"c"}},
		{"op":"add","path":"/spec/containers/1","value":{"name":"b"}}]`, string(jp))
}

// Keys are escaped as RFC 6901 says: "~" as "~0", "/" as "~1".
func TestJSONPatchEscapes(t *testing.T) {
	live := `{"metadata":{"labels":{"a/b":"1","c~d":"2","~1":"3"}}}`
	patch := `{"metadata":{"labels":{"a/b":null,"c~d":"x","~1":"y","e/~f":"4"}}}`
	jp, err := smp.JSONPatchJSON([]byte(live), []byte(patch), exampletypes.Pod{})
	require.NoError(t, err)
	require.JSONEq(t, `[
		{"op":"remove","path":"/metadata/labels/a~1b"},
		{"op":"replace","path":"/metadata/labels/c~0d","value":"x"},
		{"op":"add","path":"/metadata/labels/e~1~0f","value":"4"},
		{"op":"replace","path":"/metadata/labels/~01","value":"y"}]`, string(jp))
}

func TestServerPatchesResourceVersion(t *testing.T) {
	live := []byte(`{"metadata":{"name":"x","resourceVersion":"5"},"spec":{"nodeName":"a"}}`)
	patch := []byte(`{"spec":{"nodeName":"b"}}`)
	mp, err := smp.MergePatchJSON(live, patch, exampletypes.Pod{})
	require.NoError(t, err)
	require.JSONEq(t, `{"metadata":{"resourceVersion":"5"},"spec":{"nodeName":"b"}}`, string(mp))
	jp, err := smp.JSONPatchJSON(live, patch, exampletypes.Pod{})
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"test","path":"/metadata/resourceVersion","value":"5"},{"op":"replace","path":"/spec/nodeName","value":"b"}]`, string(jp))

	off := smp.WithResourceVersionCheck(false)
	mp, err = smp.MergePatchJSON(live, patch, exampletypes.Pod{}, off)
	require.NoError(t, err)
	require.JSONEq(t, `{"spec":{"nodeName":"b"}}`, string(mp))
	jp, err = smp.JSONPatchJSON(live, patch, exampletypes.Pod{}, off)
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"replace","path":"/spec/nodeName","value":"b"}]`, string(jp))

	// No resourceVersion, no precondition.
	mp, err = smp.MergePatchJSON([]byte(`{"spec":{"nodeName":"a"}}`), patch, exampletypes.Pod{})
	require.NoError(t, err)
	require.JSONEq(t, `{"spec":{"nodeName":"b"}}`, string(mp))

	// A patch that deletes the resourceVersion, as a diff to a
	// configuration without one does, leaves it to the precondition.
	mp, err = smp.MergePatchJSON(live, []byte(`{"metadata":{"resourceVersion":null},"spec":{"nodeName":"b"}}`), exampletypes.Pod{})
	require.NoError(t, err)
	require.JSONEq(t, `{"metadata":{"resourceVersion":"5"},"spec":{"nodeName":"b"}}`, string(mp))
	jp, err = smp.JSONPatchJSON(live, []byte(`{"metadata":{"resourceVersion":null},"spec":{"nodeName":"b"}}`), exampletypes.Pod{})
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"test","path":"/metadata/resourceVersion","value":"5"},{"op":"replace","path":"/spec/nodeName","value":"b"}]`, string(jp))

	// A patch that sets another resourceVersion would fail on the server.
	for _, bad := range []string{`{"metadata":{"resourceVersion":"4"}}`, `{"metadata":{"name":"y","resourceVersion":"6"}}`, `{"metadata":null}`} {
		for name, f := range map[string]func([]byte, []byte, any, ...smp.Option) ([]byte, error){"merge": smp.MergePatchJSON, "json": smp.JSONPatchJSON} {
			_, err := f(live, []byte(bad), exampletypes.Pod{})
			var e *smp.Error
			require.True(t, errors.As(err, &e), "%s %s: %v", name, bad, err)
			require.Equal(t, smp.ErrInvalidValue, e.Kind)
			require.Equal(t, "metadata.resourceVersion", e.Path.String())
			_, err = f(live, []byte(bad), exampletypes.Pod{}, off)
			require.NoError(t, err, "%s %s without the check", name, bad)
		}
	}
}

// Errors are the strategic merge patch's, with their paths; inputs are
// not changed.
func TestServerPatchesErrors(t *testing.T) {
	_, err := smp.MergePatchJSON([]byte(`{"spec":`), []byte(`{}`), exampletypes.Pod{})
	require.Equal(t, smp.ErrInvalidJSON, smp.KindOf(err))
	_, err = smp.JSONPatchJSON([]byte(`{}`), []byte(`{"spec":{"containers":[{"image":"x"}]}}`), exampletypes.Pod{})
	var e *smp.Error
	require.True(t, errors.As(err, &e))
	require.Equal(t, smp.ErrMissingMergeKey, e.Kind)
	require.Equal(t, "spec.containers[0]", e.Path.String())
	_, err = smp.JSONPatchJSON([]byte(`{}`), []byte(`{}`), 42)
	require.Equal(t, smp.ErrSchema, smp.KindOf(err))
	_, err = smp.JSONPatch(exampletypes.Pod{}, mustPatch(t, `{"spec":{"containers":[{"image":"x"}]}}`))
	require.Equal(t, smp.ErrMissingMergeKey, smp.KindOf(err))
}

func mustPatch(t *testing.T, s string) smp.Patch {
	t.Helper()
	p, err := smp.ParsePatch([]byte(s))
	require.NoError(t, err)
	return p
}

// The typed forms take a field that encodes as null for an absent one,
// and leave the live value alone.
func TestServerPatchesTyped(t *testing.T) {
	live := &exampletypes.Deployment{ObjectMeta: exampletypes.ObjectMeta{Name: "web", ResourceVersion: "3", Labels: map[string]string{"a": "1"}}}
	live.Spec.Template.Spec.Containers = []exampletypes.Container{{Name: "web", Image: "nginx:1", Args: []string{"-v"}}}
	before, err := json.Marshal(live)
	require.NoError(t, err)
	patch := mustPatch(t, `{"metadata":{"labels":{"a":null}},"spec":{"template":{"spec":{"containers":[{"name":"web","args":null}]}}}}`)
	mp, err := smp.MergePatch(live, patch)
	require.NoError(t, err)
	require.JSONEq(t, `{"metadata":{"labels":null,"resourceVersion":"3"},"spec":{"template":{"spec":{"containers":[{"image":"nginx:1","name":"web","resources":{}}]}}}}`, string(mp))
	jp, err := smp.JSONPatch(live, patch)
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"test","path":"/metadata/resourceVersion","value":"3"},{"op":"remove","path":"/metadata/labels"},{"op":"remove","path":"/spec/template/spec/containers/0/args"}]`, string(jp))
	after, err := json.Marshal(live)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))
	// A nil pointer is the empty object; the result is a Deployment,
	// whose struct fields encode even when empty.
	jp, err = smp.JSONPatch((*exampletypes.Deployment)(nil), mustPatch(t, `{"metadata":{"name":"x"}}`))
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"add","path":"/metadata","value":{"name":"x"}},{"op":"add","path":"/spec","value":{"strategy":{},"template":{"metadata":{},"spec":{}}}},{"op":"add","path":"/status","value":{}}]`, string(jp))
}

// Paths are written in full for each operation, so a long key above many
// changed fields would make the output quadratic: past a multiple of the
// input's size, the operations replace the changed top-level fields
// whole. Long lists moved end to first cost one pass too.
func TestGrowthServerPatches(t *testing.T) {
	longKey := func(n int) (live, patch []byte) {
		key := strings.Repeat("k", n)
		l, p := map[string]any{}, map[string]any{}
		for i := range n {
			l[fmt.Sprint(i)] = 0
			p[fmt.Sprint(i)] = 1
		}
		live, _ = json.Marshal(map[string]any{"metadata": map[string]any{"resourceVersion": "1"}, "extra": map[string]any{key: l}})
		patch, _ = json.Marshal(map[string]any{"extra": map[string]any{key: p}})
		return live, patch
	}
	live, patch := longKey(3)
	jp, err := smp.JSONPatchJSON(live, patch, exampletypes.Pod{}, smp.WithMergeUnknown(true))
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"test","path":"/metadata/resourceVersion","value":"1"},{"op":"replace","path":"/extra/kkk/0","value":1},{"op":"replace","path":"/extra/kkk/1","value":1},{"op":"replace","path":"/extra/kkk/2","value":1}]`, string(jp))
	requireLinear(t, 500, func(n int) func() error {
		live, patch := longKey(n)
		return func() error {
			jp, err := smp.JSONPatchJSON(live, patch, exampletypes.Pod{}, smp.WithMergeUnknown(true))
			if err == nil && len(jp) > 8*(len(live)+len(patch))+1<<17 {
				err = fmt.Errorf("%d bytes of operations for %d bytes of input", len(jp), len(live)+len(patch))
			}
			return err
		}
	})
	requireLinear(t, 2000, func(n int) func() error {
		var cs, order []map[string]any
		for i := range n {
			cs = append(cs, map[string]any{"name": fmt.Sprint(i)})
			order = append(order, map[string]any{"name": fmt.Sprint((i + 1) % n)})
		}
		live, _ := json.Marshal(map[string]any{"spec": map[string]any{"containers": cs}})
		patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"$setElementOrder/containers": order}})
		return func() error {
			_, err := smp.JSONPatchJSON(live, patch, exampletypes.Pod{})
			return err
		}
	})
}
