package smp

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// deepCopied returns a deep copy of cv, the struct current holds, made by
// its type's DeepCopyInto (as Kubernetes generates it for its types) and
// then fixed to be the copy Apply promises (goval.FixPlainCopy), for
// Apply to merge into in place; false when the type has no DeepCopyInto
// or the copy cannot be fixed.
func deepCopied[T any](root goval.Root, cv reflect.Value, current T) (reflect.Value, bool) {
	if !cv.IsValid() || !goval.PlainCopies(root.Node) {
		return reflect.Value{}, false
	}
	var out reflect.Value
	switch root.Ptrs {
	case 0:
		c, ok := any(&current).(interface{ DeepCopyInto(*T) })
		if !ok {
			return reflect.Value{}, false
		}
		o := new(T)
		c.DeepCopyInto(o)
		out = reflect.ValueOf(o).Elem()
	case 1:
		c, ok := any(current).(interface{ DeepCopyInto(T) })
		if !ok {
			return reflect.Value{}, false
		}
		out = reflect.New(root.Node.GoType)
		o, _ := reflect.TypeAssert[T](out)
		c.DeepCopyInto(o)
		out = out.Elem()
	default:
		return reflect.Value{}, false
	}
	if !goval.FixPlainCopy(root.Node, out) {
		return reflect.Value{}, false
	}
	return out, true
}
