package engine

import (
	"maps"
	"slices"
	"strconv"

	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// How a three-way patch pairs the elements of merge lists with recommended
// keys across its documents, where a server filled in key fields the
// configuration never set ({containerPort: 80} stored as {containerPort:
// 80, protocol: TCP}): the delta half pairs modified's elements with
// current's (ObjList.pair), the deletions half names the same live
// elements (liveRename), the conflict check pairs the original's with
// current's (pairFilled), and skew-safe mode writes whole a list whose
// result would share a default key (survivorShares).

// pair pairs each modified element with the original element of
// the same identity (-1 for none). In the delta half of a three-way patch
// (current → modified, deletions ignored, base the original's elements) a
// modified element that lacks some recommended key fields also pairs with
// the one live element that has its default key and agrees on every key
// field it does have, if the original never had that live element: a key
// field the server filled in (protocol: TCP) is not a new element. Had the
// original held it, the deletions half removes it and the modified
// element must be created, so it is not paired.
func (x *ObjList) pair() {
	d, oids, mids, ks, base := x.d, x.oids, x.mids, x.ks, x.base
	if x.sameUnique() {
		x.pairs = make([]int, len(mids))
		for i := range x.pairs {
			x.pairs[i] = i
		}
		return
	}
	opos := make(map[string]int, len(oids))
	for i, id := range oids {
		opos[id] = i
	}
	pairs := make([]int, len(mids))
	taken := make([]bool, len(oids))
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
	if unpaired > 0 && ks.Directive && d.KeyedOnly() {
		x.pairFilled(taken)
		return
	}
	if unpaired == 0 || !ks.Directive || d.Pass != PassDelta {
		return // only the delta pass pairs on partial keys
	}
	cands := newAgreeIndex(x.def, ks, x.o)
	for p := range oids {
		if _, inOriginal := base[oids[p]]; !taken[p] && !inOriginal {
			cands.Add(p)
		}
	}
	unpairedM := func(i int) bool { return pairs[i] < 0 }
	cands.claimSole(x.m, len(mids), unpairedM, func(i, p int) { pairs[i] = p })
}

// pairFilled is pair for the changes a three-way patch is checked
// against (original → current, KeyedOnly): an element of the original
// lacking some recommended key fields pairs with the one element of
// current, itself unpaired, that has its default key and agrees on every
// key field it has, and that modified (base) does not hold: the server
// filled in the others, as the delta half sees it. Pairs are made only
// where both sides are unique.
func (x *ObjList) pairFilled(taken []bool) {
	mids, pairs, base := x.mids, x.pairs, x.base
	cands := newAgreeIndex(x.def, x.ks, x.m) // unpaired elements of current
	for i := range mids {
		if _, inModified := base[mids[i]]; pairs[i] < 0 && !inModified {
			cands.Add(i)
		}
	}
	untaken := func(p int) bool { return !taken[p] }
	cands.claimSole(x.o, len(x.oids), untaken, func(p, i int) { pairs[i] = p })
}

// claimSole pairs each seeker (a position of side seek, of n, for which
// seeking holds) with the one candidate that agrees with it, and calls
// pair for each; a candidate two seekers claim pairs with neither.
func (x *agreeIndex) claimSole(seek DiffSide, n int, seeking func(int) bool, pair func(seeker, cand int)) {
	claims := map[int]int{} // candidate → seeker; -1 when claimed twice
	for s := range n {
		if !seeking(s) {
			continue
		}
		if c := x.Sole(seek, s); c >= 0 {
			if _, dup := claims[c]; dup {
				claims[c] = -1
			} else {
				claims[c] = s
			}
		}
	}
	for c, s := range claims {
		if s >= 0 {
			pair(s, c)
		}
	}
}

// liveRename is the deletions half's side of pair: in a three-way
// patch the delta half pairs a modified element lacking some recommended
// key fields with the one live element that has them (a key field the
// server filled in) and names it by the live keys; this half, diffing the
// original against modified, must name that element the same way, or its
// changes would address an element current does not hold. The followed
// document is current. It returns the live element's position in it, or
// -1, for modified's element i.
func (x *ObjList) liveRename(i int) int { return x.renameOf(x.m, i, x.mids[i]) }

// renameOf is liveRename for element p of side s, of identity id.
func (x *ObjList) renameOf(s DiffSide, p int, id string) int {
	d, cands, ks := x.d, &x.renames, x.ks
	if d.Pass != PassDeletions || !ks.Directive || x.base == nil {
		return -1
	}
	if _, exact := x.base[id]; exact {
		return -1
	}
	if *cands == nil {
		// Live elements neither the original nor modified holds, by
		// default key: built once per list.
		taken := idSet(x.oids, x.mids)
		*cands = newAgreeIndex(x.def, ks, x.b)
		for q := range x.b.Count() { // base collapses repeated elements: count each
			if x.b.IsObject(q) && !taken[x.b.KeyID(q, ks)] {
				(*cands).Add(q)
			}
		}
	}
	return (*cands).Sole(s, p) // -1 for none, or two candidates: the delta pairs neither
}

// heldDefaults returns the default keys of base's elements, built on
// first use.
func (x *ObjList) heldDefaults() map[string]bool {
	if x.baseDefaults == nil {
		x.baseDefaults = make(map[string]bool, len(x.base))
		for _, p := range x.base {
			x.baseDefaults[x.b.KeyID(p, x.def)] = true
		}
	}
	return x.baseDefaults
}

// survivorShares reports, for the delta half of a three-way patch (o
// current's list, base the original's elements by identity, b the
// original's list), whether an element of current that the patch keeps,
// being neither the original's nor paired with one of modified's nor the
// server-filled form of one the deletions half deletes (liveRename),
// shares its default key with an element of modified that is new: the
// result would hold both, which a server that knows no $patchMergeKey
// merges into one. Skew-safe mode writes such a list whole.
func (x *ObjList) survivorShares() bool {
	oids, pairs, base, def, ks := x.oids, x.pairs, x.base, x.def, x.ks
	var fresh map[string]bool // default keys of modified's new elements
	for i, p := range pairs {
		if p < 0 {
			if fresh == nil {
				fresh = map[string]bool{}
			}
			fresh[x.m.KeyID(i, def)] = true
		}
	}
	if fresh == nil {
		return false
	}
	taken := make([]bool, len(oids))
	for _, p := range pairs {
		if p >= 0 {
			taken[p] = true
		}
	}
	inM, inC := idSet(x.mids), idSet(oids)
	var doomed []bool    // current's elements the deletions half deletes under filled keys
	var live *agreeIndex // current's elements the original and modified do not hold
	for q := range sideCount(x.b) {
		if id := x.b.KeyID(q, ks); !x.b.IsObject(q) || inM[id] || inC[id] {
			continue
		}
		if live == nil {
			live = newAgreeIndex(def, ks, x.o)
			for p := range oids {
				if _, inOriginal := base[oids[p]]; !inOriginal && !inM[oids[p]] {
					live.Add(p)
				}
			}
		}
		if found := live.Sole(x.b, q); found >= 0 {
			if doomed == nil {
				doomed = make([]bool, len(oids))
			}
			doomed[found] = true
		}
	}
	for p := range oids {
		if _, inOriginal := base[oids[p]]; !taken[p] && !inOriginal && (doomed == nil || !doomed[p]) && fresh[x.o.KeyID(p, def)] {
			return true
		}
	}
	return false
}

// sideCount is a side's length, 0 for none.
func sideCount(s DiffSide) int {
	if s == nil {
		return 0
	}
	return s.Count()
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

// agreeIndex finds, among candidate elements of one side, the one that
// shares a given element's default key and holds every key field of ks
// the given element has, with the same value: one hash lookup per query,
// the candidates indexed once per combination of key fields present.
type agreeIndex struct {
	def, ks format.KeySet
	side    DiffSide
	cands   []agreeCand
	byMask  map[string]map[string]agreeHit
}

type agreeCand struct {
	def string // its identity under the default key
	pos int
}

// agreeHit is the first candidate of a key and how many share it.
type agreeHit struct{ pos, n int }

func newAgreeIndex(def, ks format.KeySet, side DiffSide) *agreeIndex {
	return &agreeIndex{def: def, ks: ks, side: side, byMask: map[string]map[string]agreeHit{}}
}

// Add adds the side's element p as a candidate; every add precedes every
// sole.
func (x *agreeIndex) Add(p int) {
	x.cands = append(x.cands, agreeCand{def: x.side.KeyID(p, x.def), pos: p})
}

// Sole returns the position of the one candidate agreeing with element i
// of side s, or -1 for none or several.
func (x *agreeIndex) Sole(s DiffSide, i int) int {
	mask := make([]byte, len(x.ks.Fields)) // which key fields the element has
	for j, f := range x.ks.Fields {
		if s.HasKeyField(i, f) {
			mask[j] = 1
		}
	}
	g, ok := x.byMask[string(mask)]
	if !ok {
		g = make(map[string]agreeHit, len(x.cands))
		for _, c := range x.cands {
			if k, ok := x.key(x.side, c.pos, c.def, mask); ok {
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
	k, _ := x.key(s, i, s.KeyID(i, x.def), mask)
	if h := g[k]; h.n == 1 {
		return h.pos
	}
	return -1
}

// key is element p of s's default identity and its values of the key
// fields mask selects, each length-prefixed so no two lists of values
// share a key; false if the element lacks one of them.
func (x *agreeIndex) key(s DiffSide, p int, def string, mask []byte) (string, bool) {
	b := strconv.AppendInt(nil, int64(len(def)), 10)
	b = append(append(b, ':'), def...)
	for i, f := range x.ks.Fields {
		if mask[i] == 0 {
			continue
		}
		v, ok := s.KeyField(p, f)
		if !ok {
			return "", false
		}
		k, _ := jsonval.ScalarKey(v)
		b = strconv.AppendInt(b, int64(len(k)), 10)
		b = append(append(b, ':'), k...)
	}
	return string(b), true
}
