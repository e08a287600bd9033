package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"maps"
	"slices"
	"strconv"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
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
func (x *objList) pair() {
	d, ol, ml, oids, mids, ks, base := x.d, x.ol, x.ml, x.oids, x.mids, x.ks, x.base
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
	x.pairs = pairs
	if unpaired > 0 && ks.Directive && d.keyedOnly() {
		x.pairFilled(taken)
		return
	}
	if unpaired == 0 || !ks.Directive || d.pass != passDelta {
		return // only the delta pass pairs on partial keys
	}
	cands := newAgreeIndex(x.def, ks)
	for p, e := range ol {
		if _, inOriginal := base[oids[p]]; !taken[p] && !inOriginal {
			cands.add(e, p)
		}
	}
	claims := map[int]int{} // live position → modified position; -1 when claimed twice
	for i, e := range ml {
		if pairs[i] >= 0 {
			continue
		}
		if p := cands.sole(e); p >= 0 {
			claim(claims, p, i)
		}
	}
	for p, i := range claims {
		if i >= 0 {
			pairs[i] = p
		}
	}
}

// pairFilled is pairElements for the changes a three-way patch is checked
// against (original → current, keyedOnly): an element of the original
// lacking some recommended key fields pairs with the one element of
// current, itself unpaired, that has its default key and agrees on every
// key field it has, and that modified (base) does not hold: the server
// filled in the others, as the delta half sees it. Pairs are made only
// where both sides are unique.
func (x *objList) pairFilled(taken []bool) {
	ol, ml, mids, pairs, base := x.ol, x.ml, x.mids, x.pairs, x.base
	cands := newAgreeIndex(x.def, x.ks) // unpaired elements of current
	for i, e := range ml {
		if _, inModified := base[mids[i]]; pairs[i] < 0 && !inModified {
			cands.add(e, i)
		}
	}
	claims := map[int]int{} // current position → original position; -1 when claimed twice
	for p, e := range ol {
		if taken[p] {
			continue
		}
		if i := cands.sole(e); i >= 0 {
			claim(claims, i, p)
		}
	}
	for i, p := range claims {
		if p >= 0 {
			pairs[i] = p
		}
	}
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

// liveRename is the deletions half's side of pairElements: in a three-way
// patch the delta half pairs a modified element lacking some recommended
// key fields with the one live element that has them (a key field the
// server filled in) and names it by the live keys; this half, diffing the
// original against modified, must name that element the same way, or its
// changes would address an element current does not hold. base holds
// current's elements by identity. It returns the live element, or nil.
func (x *objList) liveRename(m map[string]any, mid string) map[string]any {
	d, cands, oids, mids, base, ks := x.d, &x.renames, x.oids, x.mids, x.base, x.ks
	if d.pass != passDeletions || !ks.Directive || base == nil {
		return nil
	}
	if _, exact := base[mid]; exact {
		return nil
	}
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
		*cands = newAgreeIndex(x.def, ks)
		bl, _ := d.base.([]any) // base collapses repeated elements: count each
		for p, e := range bl {
			if _, ok := e.(map[string]any); ok && !taken[format.IDOf(ks, e)] {
				(*cands).add(e, p)
			}
		}
	}
	if p := (*cands).sole(m); p >= 0 {
		return d.base.([]any)[p].(map[string]any)
	}
	return nil // none, or two candidates: the delta pairs neither
}

