package smp

import (
	"cmp"
	"slices"
)

// diffList writes into patch what turns merge list ol into ml: the patch
// list under k, and the $deleteFromPrimitiveList and $setElementOrder
// parallel lists. replaceUp asks for the enclosing object to be replaced.
func (d *differ) diffList(patch map[string]any, k string, ol, ml []any, s slot, at *pathNode) (replaceUp bool, err error) {
	if len(ol) == 0 {
		if len(ml) > 0 && !d.ignoreChanges {
			if s.isObjectList() && hasDuplicates(idsUnder(d.listKeySet(s), ml)) {
				patch[k] = replaceList(ml)
			} else {
				patch[k] = ml
			}
		}
		return false, nil
	}
	if s.isObjectList() {
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
	mustReplace := !keyable(ol, def) || !keyable(ml, def) || hasDuplicates(oids) || hasDuplicates(mids)
	if !mustReplace && d.cfg.skewSafe && ks.directive {
		mustReplace = hasDuplicates(idsUnder(def, ol)) || hasDuplicates(idsUnder(def, ml))
	}
	if mustReplace {
		if !d.ignoreChanges && !equalJSON(ol, ml) {
			patch[k] = replaceList(ml)
		}
		return nil
	}
	es := s.elem()
	opos := make(map[string]int, len(ol))
	for i, id := range oids {
		opos[id] = i
	}
	inModified := make(map[string]bool, len(ml))
	var list []any
	for i, e := range ml {
		m := e.(map[string]any)
		inModified[mids[i]] = true
		p, found := opos[mids[i]]
		if !found {
			if !d.ignoreChanges {
				list = append(list, withKeyDirective(m, ks, false))
			}
			continue
		}
		sub, up, err := d.diffObject(ol[p].(map[string]any), m, es, at.key(ks.step(m)))
		if err != nil {
			return err
		}
		if up {
			if !d.ignoreChanges {
				patch[k] = replaceList(ml)
			}
			return nil
		}
		if len(sub) > 0 {
			for _, f := range ks.fields {
				if v, ok := m[f]; ok {
					sub[f] = v
				}
			}
			list = append(list, withKeyDirective(sub, ks, true))
		}
	}
	var deletions []any
	if !d.ignoreDeletions {
		for i, e := range ol {
			if inModified[oids[i]] {
				continue
			}
			m := e.(map[string]any)
			del := map[string]any{keyPatch: patchDelete}
			for _, f := range ks.fields {
				if v, ok := m[f]; ok {
					del[f] = v
				}
			}
			deletions = append(deletions, withKeyDirective(del, ks, true))
		}
		// Kubernetes lists deletions sorted by the text of the merge key.
		slices.SortStableFunc(deletions, func(a, b any) int {
			return cmp.Compare(sortText(a.(map[string]any)[ks.fields[0]]), sortText(b.(map[string]any)[ks.fields[0]]))
		})
	}
	list = append(list, deletions...)
	if len(list) > 0 {
		patch[k] = list
	}
	orderSame := slices.Equal(oids, mids)
	if d.wantSetOrder((!d.ignoreChanges && (len(list) > 0 || !orderSame)) || (!d.ignoreDeletions && len(list) > 0)) {
		order := make([]any, len(ml))
		for i, e := range ml {
			m := e.(map[string]any)
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

func (d *differ) wantSetOrder(changed bool) bool {
	return changed && d.setOrder && d.cfg.directives.understood(dirSetOrder)
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

// diffScalarList diffs a merge list of scalars as a set: additions in the
// patch list, removals in $deleteFromPrimitiveList.
func (d *differ) diffScalarList(patch map[string]any, k string, ol, ml []any) (bool, error) {
	oids, mids := scalarIDs(ol), scalarIDs(ml)
	if hasDuplicates(oids) || hasDuplicates(mids) {
		// A set cannot say how many times a value occurs.
		return !d.ignoreChanges && !equalJSON(ol, ml), nil
	}
	inO := make(map[string]bool, len(ol))
	for _, id := range oids {
		inO[id] = true
	}
	inM := make(map[string]bool, len(ml))
	var adds []any
	for i, id := range mids {
		inM[id] = true
		if !inO[id] && !d.ignoreChanges {
			adds = append(adds, ml[i])
		}
	}
	var dels []any
	if !d.ignoreDeletions {
		for i, id := range oids {
			if !inM[id] {
				dels = append(dels, ol[i])
			}
		}
		slices.SortStableFunc(dels, func(a, b any) int { return cmp.Compare(sortText(a), sortText(b)) })
	}
	if len(adds) > 0 {
		patch[k] = adds
	}
	if len(dels) > 0 {
		patch[prefixDeleteFromList+k] = dels
	}
	// Kubernetes sorts the original list in place before this comparison,
	// so a modified list equal to the sorted original writes no order.
	sortedO := slices.Clone(ol)
	slices.SortStableFunc(sortedO, func(a, b any) int { return cmp.Compare(sortText(a), sortText(b)) })
	if d.wantSetOrder((!d.ignoreDeletions && len(dels) > 0) || (!d.ignoreChanges && !equalJSON(sortedO, ml))) {
		patch[prefixSetOrder+k] = ml
	}
	return false, nil
}
