package strategicpatch_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/typedpatch/typedpatch/kube/strategicpatch"
	"github.com/typedpatch/typedpatch/smp"
)

// A map holding the same map under two keys at each of forty levels
// stands for 2^40 leaves; Kubernetes' map functions would hand it to
// encoding/json, which walks every path. Here each is an smp.ErrLimit
// error at once.
func TestMapFunctionsMeasureSharedMaps(t *testing.T) {
	m := map[string]interface{}{"v": "leaf"}
	for range 40 {
		m = map[string]interface{}{"l": m, "r": m}
	}
	doc := strategicpatch.JSONMap{"metadata": map[string]interface{}{"annotations": m}}
	plain := strategicpatch.JSONMap{"kind": "Pod"}
	meta := strategicpatch.PatchMetaFromStruct{T: reflect.TypeOf(sharedDoc{})}
	calls := map[string]func() error{
		"CreateTwoWayMergeMapPatch": func() error {
			_, err := strategicpatch.CreateTwoWayMergeMapPatch(doc, plain, sharedDoc{})
			return err
		},
		"StrategicMergeMapPatch": func() error {
			_, err := strategicpatch.StrategicMergeMapPatch(plain, doc, sharedDoc{})
			return err
		},
		"MergingMapsHaveConflicts": func() error {
			_, err := strategicpatch.MergingMapsHaveConflicts(plain, doc, meta)
			return err
		},
		"MergeStrategicMergeMapPatchUsingLookupPatchMeta": func() error {
			_, err := strategicpatch.MergeStrategicMergeMapPatchUsingLookupPatchMeta(meta, plain, doc)
			return err
		},
	}
	for name, call := range calls {
		done := make(chan error, 1)
		go func() { done <- call() }()
		select {
		case err := <-done:
			assert.Equal(t, smp.ErrLimit, smp.KindOf(err), "%s: %v", name, err)
		case <-time.After(time.Minute):
			t.Fatalf("%s: no answer in a minute", name)
		}
	}
}

type sharedDoc struct {
	Kind     string         `json:"kind,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}
