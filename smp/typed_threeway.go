package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/jsonwalk"

	"github.com/typedpatch/typedpatch/smp/internal/goval"

	"reflect"
)

// ThreeWay returns the patch that brings current to modified while keeping
// what others changed in current since original (the last applied
// configuration): the patch [ThreeWayJSON] computes from the three values'
// JSON, found by walking the Go values. T is a struct or a pointer to one;
// a nil pointer is the empty object.
//
// A patch that changes a field current also changed since original fails
// with an *Error of kind ErrConflict naming the paths, unless
// WithOverwrite(true).
func ThreeWay[T any](original, modified, current T, opts ...Option) (Patch, error) {
	cfg := newConfig(opts)
	root, err := goval.RootFor(reflect.TypeFor[T]())
	if err != nil {
		return Patch{}, err
	}
	o := root.Value(reflect.ValueOf(any(original)))
	m := root.Value(reflect.ValueOf(any(modified)))
	c := root.Value(reflect.ValueOf(any(current)))
	for _, doc := range [...]struct {
		v    reflect.Value
		what string
	}{{o, "original document"}, {m, "modified document"}, {c, "current document"}} {
		if err := goval.CheckTypedLimits(doc.v, root.Node, cfg.Limits, doc.what); err != nil {
			return Patch{}, err
		}
	}
	if cfg.RepeatReplaced {
		p, err := typedViaJSON(root, cfg, o, m, c)
		return Patch{m: p}, err
	}
	p, err := typedThreeWay(root, o, m, c, cfg)
	if err != nil {
		return Patch{}, err
	}
	return Patch{m: p}, nil
}

// typedThreeWay is runThreeWay on typed documents.
func typedThreeWay(root goval.Root, o, m, c reflect.Value, cfg *config) (map[string]any, error) {
	sc := goval.GetScratch()
	defer goval.PutScratch(sc)
	docs := &typedDocs{root: root, docs: [3]reflect.Value{o, m, c}, cfg: cfg, sc: sc}
	return jsonwalk.RunThreeWay(docs, root.Slot(), cfg)
}

// typedDocs are a three-way patch's Go values, by doc.
type typedDocs struct {
	root goval.Root
	docs [3]reflect.Value
	cfg  *config
	sc   *goval.Scratch
}

func (t *typedDocs) Diff(p jsonwalk.ThreeWayPass) (map[string]any, *jsonwalk.Differ, error) {
	d := &tdiffer{Differ: &jsonwalk.Differ{Cfg: t.cfg, Pass: p.Pass}, Scratch: t.sc, tbase: t.docs[p.Base]}
	from, to := t.docs[p.From], t.docs[p.To]
	if p.Pass == jsonwalk.PassDeletions {
		patch, _, err := d.diffStruct(from, to, t.root.Node, t.root.Slot())
		return patch, d.Differ, err
	}
	patch, err := d.diffRoot(t.root, from, to)
	return patch, d.Differ, err
}

func (t *typedDocs) Narrow(patch map[string]any) error {
	return narrowTyped(patch, t.docs[jsonwalk.DocOriginal], t.docs[jsonwalk.DocCurrent], t.root.Node, t.root.Slot())
}

func (t *typedDocs) DropEmpty(changed map[string]any) error {
	return dropEmptyTyped(changed, t.docs[jsonwalk.DocOriginal], t.root.Node, t.root.Slot())
}
