package smp

import (
	"maps"
	"slices"
)

// How a three-way patch pairs the elements of merge lists with recommended
// keys across its documents, where a server filled in key fields the
// configuration never set ({containerPort: 80} stored as {containerPort:
// 80, protocol: TCP}): the delta half pairs modified's elements with
// current's (pairElements), the deletions half names the same live
// elements (liveRename), the conflict check pairs the original's with
// current's (pairFilled), and skew-safe mode writes whole a list whose
// result would share a default key (survivorShares).

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
	if unpaired > 0 && ks.directive && d.keyedOnly {
		d.pairFilled(ol, ml, mids, pairs, taken, lk, ks, base)
		return pairs
	}
	if unpaired == 0 || !ks.directive || !d.withBase || !d.ignoreDeletions || d.ignoreChanges {
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
		if p := soleAgreeing(m, byDefault[idOf(def, m)], ol, ks); p >= 0 {
			claim(claims, p, i)
		}
	}
	for p, i := range claims {
		if i >= 0 {
			pairs[i] = p
		}
	}
	return pairs
}

// pairFilled is pairElements for the changes a three-way patch is checked
// against (original → current, keyedOnly): an element of the original
// lacking some recommended key fields pairs with the one element of
// current, itself unpaired, that has its default key and agrees on every
// key field it has, and that modified (base) does not hold: the server
// filled in the others, as the delta half sees it. Pairs are made only
// where both sides are unique.
func (d *differ) pairFilled(ol, ml []any, mids []string, pairs []int, taken []bool, lk listKeys, ks keySet, base map[string]any) {
	def := lk.defaultSet()
	byDefault := map[string][]int{} // unpaired elements of current
	for i, e := range ml {
		if _, inModified := base[mids[i]]; pairs[i] < 0 && !inModified {
			id := idOf(def, e)
			byDefault[id] = append(byDefault[id], i)
		}
	}
	claims := map[int]int{} // current position → original position; -1 when claimed twice
	for p, e := range ol {
		if taken[p] {
			continue
		}
		o, _ := e.(map[string]any)
		if i := soleAgreeing(o, byDefault[idOf(def, e)], ml, ks); i >= 0 {
			claim(claims, i, p)
		}
	}
	for i, p := range claims {
		if p >= 0 {
			pairs[i] = p
		}
	}
}

// soleAgreeing returns the one position among cands of list l whose
// element has every key field m has, with the same value; -1 for none or
// several.
func soleAgreeing(m map[string]any, cands []int, l []any, ks keySet) int {
	found := -1
	for _, p := range cands {
		if keysAgree(m, l[p].(map[string]any), ks.fields) {
			if found >= 0 {
				return -1
			}
			found = p
		}
	}
	return found
}

// claim records that by claims target; a target claimed twice is marked
// -1 and pairs with neither.
func claim(claims map[int]int, target, by int) {
	if _, dup := claims[target]; dup {
		claims[target] = -1
	} else {
		claims[target] = by
	}
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
		bl, _ := d.base.([]any) // base collapses repeated elements: count each
		for _, e := range bl {
			if l, ok := e.(map[string]any); ok && !taken[idOf(ks, e)] {
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

// heldDefaults returns the default keys of base's elements, building the
// set into *set on first use.
func heldDefaults(set *map[string]bool, base map[string]any, def keySet) map[string]bool {
	if *set == nil {
		*set = make(map[string]bool, len(base))
		for _, e := range base {
			(*set)[idOf(def, e)] = true
		}
	}
	return *set
}

// survivorShares reports, for the delta half of a three-way patch (ol
// current's list, base the original's elements by identity, baseList the
// original's list), whether an element of current that the patch keeps,
// being neither the original's nor paired with one of modified's nor the
// server-filled form of one the deletions half deletes (liveRename),
// shares its default key with an element of modified that is new: the
// result would hold both, which a server that knows no $patchMergeKey
// merges into one. Skew-safe mode writes such a list whole.
func survivorShares(ol, ml []any, oids, mids []string, pairs []int, base map[string]any, baseList any, def, ks keySet) bool {
	var fresh map[string]bool // default keys of modified's new elements
	for i, p := range pairs {
		if p < 0 {
			if fresh == nil {
				fresh = map[string]bool{}
			}
			fresh[idOf(def, ml[i])] = true
		}
	}
	if fresh == nil {
		return false
	}
	taken := make([]bool, len(ol))
	for _, p := range pairs {
		if p >= 0 {
			taken[p] = true
		}
	}
	inM := make(map[string]bool, len(mids))
	for _, id := range mids {
		inM[id] = true
	}
	inC := make(map[string]bool, len(oids))
	for _, id := range oids {
		inC[id] = true
	}
	var doomed []bool // current's elements the deletions half deletes under filled keys
	bl, _ := baseList.([]any)
	for _, o := range bl {
		om, ok := o.(map[string]any)
		if id := idOf(ks, o); !ok || inM[id] || inC[id] {
			continue
		}
		found := -1
		for p, e := range ol {
			if _, inOriginal := base[oids[p]]; inOriginal || inM[oids[p]] ||
				idOf(def, e) != idOf(def, o) || !keysAgree(om, e.(map[string]any), ks.fields) {
				continue
			}
			if found >= 0 {
				found = -2
				break
			}
			found = p
		}
		if found >= 0 {
			if doomed == nil {
				doomed = make([]bool, len(ol))
			}
			doomed[found] = true
		}
	}
	for p, e := range ol {
		if _, inOriginal := base[oids[p]]; !taken[p] && !inOriginal && (doomed == nil || !doomed[p]) && fresh[idOf(def, e)] {
			return true
		}
	}
	return false
}

// withLiveKeys returns ml with each element paired on partial keys
// completed by its live partner's key fields, as the keyed patch would
// name it.
func withLiveKeys(ml, ol []any, pairs []int, ks keySet) []any {
	out := slices.Clone(ml)
	for i, p := range pairs {
		if p < 0 {
			continue
		}
		m, o := ml[i].(map[string]any), ol[p].(map[string]any)
		var c map[string]any
		for _, f := range ks.fields {
			if v, ok := o[f]; ok {
				if _, has := m[f]; !has {
					if c == nil {
						c = maps.Clone(m)
					}
					c[f] = v
				}
			}
		}
		if c != nil {
			out[i] = c
		}
	}
	return out
}
