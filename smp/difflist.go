package smp

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
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
func (d *differ) listKeySet(s slot) keySet {
	lk := keysOf(s)
	if d.cfg.directives.understood(dirPatchMergeKey) {
		return lk.fullSet()
	}
	return lk.defaultSet()
}

// replaceList is the patch list that replaces a list with ml.
func replaceList(ml []any) []any {
	return append(slices.Clone(ml), map[string]any{keyPatch: patchReplace})
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
func keyable(l []any, def keySet) bool {
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if _, complete := def.id(m); !complete {
			return false
		}
	}
	return true
}

// diffObjectList diffs a merge list of objects element by element.
func (d *differ) diffObjectList(patch map[string]any, k string, ol, ml []any, s slot, at *pathNode) error {
	lk := keysOf(s)
	ks := d.listKeySet(s)
	oids, mids := idsUnder(ks, ol), idsUnder(ks, ml)
	def := lk.defaultSet()
	mustReplace := !keyable(ol, def) || !keyable(ml, def) || !d.keyedOnly() && !keyedSafe(oids, mids)
	if !mustReplace && d.cfg.skewSafe && ks.directive && !d.keyedOnly() {
		mustReplace = hasDuplicates(idsUnder(def, ml))
		if !mustReplace && hasDuplicates(idsUnder(def, ol)) {
			// Only the original shares a default key. The deletions half
			// of a three-way patch, which writes no list whole, names
			// elements one by one where current does not share it
			// either: each deletion then addresses one live element on
			// any server, or is left out (below).
			bl, _ := d.base.([]any)
			mustReplace = !d.withBase() || !d.ignoreChanges() || d.ignoreDeletions() || !keyable(bl, def) || hasDuplicates(idsUnder(def, bl))
		}
	}
	if mustReplace {
		if !d.ignoreChanges() && !equalJSON(ol, ml) {
			patch[k] = replaceList(ml)
		}
		return nil
	}
	es := s.Elem()
	// The original's elements by identity, in the delta half of a
	// three-way patch (withBase).
	var baseElems map[string]any
	if bl, ok := d.base.([]any); ok && d.withBase() {
		baseElems = make(map[string]any, len(bl))
		for _, e := range bl {
			baseElems[idOf(ks, e)] = e
		}
	}
	pairs := d.pairElements(ol, ml, oids, mids, lk, ks, baseElems)
	if d.cfg.skewSafe && ks.directive && !d.keyedOnly() && d.withBase() && d.ignoreDeletions() && !d.ignoreChanges() &&
		survivorShares(ol, ml, oids, mids, pairs, baseElems, d.base, def, ks) {
		patch[k] = replaceList(withLiveKeys(ml, ol, pairs, ks))
		return nil
	}
	// A key change is a deletion and a creation (seed 000). The deletions
	// half of a three-way patch writes the creation too, even when current
	// already holds the element: a server that knows no $patchMergeKey
	// deletes by the default key, which takes the element with it.
	var rekeyed map[string]bool
	if d.ignoreChanges() && !d.ignoreDeletions() && ks.directive {
		inM := make(map[string]bool, len(mids))
		for _, id := range mids {
			inM[id] = true
		}
		for j, e := range ol {
			if !inM[oids[j]] {
				if rekeyed == nil {
					rekeyed = map[string]bool{}
				}
				rekeyed[idOf(def, e)] = true
			}
		}
	}
	var list, recreated []any
	var renames *agreeIndex // liveRename's candidates, built on first use
	for i, e := range ml {
		m := e.(map[string]any)
		p := pairs[i]
		if p < 0 {
			if !d.ignoreChanges() || rekeyed[idOf(def, m)] {
				add, whole := d.addedElement(m, es)
				if whole && d.recreates() {
					recreated = append(recreated, d.deletionOf(m, ks))
				} else if whole && !d.ignoreChanges() && !d.keyedOnly() {
					patch[k] = replaceList(ml)
					return nil
				}
				// The delta half may have paired this element with a
				// live one whose key fields the server filled in: the
				// creation names that element, as its order entry does.
				if live := d.liveRename(m, mids[i], &renames, oids, mids, baseElems, lk, ks); live != nil {
					add = maps.Clone(add)
					for _, f := range ks.fields {
						if v, ok := live[f]; ok {
							add[f] = v
						}
					}
				}
				list = append(list, withKeyDirective(add, ks, false))
			}
			continue
		}
		from := ol[p].(map[string]any)
		keyed := from // the live element's keys name it
		filled := d.keyedOnly() && oids[p] != mids[i]
		if filled {
			keyed = m // paired by pairFilled: current's keys name it
		}
		baseElem := baseElems[mids[i]]
		if live := d.liveRename(m, mids[i], &renames, oids, mids, baseElems, lk, ks); live != nil {
			keyed, baseElem = live, live
		}
		restore := d.descend(baseElem)
		sub, up, err := d.diffObject(from, m, es, at.key(ks.step(m)))
		restore()
		if err != nil {
			return err
		}
		if up {
			if !d.ignoreChanges() {
				patch[k] = replaceList(ml)
			}
			return nil
		}
		if filled {
			for _, f := range ks.fields {
				delete(sub, f) // key fields the server filled in are no change
			}
		}
		if len(sub) > 0 {
			for _, f := range ks.fields {
				if v, ok := keyed[f]; ok {
					sub[f] = v
				}
			}
			list = append(list, withKeyDirective(sub, ks, true))
		}
	}
	inModified := make(map[string]bool, len(ml))
	for _, id := range mids {
		inModified[id] = true
	}
	var deletions []any
	var baseDefaults map[string]bool // current's default keys, built on first use
	if !d.ignoreDeletions() {
		paired := make([]bool, len(ol)) // by pairFilled, under other keys
		for _, p := range pairs {
			if p >= 0 {
				paired[p] = true
			}
		}
		for i, e := range ol {
			if inModified[oids[i]] || paired[i] {
				continue
			}
			m := e.(map[string]any)
			if baseElems != nil && ks.directive && d.ignoreChanges() {
				// The deletions half of a three-way patch, for an element
				// current does not hold under this identity: delete the
				// live element whose key fields the server filled in;
				// else, where current holds another element of the same
				// default key, write nothing (a no-op here, but a server
				// that knows no $patchMergeKey would delete that one).
				if _, held := baseElems[oids[i]]; !held {
					if live := d.liveRename(m, oids[i], &renames, oids, mids, baseElems, lk, ks); live != nil {
						m = live
					} else if heldDefaults(&baseDefaults, baseElems, def)[idOf(def, m)] {
						continue
					}
				}
			}
			del := map[string]any{keyPatch: patchDelete}
			for _, f := range ks.fields {
				if v, ok := m[f]; ok {
					del[f] = v
				}
			}
			deletions = append(deletions, withKeyDirective(del, ks, true))
		}
	}
	list = append(list, sortDeletions(append(deletions, recreated...), ks)...)
	if len(list) > 0 {
		patch[k] = list
	}
	orderSame := slices.Equal(oids, mids)
	if len(ml) > 0 && d.wantSetOrder((!d.ignoreChanges() && (len(list) > 0 || !orderSame)) || (!d.ignoreDeletions() && len(list) > 0)) {
		order := make([]any, len(ml))
		for i, e := range ml {
			m := e.(map[string]any)
			if pairs[i] >= 0 {
				// A pair made on partial keys names the live element, as
				// the patch list does.
				m = ol[pairs[i]].(map[string]any)
			}
			entry := make(map[string]any, len(ks.fields)+1)
			for _, f := range ks.fields {
				if v, ok := m[f]; ok {
					entry[f] = v
				}
			}
			order[i] = withKeyDirective(entry, ks, true)
		}
		patch[prefixSetOrder+k] = order
	}
	return nil
}

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
func (d *differ) deletionOf(m map[string]any, ks keySet) map[string]any {
	del := map[string]any{keyPatch: patchDelete}
	for _, f := range ks.fields {
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
func sortDeletions(dels []any, ks keySet) []any {
	slices.SortStableFunc(dels, func(a, b any) int {
		return cmp.Compare(sortText(a.(map[string]any)[ks.fields[0]]), sortText(b.(map[string]any)[ks.fields[0]]))
	})
	return dels
}

func (d *differ) wantSetOrder(changed bool) bool {
	return changed && d.setOrder() && d.cfg.directives.understood(dirSetOrder)
}

// withKeyDirective adds $patchMergeKey naming every key of a directive key
// set; owned says m may be changed in place.
func withKeyDirective(m map[string]any, ks keySet, owned bool) map[string]any {
	if !ks.directive {
		return m
	}
	if !owned {
		c := make(map[string]any, len(m)+1)
		for k, v := range m {
			c[k] = v
		}
		m = c
	}
	names := make([]any, len(ks.fields))
	for i, f := range ks.fields {
		names[i] = f
	}
	m[keyPatchMergeKey] = names
	return m
}
