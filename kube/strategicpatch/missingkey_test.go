package strategicpatch_test

import (
	"errors"
	"testing"

	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/kube/strategicpatch"
	"github.com/typedpatch/typedpatch/smp"
)

// A merge-list element without its merge key (a zero key left out by
// omitempty) fails where Kubernetes fails, as a MissingMergeKey with its
// path, and passes where Kubernetes never compares the list.
func TestMissingMergeKeyAsKubernetes(t *testing.T) {
	for _, c := range []struct {
		name, op, a, b, cur, path string // path "" means no error
	}{
		{"diff of an unchanged list", "diff", `{"parts":[{"name":"a"},{"value":"v"}]}`, `{"parts":[{"name":"a"},{"value":"v"}]}`, "", "parts[1]"},
		{"diff adding a keyless element", "diff", `{"parts":[{"name":"a"}]}`, `{"parts":[{"name":"a"},{}]}`, "", "parts[1]"},
		{"diff of a nested list", "diff", `{"parts":[{"name":"a","parts":[{}]}]}`, `{"parts":[{"name":"a","parts":[{}],"value":"x"}]}`, "", "parts[0].parts[0]"},
		{"diff adding the whole list", "diff", `{}`, `{"parts":[{}]}`, "", ""},
		{"apply onto a keyless live element", "apply", `{"parts":[{"value":"v"}]}`, `{"parts":[{"name":"a"}]}`, "", "parts[0]"},
		{"apply of a replaced list", "apply", `{"parts":[{"name":"a"}]}`, `{"parts":[{"value":"v"},{"$patch":"replace"}]}`, "", "parts[0]"},
		{"three-way dropping the list", "3way", `{"parts":[{}]}`, `{}`, `{"parts":[{}]}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b, cur := []byte(c.a), []byte(c.b), []byte(c.cur)
			var kerr, err error
			switch c.op {
			case "diff":
				_, kerr = k8s.CreateTwoWayMergePatch(a, b, widget{})
				_, err = strategicpatch.CreateTwoWayMergePatch(a, b, widget{})
			case "apply":
				_, kerr = k8s.StrategicMergePatch(a, b, widget{})
				_, err = strategicpatch.StrategicMergePatch(a, b, widget{})
			default:
				km, _ := k8s.NewPatchMetaFromStruct(widget{})
				um, _ := strategicpatch.NewPatchMetaFromStruct(widget{})
				_, kerr = k8s.CreateThreeWayMergePatch(a, b, cur, km, true)
				_, err = strategicpatch.CreateThreeWayMergePatch(a, b, cur, um, true)
			}
			if (kerr != nil) != (c.path != "") {
				t.Fatalf("the case is wrong: Kubernetes gives %v", kerr)
			}
			if c.path == "" {
				if err != nil {
					t.Errorf("got %v, want no error, as Kubernetes", err)
				}
				return
			}
			var e *smp.Error
			if !errors.As(err, &e) || e.Kind != smp.ErrMissingMergeKey || e.Path.String() != c.path {
				t.Errorf("got %v, want a MissingMergeKey at %s (Kubernetes: %v)", err, c.path, kerr)
			}
		})
	}
}
