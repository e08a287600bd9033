package engine

import (
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// CheckPreconditions runs the WithPreconditions functions on a patch.
func CheckPreconditions(patch map[string]any, fns []func(any) bool) error {
	if len(fns) == 0 {
		return nil
	}
	goPatch := jsonval.ToGo(patch)
	for _, fn := range fns {
		if fn != nil && !fn(goPatch) {
			return &errpath.Error{Kind: errpath.ErrPreconditionFailed, Msg: "precondition failed for the patch"}
		}
	}
	return nil
}
