package goval

import (
	"reflect"
	"strconv"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// The typed walkers build no path on their way down. An error is made
// with the path below the point that fails (usually none), and each level
// it returns through puts its own step in front: a walk that succeeds
// allocates nothing for paths.

// KeyStepOf renders a merge-list element's key as a path step, as
// format.KeySet.KeyStep does for its JSON.
func KeyStepOf(e reflect.Value, en *Node, ks format.KeySet) errpath.Step {
	s := make(errpath.KeyStep, 0, len(ks.Fields))
	for _, name := range ks.Fields {
		text := "<absent>"
		if j, ok, err := KeyJSON(e, en, name); ok && err == nil {
			text = jsonval.DisplayText(j)
		}
		s = append(s, errpath.KeyField{Name: name, Value: text})
	}
	return s
}

// FmtKey renders a map key for a path.
func FmtKey(k reflect.Value) string {
	switch k.Kind() {
	case reflect.String:
		return k.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10)
	}
	return k.Type().String()
}
