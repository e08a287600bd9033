package strategicpatch_test

import (
	"errors"
	"strings"
	"testing"

	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/kube/strategicpatch"
	"github.com/typedpatch/typedpatch/smp"
)

// $setElementOrder for a list that is null on either side fails where
// Kubernetes merges the two objects, and only there.
func TestSetElementOrderOnNullListAsKubernetes(t *testing.T) {
	for _, c := range []struct {
		name, live, patch, path string // path "" means no error
	}{
		{"null live set", `{"ports":null}`, `{"$setElementOrder/ports":[1],"ports":[1]}`, "ports"},
		{"null patch list", `{"parts":[{"name":"a"}]}`, `{"$setElementOrder/parts":[{"name":"a"}],"parts":null}`, "parts"},
		{"null live list in a paired element", `{"parts":[{"name":"x"},{"name":"a","parts":null}]}`,
			`{"parts":[{"name":"a","$setElementOrder/parts":[{"name":"b"}],"parts":[{"name":"b"}]}]}`, "parts[0].parts"},
		{"null live list in another element", `{"parts":[{"name":"x","parts":null},{"name":"a"}]}`,
			`{"parts":[{"name":"a","$setElementOrder/parts":[{"name":"b"}],"parts":[{"name":"b"}]}]}`, ""},
		{"an added element", `{"parts":[{"name":"x"}]}`, `{"parts":[{"name":"a","$setElementOrder/parts":[{"name":"b"}],"parts":null}]}`, ""},
		{"absent live list", `{}`, `{"$setElementOrder/ports":[1],"ports":[1]}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, kerr := k8s.StrategicMergePatch([]byte(c.live), []byte(c.patch), widget{})
			_, err := strategicpatch.StrategicMergePatch([]byte(c.live), []byte(c.patch), widget{})
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
			if !errors.As(err, &e) || e.Kind != smp.ErrTypeMismatch || e.Path.String() != c.path || !strings.HasPrefix(err.Error(), c.path+": "+kerr.Error()) {
				t.Errorf("got %v, want a TypeMismatch at %s saying %q", err, c.path, kerr)
			}
		})
	}
}