// heldDefaults returns the default keys of base's elements, building the
// set into *set on first use.
func heldDefaults(set *map[string]bool, base map[string]any, def format.KeySet) map[string]bool {
	if *set == nil {
		*set = make(map[string]bool, len(base))
		for _, e := range base {
			(*set)[format.IDOf(def, e)] = true
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
func (x *objList) survivorShares() bool {
	ol, ml, oids, mids, pairs, base, baseList, def, ks := x.ol, x.ml, x.oids, x.mids, x.pairs, x.base, x.d.base, x.def, x.ks
	var fresh map[string]bool // default keys of modified's new elements
	for i, p := range pairs {
		if p < 0 {
			if fresh == nil {
				fresh = map[string]bool{}
			}
			fresh[format.IDOf(def, ml[i])] = true
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
	var live *agreeIndex // current's elements the original and modified do not hold
	for _, o := range bl {
		if id := format.IDOf(ks, o); !isObject(o) || inM[id] || inC[id] {
			continue
		}
		if live == nil {
			live = newAgreeIndex(def, ks)
			for p, e := range ol {
				if _, inOriginal := base[oids[p]]; !inOriginal && !inM[oids[p]] {
					live.add(e, p)
				}
			}
		}
		if found := live.sole(o); found >= 0 {
			if doomed == nil {
				doomed = make([]bool, len(ol))
			}
			doomed[found] = true
		}
	}
	for p, e := range ol {
		if _, inOriginal := base[oids[p]]; !taken[p] && !inOriginal && (doomed == nil || !doomed[p]) && fresh[format.IDOf(def, e)] {
			return true
		}
	}
	return false
}

// withLiveKeys returns ml with each element paired on partial keys
// completed by its live partner's key fields, as the keyed patch would
// name it.
func withLiveKeys(ml, ol []any, pairs []int, ks format.KeySet) []any {
	out := slices.Clone(ml)
	for i, p := range pairs {
		if p < 0 {
			continue
		}
		m, o := ml[i].(map[string]any), ol[p].(map[string]any)
		var c map[string]any
		for _, f := range ks.Fields {
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

func isObject(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

// agreeIndex finds, among candidate elements, the one that shares a given
// element's default key and holds every key field of ks the given element
// has, with the same value (keysAgree): one hash lookup per query, the
// candidates indexed once per combination of key fields present.
type agreeIndex struct {
	def, ks format.KeySet
	cands   []agreeCand
	byMask  map[string]map[string]agreeHit
}

type agreeCand struct {
	m   map[string]any // nil for an element that is not an object
	def string         // its identity under the default key
	pos int
}

// agreeHit is the first candidate of a key and how many share it.
type agreeHit struct{ pos, n int }

func newAgreeIndex(def, ks format.KeySet) *agreeIndex {
	return &agreeIndex{def: def, ks: ks, byMask: map[string]map[string]agreeHit{}}
}

// add adds a candidate at position pos; every add precedes every sole.
func (x *agreeIndex) add(e any, pos int) {
	m, _ := e.(map[string]any)
	x.cands = append(x.cands, agreeCand{m: m, def: format.IDOf(x.def, e), pos: pos})
}

// sole returns the position of the one candidate agreeing with e, or -1
// for none or several.
func (x *agreeIndex) sole(e any) int {
	m, _ := e.(map[string]any)
	mask := make([]byte, len(x.ks.Fields)) // which key fields e has
	for i, f := range x.ks.Fields {
		if _, ok := m[f]; ok {
			mask[i] = 1
		}
	}
	g, ok := x.byMask[string(mask)]
	if !ok {
		g = make(map[string]agreeHit, len(x.cands))
		for _, c := range x.cands {
			if k, ok := x.key(c.m, c.def, mask); ok {
				h := g[k]
				if h.n == 0 {
					h.pos = c.pos
				}
				h.n++
				g[k] = h
			}
		}
		x.byMask[string(mask)] = g
	}
	k, _ := x.key(m, format.IDOf(x.def, e), mask)
	if h := g[k]; h.n == 1 {
		return h.pos
	}
	return -1
}

// key is an element's default identity and its values of the key fields
// mask selects, each length-prefixed so no two lists of values share a
// key; false if the element lacks one of them.
func (x *agreeIndex) key(m map[string]any, def string, mask []byte) (string, bool) {
	b := strconv.AppendInt(nil, int64(len(def)), 10)
	b = append(append(b, ':'), def...)
	for i, f := range x.ks.Fields {
		if mask[i] == 0 {
			continue
		}
		v, ok := m[f]
		if !ok {
			return "", false
		}
		k, _ := jsonval.ScalarKey(v)
		b = strconv.AppendInt(b, int64(len(k)), 10)
		b = append(append(b, ':'), k...)
	}
	return string(b), true
}
