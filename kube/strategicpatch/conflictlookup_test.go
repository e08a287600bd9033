package strategicpatch_test

import (
	"testing"

	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/kube/strategicpatch"
)

// Without overwrite, a three-way patch deleting from a set that current
// also deleted from fails with Kubernetes' lookup error, at any depth;
// with overwrite, or when only one side deletes, it succeeds as there.
func TestDeletionsFromOneSetAsKubernetes(t *testing.T) {
	km, _ := k8s.NewPatchMetaFromStruct(widget{})
	um, _ := strategicpatch.NewPatchMetaFromStruct(widget{})
	for _, c := range []struct{ name, o, m, cur string }{
		{"both delete", `{"ports":[1,2,3]}`, `{"ports":[1,2]}`, `{"ports":[1,3]}`},
		{"both delete in an element", `{"parts":[{"name":"a","ports":[1,2,3]}]}`, `{"parts":[{"name":"a","ports":[1,2]}]}`, `{"parts":[{"name":"a","ports":[1,3]}]}`},
		{"only the patch deletes", `{"ports":[1,2,3]}`, `{"ports":[1,2]}`, `{"ports":[1,2,3,4]}`},
		{"deletions from two sets", `{"ports":[1,2],"parts":[{"name":"a","ports":[5,6]}]}`, `{"ports":[1],"parts":[{"name":"a","ports":[5,6]}]}`, `{"ports":[1,2],"parts":[{"name":"a","ports":[5]}]}`},
	} {
		for _, overwrite := range []bool{false, true} {
			kp, kerr := k8s.CreateThreeWayMergePatch([]byte(c.o), []byte(c.m), []byte(c.cur), km, overwrite)
			up, uerr := strategicpatch.CreateThreeWayMergePatch([]byte(c.o), []byte(c.m), []byte(c.cur), um, overwrite)
			if (kerr == nil) != (uerr == nil) || kerr != nil && kerr.Error() != uerr.Error() {
				t.Errorf("%s, overwrite %v: got %s %v, Kubernetes %s %v", c.name, overwrite, up, uerr, kp, kerr)
			}
		}
	}
}
