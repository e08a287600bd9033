package smp_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

func nested(depth int) string {
	return strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
}

func TestDepthLimit(t *testing.T) {
	// 100,000 levels: refused by the decoder, not a stack overflow.
	_, err := smp.ApplyJSON([]byte(`{}`), []byte(nested(100_000)), &exampletypes.ConfigMap{})
	require.Error(t, err)
	assert.Equal(t, smp.ErrInvalidJSON, smp.KindOf(err), "%v", err)
	// Beyond the configured depth: a limit error with the path.
	_, err = smp.ApplyJSON([]byte(`{}`), []byte(nested(50)), &exampletypes.ConfigMap{}, smp.WithLimits(smp.Limits{MaxDepth: 10}))
	require.Error(t, err)
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err))
	assert.Equal(t, "a.a.a.a.a.a.a.a.a.a.a", err.(*smp.Error).Path.String())
	// Within the default depth: fine.
	_, err = smp.ApplyJSON([]byte(`{}`), []byte(nested(500)), &exampletypes.ConfigMap{})
	require.NoError(t, err)
}

func TestSizeAndLengthLimits(t *testing.T) {
	_, err := smp.ApplyJSON([]byte(`{}`), []byte(`{"data":{"k":"`+strings.Repeat("x", 100)+`"}}`), &exampletypes.ConfigMap{},
		smp.WithLimits(smp.Limits{MaxBytes: 64}))
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err), "%v", err)
	_, err = smp.DiffJSON([]byte(`{"metadata":{"finalizers":["a","b","c"]}}`), []byte(`{}`), &exampletypes.ConfigMap{},
		smp.WithLimits(smp.Limits{MaxListLength: 2}))
	require.Error(t, err)
	assert.Equal(t, smp.ErrLimit, smp.KindOf(err))
	assert.Equal(t, "metadata.finalizers", err.(*smp.Error).Path.String())
}

// TestMapAPINoMutation: the map functions change none of their arguments,
// on success or on error.
func TestMapAPINoMutation(t *testing.T) {
	orig := func() smp.JSONMap {
		return smp.JSONMap{"metadata": map[string]any{"name": "p", "finalizers": []any{"a", "b"}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "1", "ports": []any{map[string]any{"containerPort": int64(80)}}}}}}
	}
	patches := []smp.JSONMap{
		{"metadata": map[string]any{"$deleteFromPrimitiveList/finalizers": []any{"a"}, "finalizers": []any{"z"}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "2"}, map[string]any{"name": "d"}}}},
		{"spec": map[string]any{"containers": []any{map[string]any{"image": "no key"}}}}, // fails
	}
	for i, p := range patches {
		o, pc := orig(), deepCopy(p)
		res, err := smp.ApplyMap(o, p, &exampletypes.Pod{})
		assert.Empty(t, cmp.Diff(orig(), o), "patch %d: original changed", i)
		assert.Empty(t, cmp.Diff(pc, p), "patch %d: patch changed", i)
		if err == nil {
			// The result is the caller's to change: the inputs stay as they were.
			res["metadata"].(map[string]any)["name"] = "changed"
			assert.Empty(t, cmp.Diff(orig(), o), "result shares with the original")
		}
		m, mc := orig(), orig()
		m["metadata"].(map[string]any)["name"] = "q"
		mc["metadata"].(map[string]any)["name"] = "q"
		_, _ = smp.DiffMap(o, m, &exampletypes.Pod{})
		assert.Empty(t, cmp.Diff(orig(), o))
		assert.Empty(t, cmp.Diff(mc, m))
	}
}

func deepCopy(m smp.JSONMap) smp.JSONMap {
	var cp func(v any) any
	cp = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range v {
				out[k] = cp(e)
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, e := range v {
				out[i] = cp(e)
			}
			return out
		}
		return v
	}
	return smp.JSONMap(cp(map[string]any(m)).(map[string]any))
}

// TestConcurrentUse patches several types from many goroutines at once,
// first use of each type's schema included; run under -race.
func TestConcurrentUse(t *testing.T) {
	type job struct {
		typ             any
		original, patch string
		want            string
	}
	jobs := []job{
		{&exampletypes.Pod{}, `{"spec":{"containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"b"}]}}`, `{"spec":{"containers":[{"name":"b"},{"name":"a"}]}}`},
		{&exampletypes.Deployment{}, `{"spec":{"replicas":1}}`, `{"spec":{"replicas":2}}`, `{"spec":{"replicas":2}}`},
		{&exampletypes.Service{}, `{"spec":{"ports":[{"port":80}]}}`, `{"spec":{"ports":[{"port":80,"name":"http"}]}}`, `{"spec":{"ports":[{"name":"http","port":80}]}}`},
		{&exampletypes.Gateway{}, `{}`, `{"metadata":{"name":"g"}}`, `{"metadata":{"name":"g"}}`},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64*len(jobs))
	for i := range 64 {
		for _, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := smp.ApplyJSON([]byte(j.original), []byte(j.patch), j.typ)
				if err == nil && string(out) != j.want {
					err = fmt.Errorf("goroutine %d: got %s, want %s", i, out, j.want)
				}
				if err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
