package engine

import (
	"cmp"
	"reflect"
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// DiffList writes into patch what turns merge list ol into ml: the patch
// list under k, and the $deleteFromPrimitiveList and $setElementOrder
// parallel lists. replaceUp asks for the enclosing object to be replaced.
func (d *Differ) DiffList(patch map[string]any, k string, ol, ml []any, s slot, at *pathNode) (replaceUp bool, err error) {
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
		if len(ml) > 0 {
			return AddFieldOf(d, decoded{ml}, &patch, k, &s) // as when the list is absent
		}
		return false, nil
	}
	if s.IsObjectList() {
		return false, d.DiffObjectList(patch, k, ol, ml, s, at)
	}
	return d.DiffScalarList(patch, k, ol, ml)
}

// ListKeySet is the key set the differ identifies elements by: every
// recommended key when it may write $patchMergeKey, else the default key.
func (d *Differ) ListKeySet(s slot) format.KeySet {
	lk := format.KeysOf(s)
	if d.Cfg.Directives.Understood(format.DirPatchMergeKey) {
		return lk.FullSet()
	}
	return lk.DefaultSet()
}

// ReplaceList is the patch list that replaces a list with ml.
func ReplaceList(ml []any) []any {
	return append(slices.Clone(ml), map[string]any{format.KeyPatch: format.PatchReplace})
}

// keyedSafe reports whether a keyed patch can turn a list with identities
// oids into one with mids: modified holds each identity once, and an
// identity the original holds several times is gone from modified (a
// deletion removes every copy; nothing can remove just some).
func keyedSafe(oids, mids []string) bool {
	if len(mids) > smallIDs {
		return countIn(oids, mids).safe()
	}
	if hasDuplicates(mids) {
		return false
	}
	for _, id := range mids {
		n := 0
		for _, o := range oids {
			if o == id {
				n++
			}
		}
		if n > 1 {
			return false
		}
	}
	return true
}

// smallIDs is the most identities a list's checks scan rather than map.
const smallIDs = 8

// idCounts maps each identity of modified to how often the original holds
// it; dup says modified holds one twice.
type idCounts struct {
	inM map[string]int
	dup bool
}

// countIn counts, for each identity of mids, its occurrences in oids.
func countIn(oids, mids []string) idCounts {
	c := idCounts{inM: make(map[string]int, len(mids))}
	for _, id := range mids {
		if _, ok := c.inM[id]; ok {
			c.dup = true
		}
		c.inM[id] = 0
	}
	for _, id := range oids {
		if n, ok := c.inM[id]; ok {
			c.inM[id] = n + 1
		}
	}
	return c
}

// safe is keyedSafe on counted identities.
func (c idCounts) safe() bool {
	if c.dup {
		return false
	}
	for _, n := range c.inM {
		if n > 1 {
			return false
		}
	}
	return true
}

// idSet is the set of the identities in lists.
func idSet(lists ...[]string) map[string]bool {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	set := make(map[string]bool, n)
	for _, l := range lists {
		for _, id := range l {
			set[id] = true
		}
	}
	return set
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

// DiffObjectList diffs a merge list of objects element by element.
func (d *Differ) DiffObjectList(patch map[string]any, k string, ol, ml []any, s slot, at *pathNode) error {
	w := d.jsonElemsAt()
	defer func() { *w = jsonElems{}; d.elemsUsed-- }()
	*w = jsonElems{d: d, ol: ol, ml: ml, es: s.Elem(), ks: d.ListKeySet(s), at: at}
	var b DiffSide
	if bl, ok := d.Base.At.([]any); ok {
		w.bl = bl
		b = &w.bl
	}
	x := d.NewObjList(w, &w.ol, &w.ml, b, s)
	return x.Diff(patch, k)
}

// jsonElems is the JSON differ's side of ObjList: elements are decoded
// JSON objects.
type jsonElems struct {
	d          *Differ
	ol, ml, bl jsonItems // bl, the followed document's list, or nil
	es         slot
	ks         format.KeySet
	at         *pathNode
	// level is the path level of the element being diffed. Errors and
	// conflicts render their path when made, so one level serves every
	// element in turn.
	level pathNode
}

// jsonElemsAt returns the walker for a list at the next depth of nesting;
// the caller clears it and decrements elemsUsed when done.
func (d *Differ) jsonElemsAt() *jsonElems {
	d.elemsUsed++
	if d.elemsUsed == 1 {
		return &d.elem0
	}
	if d.elemsUsed-1 > len(d.elems) {
		d.elems = append(d.elems, &jsonElems{})
	}
	return d.elems[d.elemsUsed-2]
}

func (w *jsonElems) DiffElem(p, i, b int) (map[string]any, bool, error) {
	m := w.ml[i].(map[string]any)
	var be any
	if b >= 0 {
		be = w.bl[b]
	}
	defer w.d.Base.Restore(w.d.Base.Descend(be))
	// The element's path names it only if an error asks; w, this depth's
	// walker, keeps its key set until the element is diffed.
	return w.d.DiffObject(w.ol[p].(map[string]any), m, w.es, w.at.KeyedIn(&w.level, &w.ks, m))
}

func (w *jsonElems) Added(i int) (map[string]any, error) { return w.ml[i].(map[string]any), nil }

func (w *jsonElems) Lists(bool) (ol, ml []any, err error) { return w.ol, w.ml, nil }

func (w *jsonElems) Equal() bool { return jsonval.Equal([]any(w.ol), []any(w.ml)) }

// recreates says that a new element that must be replaced whole (a set in
// it holds a value twice) is written as its deletion plus its creation:
// the applier deletes first, so applying the patch again gives the same
// element, and the elements the patch does not name stay. So do two-way
// patches and the delta half of a three-way patch (whose merge keeps
// these deletions: spared). The changes a three-way patch is checked
// against write the creation alone.
func (d *Differ) recreates() bool { return !d.KeyedOnly() && !d.IgnoreChanges() }

// deletionOf is the deletion that goes with the re-creation of element m,
// named by key set ks.
func (d *Differ) deletionOf(m map[string]any, ks format.KeySet) map[string]any {
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
	return WithKeyDirective(del, ks, true)
}

// sortDeletions sorts deletions as Kubernetes lists them: by the text of
// the (first) merge key.
func sortDeletions(dels []any, ks format.KeySet) []any {
	slices.SortStableFunc(dels, func(a, b any) int {
		return cmp.Compare(jsonval.SortText(a.(map[string]any)[ks.Fields[0]]), jsonval.SortText(b.(map[string]any)[ks.Fields[0]]))
	})
	return dels
}

func (d *Differ) wantSetOrder(changed bool) bool {
	return changed && d.setOrder() && d.Cfg.Directives.Understood(format.DirSetOrder)
}

// WantListOrder reports whether a merge list of objects gets its
// $setElementOrder: when the pass's patch changed the list, or, for a
// pass that writes changes and additions, when its order changed.
func (d *Differ) WantListOrder(changed, orderSame bool) bool {
	return d.wantSetOrder((!d.IgnoreChanges() && (changed || !orderSame)) || (!d.ignoreDeletions() && changed))
}

// WithKeyDirective adds $patchMergeKey naming every key of a directive key
// set; owned says m may be changed in place.
func WithKeyDirective(m map[string]any, ks format.KeySet, owned bool) map[string]any {
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
