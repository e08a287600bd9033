package engine

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// mergePatches combines the deletions half of a three-way patch (a) with
// its delta half (b) into one patch, as Kubernetes' mergeMap does with
// MergeParallelList off: directives are kept, nulls are kept, the delta
// wins where both set a field, and merge lists are combined by key with
// the deletions last.
func (d *Differ) mergePatches(a, b map[string]any, s slot, at *pathNode) (map[string]any, error) {
	if dir, ok := b[format.KeyPatch]; ok && dir == format.PatchReplace {
		return b, nil
	}
	res := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		res[k] = v
	}
	if rk, ok := b[format.KeyRetainKeys]; ok {
		if ak, ok := res[format.KeyRetainKeys]; ok && !jsonval.Equal(ak, rk) {
			return nil, newError(errpath.ErrRetainKeys, at.Field(format.KeyRetainKeys), "the two halves of a three-way patch disagree on %s", format.KeyRetainKeys)
		}
		res[format.KeyRetainKeys] = rk
	}
	keys := jsonval.SortedKeys(b)
	handled, err := d.mergeOrderedLists(res, b, keys, s, at)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if kind, _ := format.Classify(k); kind == format.DirPatch || kind == format.DirRetainKeys || kind == format.DirSetOrder || handled[k] {
			continue
		}
		if err := d.mergePatchField(res, b, k, s, at); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// mergeOrderedLists merges, into res, the lists b gives a
// $setElementOrder for, ordered by it, and returns the lists it merged.
func (d *Differ) mergeOrderedLists(res, b map[string]any, keys []string, s slot, at *pathNode) (map[string]bool, error) {
	handled := map[string]bool{}
	for _, k := range keys {
		kind, list := format.Classify(k)
		if kind != format.DirSetOrder {
			continue
		}
		// The delta's order wins: where it paired elements on partial keys
		// (ObjList.pair) it names them by their live keys, which the
		// deletions half, written from modified alone, cannot know.
		res[k] = b[k]
		c := s.Child(list)
		al, aok := res[list].([]any)
		bl, bok := b[list].([]any)
		var merged []any
		switch {
		case aok && bok:
			var err error
			if merged, err = d.mergePatchLists(al, bl, c, at.Field(list)); err != nil {
				return nil, err
			}
		case aok:
			merged = al
		case bok:
			merged = d.dropDeletions(bl).([]any)
		default:
			continue
		}
		order, _ := b[k].([]any)
		ks := d.ListKeySet(c)
		ids := patchListIDs(merged, ks, c)
		merged, _ = format.Arrange(merged, ids, format.FirstRanks(patchListIDs(order, ks, c)), format.FirstRanks(patchListIDs(al, ks, c)), format.KubernetesOrder)
		res[list] = merged
		handled[list] = true
	}
	return handled, nil
}

// mergePatchField merges b's field k into res, the other half's patch.
func (d *Differ) mergePatchField(res, b map[string]any, k string, s slot, at *pathNode) error {
	bv := b[k]
	kind, _ := format.Classify(k)
	av, ok := res[k]
	if kind == format.DirDeleteFromList || bv == nil || !ok || jsonval.KindOf(av) != jsonval.KindOf(bv) {
		res[k] = d.dropDeletions(bv)
		return nil
	}
	c := s.Child(k)
	switch bt := bv.(type) {
	case map[string]any:
		if c.Kind() == reflectschema.Atomic || c.Patch.Strategy == reflectschema.Replace {
			res[k] = bv
			return nil
		}
		m, err := d.mergePatches(av.(map[string]any), bt, c, at.Field(k))
		if err != nil {
			return err
		}
		res[k] = m
	case []any:
		if !c.IsMergeList() {
			res[k] = bv
			return nil
		}
		l, err := d.mergePatchLists(av.([]any), bt, c, at.Field(k))
		if err != nil {
			return err
		}
		res[k] = l
		if hasReplaceMarker(bt) {
			// A list the delta replaces whole carries its order; the
			// deletions half's names modified's keys, which the delta may
			// have completed with live ones.
			delete(res, format.PrefixSetOrder+k)
		}
	default:
		res[k] = bv
	}
	return nil
}

// patchListIDs identifies the items of a patch list: scalars by value,
// objects by key, deletion entries apart from the items they delete (so
// they sort after everything).
func patchListIDs(l []any, ks format.KeySet, s slot) []string {
	if !s.IsObjectList() {
		return scalarIDs(l)
	}
	ids := make([]string, len(l))
	for i, e := range l {
		ids[i] = format.IDOf(ks, e)
		if m, ok := e.(map[string]any); ok {
			if _, directive := m[format.KeyPatch]; directive {
				ids[i] = "\x03" + ids[i]
			}
		}
	}
	return ids
}

