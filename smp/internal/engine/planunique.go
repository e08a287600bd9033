package engine

import "github.com/typedpatch/typedpatch/smp/internal/format"

// planUnique plans, without an index, the common merge: no
// $setElementOrder, every patch element a plain merge by the default key
// (so a merge keeps its element's identity), and no identity held twice,
// live or in the patch. It returns the result's positions, or false, having
// planned nothing, for any other list.
func (m *ListPlan) planUnique() ([]int, bool) {
	ks := m.lk.DefaultSet()
	for i := range m.Elems {
		if m.Elems[i].directive != "" || m.Elems[i].ks.Directive {
			return nil, false
		}
	}
	n := m.LiveLen
	ids := make([]string, n, n+len(m.Elems))
	for p := range n {
		ids[p] = m.Items.KeyID(p, ks)
	}
	// A patch naming every live element in its place (values changed in
	// place) needs no map: the loop below never looks an identity up.
	var byID map[string]int
	if m.inPlace(ids) {
		if hasDuplicates(ids) {
			return nil, false // an identity held twice
		}
	} else {
		byID = make(map[string]int, n)
		for p, id := range ids {
			byID[id] = p
			if len(byID) <= p {
				return nil, false // an identity held twice
			}
		}
	}
	// Each patch element's position, and fr, the patch element merged
	// into each position (-1: none). An element naming the live element
	// after the last one matched takes it without a lookup.
	target := make([]int, len(m.Elems))
	fr := make([]int, n+len(m.Elems))
	for p := range fr {
		fr[p] = -1
	}
	next, cursor := n, 0
	for i := range m.Elems {
		id := m.Elems[i].id
		p := cursor
		if p >= n || ids[p] != id {
			var live bool
			if p, live = byID[id]; !live {
				p, next = next, next+1
				byID[id] = p
				ids = append(ids, id)
			}
		}
		if fr[p] >= 0 {
			return nil, false // named twice in the patch
		}
		fr[p], target[i] = i, p
		if p < n {
			cursor = p + 1
		}
	}
	fr = fr[:next]
	sr := make([]int, next)
	for p := range sr {
		sr[p] = p
		if p >= n {
			sr[p] = -1
		}
	}
	for i, p := range target {
		if p >= n {
			m.add(&m.Elems[i])
		} else {
			m.Plan(p, &m.Elems[i], false)
		}
	}
	positions := make([]int, next)
	for p := range positions {
		positions[p] = p
	}
	if m.in.InPatch && next > 0 {
		positions, _ = format.ArrangeRanked(positions, ids, fr, sr, m.Applier.Cfg.Ordering)
	}
	return positions, true
}

// inPlace reports whether the patch names the live elements of identities
// ids, each in its place, and no other.
func (m *ListPlan) inPlace(ids []string) bool {
	if len(m.Elems) != len(ids) {
		return false
	}
	for i := range m.Elems {
		if m.Elems[i].id != ids[i] {
			return false
		}
	}
	return true
}
