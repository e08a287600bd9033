package ctrlpatch_test

import (
	"errors"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/typedpatch/typedpatch/ctrlpatch"
	"github.com/typedpatch/typedpatch/smp"
)

// TestEngineErrorsAreSMPErrors: an error of the engine reaches the
// caller of Data as an *smp.Error, with its kind and path.
func TestEngineErrorsAreSMPErrors(t *testing.T) {
	sch := widgetSchema(t)
	refuse := ctrlpatch.WithEngineOptions(smp.WithPreconditions(func(any) bool { return false }))
	shallow := ctrlpatch.WithEngineOptions(smp.WithLimits(smp.Limits{MaxDepth: 2}))
	live := widget()
	live.SetResourceVersion("1")
	modified := live.DeepCopy()
	modified.SetLabels(map[string]string{"a": "b"})
	changed := deployment()
	changed.Spec.Template.Spec.Containers[0].Image = "dns:2"
	deepest := smp.Path{smp.FieldStep("spec"), smp.FieldStep("containers"), smp.IndexStep(0)}
	for name, c := range map[string]struct {
		patch    client.Patch
		modified client.Object
		kind     smp.ErrorKind
		path     smp.Path
	}{
		"strategic": {ctrlpatch.StrategicMergeFrom(deployment(), refuse), changed, smp.ErrPreconditionFailed, nil},
		"merge":     {ctrlpatch.MergeFrom(live, sch, shallow), modified, smp.ErrLimit, deepest},
		"json":      {ctrlpatch.JSONPatchFrom(live, sch, shallow), modified, smp.ErrLimit, deepest},
	} {
		_, err := c.patch.Data(c.modified)
		var e *smp.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: want an *smp.Error, got %T %v", name, err, err)
		}
		if e.Kind != c.kind || e.Path.String() != c.path.String() {
			t.Errorf("%s: want kind %s at %s, got %v", name, c.kind, c.path, err)
		}
	}
}
