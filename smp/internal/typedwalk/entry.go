package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// Apply merges patch pm into cv, a root value of root's type (invalid for
// the empty object), and returns a pointer to a new root struct holding
// the result; cv and pm are not changed.
func Apply(root goval.Root, cv reflect.Value, pm map[string]any, cfg *config) (reflect.Value, error) {
	return apply(root, cv, pm, cfg, false)
}

// ApplyShared is Apply whose result shares with cv what the patch does
// not reach, unchanged: its cost is that of the parts the patch reaches.
func ApplyShared(root goval.Root, cv reflect.Value, pm map[string]any, cfg *config) (reflect.Value, error) {
	return apply(root, cv, pm, cfg, true)
}

func apply(root goval.Root, cv reflect.Value, pm map[string]any, cfg *config, share bool) (reflect.Value, error) {
	out := reflect.New(root.Node.GoType)
	a := &tapplier{Applier: engine.Applier{Cfg: cfg}}
	a.Share = share
	a.fields = a.fieldBuf[:0]
	defer a.Release()
	keep, err := a.mergeStruct(out.Elem(), cv, pm, root.Node, root.Slot(), nil)
	if err == nil {
		err = a.decodeErr
	}
	if err != nil {
		return reflect.Value{}, err
	}
	if !keep {
		out.Elem().SetZero()
	}
	return out, nil
}

// Diff returns the two-way patch turning o into m, root values of root's
// type (invalid for the empty object).
func Diff(root goval.Root, o, m reflect.Value, cfg *config) (map[string]any, error) {
	d := newTDiffer(cfg, engine.PassTwoWay, goval.GetScratch())
	defer func() { goval.PutScratch(d.Scratch); pairStacks.Put(d.pairs) }()
	return d.diffRoot(root, o, m)
}
