package bench

import (
	"bytes"

	"github.com/google/go-cmp/cmp"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
)

// sameOnCurrent explains a three-way patch of this engine (ours) that
// differs from Kubernetes' (theirs) inside elements current lacks:
// Kubernetes' patch also carries there the deletions, $retainKeys and
// orders of the original's element, which a server appends with the
// element as they are, while this engine leaves them out. It reports
// whether Kubernetes' applier gives current the same object with either
// patch, directives and nulls aside, and stores no directive with ours.
func sameOnCurrent(theirs, ours, current []byte, schema any) bool {
	clean := withoutNulls(current)
	kr, kerr := k8s.StrategicMergePatch(clean, theirs, schema)
	or, oerr := k8s.StrategicMergePatch(clean, ours, schema)
	if kerr != nil || oerr != nil || bytes.Contains(or, []byte(`"$`)) {
		return false
	}
	krv, err1 := decodeJSON(withoutNulls(kr))
	orv, err2 := decodeJSON(withoutNulls(or))
	return err1 == nil && err2 == nil && cmp.Equal(krv, orv)
}
