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
			patch[k] = d.added(ml, s)
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
	mustReplace := !keyable(ol, def) || !keyable(ml, def) || !d.keyedOnly && !keyedSafe(oids, mids)
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
	// The original's elements by identity, in the delta half of a
	// three-way patch (withBase).
	var baseElems map[string]any
	if bl, ok := d.base.([]any); ok && d.withBase {
		baseElems = make(map[string]any, len(bl))
		for _, e := range bl {
			baseElems[idOf(ks, e)] = e
		}
	}
	pairs := d.pairElements(ol, ml, oids, mids, lk, ks, baseElems)
	// A key change is a deletion and a creation (seed 000). The deletions
	// half of a three-way patch writes the creation too, even when current
	// already holds the element: a server that knows no $patchMergeKey
	// deletes by the default key, which takes the element with it.
	var rekeyed map[string]bool
	if d.ignoreChanges && !d.ignoreDeletions && ks.directive {
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
	var list []any
	var renames map[string][]map[string]any // liveRename's candidates, built on first use
	for i, e := range ml {
		m := e.(map[string]any)
		p := pairs[i]
		if p < 0 {
			if !d.ignoreChanges || rekeyed[idOf(def, m)] {
				list = append(list, withKeyDirective(d.added(m, es).(map[string]any), ks, false))
			}
			continue
		}
		from := ol[p].(map[string]any)
		keyed := from // the live element's keys name it
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
			if !d.ignoreChanges {
				patch[k] = replaceList(ml)
			}
			return nil
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
	if len(ml) > 0 && d.wantSetOrder((!d.ignoreChanges && (len(list) > 0 || !orderSame)) || (!d.ignoreDeletions && len(list) > 0)) {
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
	if !d.keyedOnly && !keyedSafe(oids, mids) {
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
		seen := make(map[string]bool)
		for i, id := range oids {
			if !inM[id] && !seen[id] {
				seen[id] = true
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
	// Kubernetes sorts the original list in place before comparing it with
	// modified, so a reorder into sorted order writes no order and is lost
	// (docs/compat.md); here any change of order writes it.
	if len(ml) > 0 && d.wantSetOrder((!d.ignoreDeletions && len(dels) > 0) || (!d.ignoreChanges && !equalJSON(ol, ml))) {
		patch[prefixSetOrder+k] = ml
	}
	return false, nil
}

// pairElements pairs each modified element with the original element of
// the same identity (-1 for none). In the delta half of a three-way patch
// (current → modified, deletions ignored, base the original's elements) a
// modified element that lacks some recommended key fields also pairs with
// the one live element that has its default key and agrees on every key
// field it does have, if the original never had that live element: a key
// field the server filled in (protocol: TCP) is not a new element. Had the
// original held it, the deletions half removes it and the modified
// element must be created, so it is not paired.
func (d *differ) pairElements(ol, ml []any, oids, mids []string, lk listKeys, ks keySet, base map[string]any) []int {
	opos := make(map[string]int, len(ol))
	for i, id := range oids {
		opos[id] = i
	}
	pairs := make([]int, len(ml))
	taken := make([]bool, len(ol))
	unpaired := 0
	for i, id := range mids {
		p, ok := opos[id]
		if !ok {
			pairs[i] = -1
			unpaired++
			continue
		}
		pairs[i] = p
		taken[p] = true
	}
	if unpaired == 0 || !ks.directive || base == nil || !d.ignoreDeletions || d.ignoreChanges {
		return pairs // only the delta half pairs on partial keys
	}
	def := lk.defaultSet()
	byDefault := map[string][]int{}
	for p, e := range ol {
		if _, inOriginal := base[oids[p]]; !taken[p] && !inOriginal {
			id := idOf(def, e)
			byDefault[id] = append(byDefault[id], p)
		}
	}
	claims := map[int]int{} // live position → modified position; -1 when claimed twice
	for i, e := range ml {
		if pairs[i] >= 0 {
			continue
		}
		m := e.(map[string]any)
		var cand []int
		for _, p := range byDefault[idOf(def, m)] {
			if keysAgree(m, ol[p].(map[string]any), ks.fields) {
				cand = append(cand, p)
			}
		}
		if len(cand) != 1 {
			continue
		}
		if _, dup := claims[cand[0]]; dup {
			claims[cand[0]] = -1
		} else {
			claims[cand[0]] = i
		}
	}
	for p, i := range claims {
		if i >= 0 {
			pairs[i] = p
		}
	}
	return pairs
}

// keysAgree reports whether every key field m has, o has with the same
// value.
func keysAgree(m, o map[string]any, fields []string) bool {
	for _, f := range fields {
		mv, inM := m[f]
		if !inM {
			continue
		}
		ov, inO := o[f]
		if !inO {
			return false
		}
		mk, _ := scalarKey(mv)
		ok, _ := scalarKey(ov)
		if mk != ok {
			return false
		}
	}
	return true
}

// liveRename is the deletions half's side of pairElements: in a three-way
// patch the delta half pairs a modified element lacking some recommended
// key fields with the one live element that has them (a key field the
// server filled in) and names it by the live keys; this half, diffing the
// original against modified, must name that element the same way, or its
// changes would address an element current does not hold. base holds
// current's elements by identity. It returns the live element, or nil.
func (d *differ) liveRename(m map[string]any, mid string, cands *map[string][]map[string]any, oids, mids []string, base map[string]any, lk listKeys, ks keySet) map[string]any {
	if !d.withBase || !d.ignoreChanges || !ks.directive || base == nil {
		return nil
	}
	if _, exact := base[mid]; exact {
		return nil
	}
	def := lk.defaultSet()
	if *cands == nil {
		// Live elements neither the original nor modified holds, by
		// default key: built once per list.
		taken := make(map[string]bool, len(oids)+len(mids))
		for _, id := range oids {
			taken[id] = true
		}
		for _, id := range mids {
			taken[id] = true
		}
		*cands = map[string][]map[string]any{}
		for id, e := range base {
			if l, ok := e.(map[string]any); ok && !taken[id] {
				(*cands)[idOf(def, l)] = append((*cands)[idOf(def, l)], l)
			}
		}
	}
	var found map[string]any
	for _, l := range (*cands)[idOf(def, m)] {
		if !keysAgree(m, l, ks.fields) {
			continue
		}
		if found != nil {
			return nil // two candidates: the delta pairs neither
		}
		found = l
	}
	return found
}
