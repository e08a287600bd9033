package engine

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Differ computes a patch from one document to another, the way
// Kubernetes' diffMaps does, in one of the passes below.
type Differ struct {
	Cfg  *Config
	Pass Pass
	// Base is, in a three-way pass, the value at the current position of
	// the third document the pass follows (see Pass).
	Base Base[any]
	// spared holds the deletions the delta pass wrote to re-create an
	// element (deletionOf), which merging the passes keeps.
	spared map[uintptr]bool
	// elem0 and elems are the walkers of ObjList, one per depth of nested
	// lists, reused from list to list (jsonElemsAt).
	elem0     jsonElems
	elems     []*jsonElems
	elemsUsed int
	// pairs are DiffObject's readers while it runs (pairAt).
	pairs *jsonPairs
	lists jsonval.Boxes // the patch's lists, boxed a block at a time
}

// Pass names what a differ computes. A two-way patch is one Pass; a
// three-way patch is made of three, each following the third document
// alongside the two it compares.
type Pass uint8

const (
	// PassTwoWay: original → modified, all of it, with $setElementOrder.
	PassTwoWay Pass = iota
	// PassDelta: current → modified, changes and additions only; it
	// follows the original, which ObjList.pair consults.
	PassDelta
	// PassDeletions: original → modified, deletions only; it follows
	// current.
	PassDeletions
	// PassChanges: original → current, for the conflict check, key by key
	// (never a list replaced for duplicates, as Kubernetes describes
	// them); it follows modified.
	PassChanges
	// PassCompare: two patches compared by PatchesConflict; no order.
	PassCompare
)

// IgnoreChanges leaves out additions and changes (the deletions pass).
func (d *Differ) IgnoreChanges() bool { return d.Pass == PassDeletions }

// ignoreDeletions leaves out deletions (the delta pass).
func (d *Differ) ignoreDeletions() bool { return d.Pass == PassDelta }

// setOrder writes $setElementOrder for changed merge lists.
func (d *Differ) setOrder() bool { return d.Pass <= PassDeletions }

// KeyedOnly never falls back to replacing a list or object when
// duplicates make a keyed patch lossy (the changes pass).
func (d *Differ) KeyedOnly() bool { return d.Pass == PassChanges }

// WithBase reports whether the pass follows a third document (base).
func (d *Differ) WithBase() bool { return d.Pass >= PassDelta && d.Pass <= PassChanges }

// DiffObject returns the patch turning om into mm (DiffObjectOf).
// replaceUp asks the caller to replace the whole object: a list inside it
// cannot be patched key by key (a list of scalars holding duplicates).
func (d *Differ) DiffObject(om, mm map[string]any, s slot, at *pathNode) (patch map[string]any, replaceUp bool, err error) {
	p := d.pairAt()
	p.d, p.om, p.mm, p.s, p.at = d, om, mm, s, at
	p.keys = jsonval.AppendSortedKeys(p.keys[:0], mm)
	p.i, p.nm, p.shared = 0, len(p.keys), 0
	patch, replaceUp, err = DiffObjectOf(d, p, &s)
	d.donePair(p)
	if patch == nil && err == nil && !replaceUp {
		patch = map[string]any{}
	}
	return patch, replaceUp, err
}

// ReplaceObject is the patch that sets an object to m whatever it was.
func ReplaceObject(m map[string]any) map[string]any {
	r := make(map[string]any, len(m)+1)
	for k, v := range m {
		r[k] = v
	}
	r[format.KeyPatch] = format.PatchReplace
	return r
}
