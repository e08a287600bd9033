package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"cmp"
	"reflect"
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// diffList writes into patch what turns merge list ol into ml: the patch
// list under k, and the $deleteFromPrimitiveList and $setElementOrder
// parallel lists. replaceUp asks for the enclosing object to be replaced.
func (d *differ) diffList(patch map[string]any, k string, ol, ml []any, s slot, at *pathNode) (replaceUp bool, err error) {
	if !s.IsObjectList() {
		// Apply would refuse the patch (Kubernetes' ErrNoListOfLists).
		if err := scalarsOnly(ol, at); err != nil {
			return false, err
		}
		if err := scalarsOnly(ml, at); err != nil {
			return false, err
		}
	}
	if len(ol) == 0 {
		if len(ml) > 0 && !d.ignoreChanges() {
			if setWithDuplicates(ml, s) {
				return true, nil // as when the list is absent: a set cannot say it
			}
			patch[k] = d.added(ml, s)
		}
		return false, nil
	}
	if s.IsObjectList() {
		return false, d.diffObjectList(patch, k, ol, ml, s, at)
	}
	return d.diffScalarList(patch, k, ol, ml)
}

// listKeySet is the key set the differ identifies elements by: every
// recommended key when it may write $patchMergeKey, else the default key.
func (d *differ) listKeySet(s slot) format.KeySet {
	lk := format.KeysOf(s)
	if d.cfg.directives.Understood(format.DirPatchMergeKey) {
		return lk.FullSet()
	}
	return lk.DefaultSet()
}

// replaceList is the patch list that replaces a list with ml.
func replaceList(ml []any) []any {
	return append(slices.Clone(ml), map[string]any{format.KeyPatch: format.PatchReplace})
}

// keyedSafe reports whether a keyed patch can turn a list with identities
// oids into one with mids: modified holds each identity once, and an
// identity the original holds several times is gone from modified (a
// deletion removes every copy; nothing can remove just some).
func keyedSafe(oids, mids []string) bool {
	if hasDuplicates(mids) {
		return false
	}
	inM := make(map[string]bool, len(mids))
	for _, id := range mids {
		inM[id] = true
	}
	count := make(map[string]int, len(oids))
	for _, id := range oids {
		count[id]++
		if count[id] > 1 && inM[id] {
			return false
		}
	}
	return true
}

func hasDuplicates(ids []string) bool {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return true
		}
		seen[id] = true
	}
	return false
}

// keyable reports whether every element is an object carrying every
// field of the default key.
func keyable(l []any, def format.KeySet) bool {
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if _, complete := def.ID(m); !complete {
			return false
		}
	}
	return true
}

// diffObjectList diffs a merge list of objects element by element.
func (d *differ) diffObjectList(patch map[string]any, k string, ol, ml []any, s slot, at *pathNode) error {
	w := d.jsonElemsAt()
	defer func() { *w = jsonElems{}; d.elemsUsed-- }()
	*w = jsonElems{d: d, ol: ol, ml: ml, es: s.Elem(), ks: d.listKeySet(s), at: at}
	var b diffSide
	if bl, ok := d.base.([]any); ok {
		w.bl = bl
		b = &w.bl
	}
	x := d.newObjList(w, &w.ol, &w.ml, b, s)
	return x.diff(patch, k)
}

// jsonElems is the JSON differ's side of objList: elements are decoded
// JSON objects.
type jsonElems struct {
	d          *differ
	ol, ml, bl jsonItems // bl, the followed document's list, or nil
	es         slot
	ks         format.KeySet
	at         *pathNode
}

// jsonElemsAt returns the walker for a list at the next depth of nesting;
// the caller clears it and decrements elemsUsed when done.
func (d *differ) jsonElemsAt() *jsonElems {
	d.elemsUsed++
	if d.elemsUsed == 1 {
		return &d.elem0
	}
	if d.elemsUsed-1 > len(d.elems) {
		d.elems = append(d.elems, &jsonElems{})
	}
	return d.elems[d.elemsUsed-2]
}

func (w *jsonElems) diffElem(p, i, b int) (map[string]any, bool, error) {
	m := w.ml[i].(map[string]any)
	var be any
	if b >= 0 {
		be = w.bl[b]
	}
	restore := w.d.descend(be)
	defer restore()
	return w.d.diffObject(w.ol[p].(map[string]any), m, w.es, w.at.Key(w.ks.KeyStep(m)))
}

func (w *jsonElems) added(i int) (map[string]any, error) { return w.ml[i].(map[string]any), nil }

func (w *jsonElems) lists() (ol, ml []any, err error) { return w.ol, w.ml, nil }

func (w *jsonElems) equal() (bool, error) { return jsonval.Equal([]any(w.ol), []any(w.ml)), nil }

// recreates says that a new element that must be replaced whole (a set in
// it holds a value twice) is written as its deletion plus its creation:
// the applier deletes first, so applying the patch again gives the same
// element, and the elements the patch does not name stay. So do two-way
// patches and the delta half of a three-way patch (whose merge keeps
// these deletions: spared). The changes a three-way patch is checked
// against write the creation alone.
func (d *differ) recreates() bool { return !d.keyedOnly() && !d.ignoreChanges() }

// deletionOf is the deletion that goes with the re-creation of element m,
// named by key set ks.
func (d *differ) deletionOf(m map[string]any, ks format.KeySet) map[string]any {
	del := map[string]any{format.KeyPatch: format.PatchDelete}
	for _, f := range ks.Fields {
		if v, ok := m[f]; ok {
			del[f] = v
		}
	}
	if d.ignoreDeletions() {
		if d.spared == nil {
			d.spared = map[uintptr]bool{}
		}
		d.spared[reflect.ValueOf(del).Pointer()] = true
	}
	return withKeyDirective(del, ks, true)
}

// sortDeletions sorts deletions as Kubernetes lists them: by the text of
// the (first) merge key.
func sortDeletions(dels []any, ks format.KeySet) []any {
	slices.SortStableFunc(dels, func(a, b any) int {
		return cmp.Compare(jsonval.SortText(a.(map[string]any)[ks.Fields[0]]), jsonval.SortText(b.(map[string]any)[ks.Fields[0]]))
	})
	return dels
}

func (d *differ) wantSetOrder(changed bool) bool {
	return changed && d.setOrder() && d.cfg.directives.Understood(format.DirSetOrder)
}

// wantListOrder reports whether a merge list of objects gets its
// $setElementOrder: when the pass's patch changed the list, or, for a
// pass that writes changes and additions, when its order changed.
func (d *differ) wantListOrder(changed, orderSame bool) bool {
	return d.wantSetOrder((!d.ignoreChanges() && (changed || !orderSame)) || (!d.ignoreDeletions() && changed))
}

// withKeyDirective adds $patchMergeKey naming every key of a directive key
// set; owned says m may be changed in place.
func withKeyDirective(m map[string]any, ks format.KeySet, owned bool) map[string]any {
	if !ks.Directive {
		return m
	}
	if !owned {
		c := make(map[string]any, len(m)+1)
		for k, v := range m {
			c[k] = v
		}
		m = c
	}
	names := make([]any, len(ks.Fields))
	for i, f := range ks.Fields {
		names[i] = f
	}
	m[format.KeyPatchMergeKey] = names
	return m
}
