package strategicpatch

import (
	"encoding/json"

	"github.com/typedpatch/typedpatch/smp"
)

// marshalMap encodes a caller's object as JSON after measuring it against
// the default limits (smp.CheckSize): a map that reaches one value along
// many paths would cost encoding/json time exponential in its depth, and
// is an *smp.Error of kind smp.ErrLimit instead.
func marshalMap(m map[string]interface{}, what string) ([]byte, error) {
	if err := smp.CheckSize(m, smp.DefaultLimits(), what); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}
