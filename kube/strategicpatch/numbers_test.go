package strategicpatch

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/mergepatch"
)

// Numbers beyond float64's range make a document invalid, as in
// Kubernetes; numbers it would round are kept; text in strings is no number.
func TestNumbersBeyondFloat64(t *testing.T) {
	bad := []string{
		`{"a":1e400}`, `{"a":[1,-1E+309]}`, `{"a":{"b":1` + strings.Repeat("0", 309) + `}}`,
		`{"s":"\"","n":1e99999}`, `{"a":-` + strings.Repeat("9", 400) + `.5}`,
	}
	good := []string{
		`{"a":1e-400}`, `{"a":1.7976931348623157e308}`, `{"a":"1e400"}`, `{"a":"\\\"1e400"}`,
		`{"a":0.` + strings.Repeat("1", 100000) + `}`, `{"a":` + strings.Repeat("9", 308) + `}`,
		`{"1e400":true}`, `{"a":18446744073709551616}`,
	}
	for _, d := range bad {
		if _, err := StrategicMergePatch([]byte(`{}`), []byte(d), struct{}{}); err != mergepatch.ErrBadJSONDoc {
			t.Errorf("patch %.40s: %v, want ErrBadJSONDoc", d, err)
		}
		if _, err := CreateTwoWayMergePatch([]byte(d), []byte(`{}`), struct{}{}); err != mergepatch.ErrBadJSONDoc {
			t.Errorf("diff from %.40s: %v, want ErrBadJSONDoc", d, err)
		}
		if _, err := CreateThreeWayMergePatch([]byte(`{}`), []byte(`{}`), []byte(d), PatchMetaFromStruct{}, true); err != mergepatch.ErrBadJSONDoc {
			t.Errorf("three-way with current %.40s: %v, want ErrBadJSONDoc", d, err)
		}
	}
	for _, d := range good {
		out, err := StrategicMergePatch([]byte(`{}`), []byte(d), struct{}{})
		if err != nil || string(out) != d {
			t.Errorf("patch %.40s: %.40s %v, want it kept", d, out, err)
		}
	}
}
