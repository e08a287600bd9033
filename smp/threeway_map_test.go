package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// ThreeWayMap gives ThreeWayJSON's patch, or its error, on every
// three-way example of the seed documents, under both overwrite modes,
// and leaves its arguments as they were.
func TestThreeWayMapIsThreeWayJSON(t *testing.T) {
	cases, err := fixtures.SeedCases()
	require.NoError(t, err)
	n := 0
	for _, c := range cases {
		if c.Operation != fixtures.OpThreeWay {
			continue
		}
		n++
		typ, ok := exampletypes.Lookup(c.Type)
		require.True(t, ok, c.Type)
		for _, overwrite := range []bool{false, true} {
			opt := smp.WithOverwrite(overwrite)
			o, m, cur := mustJSON(t, c.Original), mustJSON(t, c.Modified), mustJSON(t, c.Current)
			want, wantErr := smp.ThreeWayJSON(o, m, cur, typ, opt)

			// Decoded as Kubernetes' JSONMaps often are, numbers as json.Number.
			args := [3]smp.JSONMap{decodeMap(o), decodeMap(m), decodeMap(cur)}
			before := [3]smp.JSONMap{decodeMap(o), decodeMap(m), decodeMap(cur)}
			got, gotErr := smp.ThreeWayMap(args[0], args[1], args[2], typ, opt)
			if diff := cmp.Diff(before, args); diff != "" {
				t.Errorf("%s: ThreeWayMap changed its arguments (-before +after):\n%s", c, diff)
			}
			if wantErr != nil {
				if assert.Error(t, gotErr, c.String()) {
					assert.Equal(t, wantErr.Error(), gotErr.Error(), c.String())
					assert.Equal(t, smp.KindOf(wantErr), smp.KindOf(gotErr), c.String())
				}
				continue
			}
			require.NoError(t, gotErr, c.String())
			assert.Equal(t, anyOf(t, want), anyOf(t, mustJSON(t, got)), "%s overwrite=%v", c, overwrite)
		}
	}
	require.NotZero(t, n, "no three-way examples")
}

// A change current made that the patch would undo is a conflict, named by
// its path, unless overwriting; the patch then brings the field to
// modified's value.
func TestThreeWayMapConflict(t *testing.T) {
	original := smp.JSONMap{"spec": map[string]any{"nodeName": "a", "containers": []any{map[string]any{"name": "web", "image": "web:1"}}}}
	modified := smp.JSONMap{"spec": map[string]any{"nodeName": "b", "containers": []any{map[string]any{"name": "web", "image": "web:1"}}}}
	current := smp.JSONMap{"spec": map[string]any{"nodeName": "c", "containers": []any{map[string]any{"name": "web", "image": "web:1"}}}}

	_, err := smp.ThreeWayMap(original, modified, current, exampletypes.Pod{}, smp.WithOverwrite(false))
	require.Error(t, err)
	assert.True(t, smp.IsConflict(err), "%v", err)
	assert.Contains(t, err.Error(), "spec.nodeName")

	patch, err := smp.ThreeWayMap(original, modified, current, exampletypes.Pod{}, smp.WithOverwrite(true))
	require.NoError(t, err)
	assert.Equal(t, smp.JSONMap{"spec": map[string]any{"nodeName": "b"}}, patch)
}

// A value JSON cannot hold is an error naming where it is.
func TestThreeWayMapBadValue(t *testing.T) {
	_, err := smp.ThreeWayMap(smp.JSONMap{}, smp.JSONMap{}, smp.JSONMap{"spec": map[string]any{"x": make(chan int)}}, exampletypes.Pod{})
	require.Error(t, err)
	assert.Equal(t, "spec.x: chan int is not a JSON value", err.Error())
}

// anyOf decodes JSON for comparison, numbers as float64.
func anyOf(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}