// mergePatchLists combines two patch lists for one merge list.
func (d *Differ) mergePatchLists(a, b []any, s slot, at *pathNode) ([]any, error) {
	if len(a) == 0 && len(b) == 0 {
		return a, nil
	}
	ks := d.ListKeySet(s)
	aids, bids := patchListIDs(a, ks, s), patchListIDs(b, ks, s)
	merged := make([]any, 0, len(a)+len(b))
	ids := make([]string, 0, len(a)+len(b))
	if s.IsObjectList() {
		// As Kubernetes merges two patch lists: a deletion in the later
		// one drops the earlier one's entries for that key and itself.
		deleted := map[string]bool{}
		var kept []any
		var keptIDs []string
		for i, e := range b {
			m, _ := e.(map[string]any)
			switch m[format.KeyPatch] {
			case format.PatchReplace:
				return b, nil
			case format.PatchDelete:
				if !d.spares(m) {
					deleted[format.IDOf(ks, m)] = true
					continue
				}
				kept = append(kept, e) // with the element it re-creates
				keptIDs = append(keptIDs, bids[i])
			default:
				kept = append(kept, e)
				keptIDs = append(keptIDs, bids[i])
			}
		}
		b, bids = kept, keptIDs
		pos := make(map[string]int, len(a))
		for i, id := range aids {
			if e, ok := a[i].(map[string]any); ok && deleted[format.IDOf(ks, e)] {
				continue
			}
			pos[id] = len(merged)
			merged = append(merged, a[i])
			ids = append(ids, id)
		}
		es := s.Elem()
		for i, e := range b {
			if p, ok := pos[bids[i]]; ok {
				am, aok := merged[p].(map[string]any)
				bm, bok := e.(map[string]any)
				if !aok || !bok {
					merged[p] = e
					continue
				}
				m, err := d.mergePatches(am, bm, es, at.Key(ks.KeyStep(bm)))
				if err != nil {
					return nil, err
				}
				merged[p] = m
				continue
			}
			merged = append(merged, e)
			ids = append(ids, bids[i])
		}
	} else {
		seen := map[string]bool{}
		for _, src := range [2]struct {
			l   []any
			ids []string
		}{{a, aids}, {b, bids}} {
			for i, v := range src.l {
				if !seen[src.ids[i]] {
					seen[src.ids[i]] = true
					merged = append(merged, v)
					ids = append(ids, src.ids[i])
				}
			}
		}
	}
	out, _ := format.Arrange(merged, ids, format.FirstRanks(bids), format.FirstRanks(aids), format.KubernetesOrder)
	return out, nil
}

// dropDeletions removes, as Kubernetes does when it copies a patch value
// into a patch that lacks it, every object marked $patch: delete (a
// modified document holding directives). Replace markers, which only this
// differ writes, stay, and so do the deletions it wrote to re-create an
// element (spares). The value is copied only where something goes.
func (d *Differ) dropDeletions(v any) any {
	out, _ := d.withoutDeletions(v)
	return out
}

// spares reports whether m is a deletion the differ wrote to re-create
// an element (deletionOf).
func (d *Differ) spares(m map[string]any) bool {
	return d.spared != nil && d.spared[reflect.ValueOf(m).Pointer()]
}

func (d *Differ) withoutDeletions(v any) (any, bool) {
	isDeletion := func(e any) bool {
		m, ok := e.(map[string]any)
		return ok && m[format.KeyPatch] == format.PatchDelete && !d.spares(m)
	}
	switch v := v.(type) {
	case map[string]any:
		var out map[string]any
		for k, e := range v {
			w, changed := d.withoutDeletions(e)
			if !changed && !isDeletion(e) {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(v))
				for k2, e2 := range v {
					out[k2] = e2
				}
			}
			if isDeletion(e) {
				delete(out, k)
			} else {
				out[k] = w
			}
		}
		if out != nil {
			return out, true
		}
	case []any:
		out := make([]any, 0, len(v))
		changed := false
		for _, e := range v {
			if isDeletion(e) {
				changed = true
				continue
			}
			w, c := d.withoutDeletions(e)
			changed = changed || c
			out = append(out, w)
		}
		if changed {
			return out, true
		}
	}
	return v, false
}
