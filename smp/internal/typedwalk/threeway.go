package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// ThreeWay is engine.RunThreeWay on typed documents.
func ThreeWay(root goval.Root, o, m, c reflect.Value, cfg *config) (map[string]any, error) {
	sc := goval.GetScratch()
	defer goval.PutScratch(sc)
	docs := &typedDocs{root: root, docs: [3]reflect.Value{o, m, c}, cfg: cfg, sc: sc}
	return engine.RunThreeWay(docs, root.Slot(), cfg)
}

// typedDocs are a three-way patch's Go values, by doc.
type typedDocs struct {
	root goval.Root
	docs [3]reflect.Value
	cfg  *config
	sc   *goval.Scratch
}

func (t *typedDocs) Diff(p engine.ThreeWayPass) (map[string]any, *engine.Differ, error) {
	d := newTDiffer(t.cfg, p.Pass, t.sc)
	d.base.At = t.docs[p.Base]
	defer pairStacks.Put(d.pairs)
	from, to := t.docs[p.From], t.docs[p.To]
	if p.Pass == engine.PassDeletions {
		patch, _, err := d.diffStruct(from, to, t.root.Node, t.root.Slot())
		return patch, d.Differ, err
	}
	patch, err := d.diffRoot(t.root, from, to)
	return patch, d.Differ, err
}

func (t *typedDocs) Narrow(patch map[string]any) error {
	o, c := t.docs[engine.DocOriginal], t.docs[engine.DocCurrent]
	return engine.NarrowDeletions(patch, docOf(o, t.root.Node), docOf(c, t.root.Node), t.root.Slot())
}

func (t *typedDocs) DropEmpty(changed map[string]any) error {
	return engine.DropEmptyChanges(changed, docOf(t.docs[engine.DocOriginal], t.root.Node), t.root.Slot())
}
