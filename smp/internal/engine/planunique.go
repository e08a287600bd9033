package engine

import (
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// planUnique plans, without an index, the common merge: every patch
// element a plain merge or a deletion by the default key (so a merge
// keeps its element's identity), $setElementOrder's entries by the
// default key too, no identity held twice, live or among the patch's
// merges, no live element both deleted and merged, and, with
// $setElementOrder, not both deletions and additions (Kubernetes then
// orders against a view where additions fill the freed places). It
// returns the plan, or false, having planned nothing, for any other list.
func (m *ListPlan) planUnique() (Planned, bool) {
	deletes, ok := m.uniqueShape()
	if !ok {
		return Planned{}, false
	}
	n, ks := m.LiveLen, m.lk.DefaultSet()
	// One allocation for the integers: the targets, each position's patch
	// element, the positions kept, their live ranks and their last steps.
	m.ints = make([]int, len(m.Elems)+4*(n+len(m.Elems)))
	// One allocation for the identities: the live ones and those added
	// (ids), then $setElementOrder's.
	idBuf := make([]string, n+len(m.Elems)+len(m.orderEntries))
	ids := idBuf[: n : n+len(m.Elems)]
	keyIDs(m.Items, ks, ids)
	// A patch merging into every live element in its place (values
	// changed in place) and a short list need no map.
	var look idLookup
	if (!deletes && m.inPlace(ids)) || n <= smallLookup {
		if hasDuplicates(ids) {
			return Planned{}, false // an identity held twice
		}
	} else if !look.index(ids) {
		return Planned{}, false
	}
	var deleted []bool
	if deletes {
		deleted = make([]bool, n)
		for i := range m.Elems {
			if pe := &m.Elems[i]; pe.directive == format.PatchDelete {
				if p, ok := look.find(ids, pe.id); ok {
					deleted[p] = true
				}
			}
		}
	}
	target, fr, ids, added, ok := m.uniqueTargets(ids, &look, deleted)
	if !ok || m.in.hasSetOrder && added && slices.Contains(deleted, true) {
		return Planned{}, false
	}
	for i, p := range target {
		switch {
		case p < 0:
		case p >= n:
			m.add(&m.Elems[i])
		default:
			m.Plan(p, &m.Elems[i], false)
		}
	}
	positions, sr, fr, ids := survivors(n, deleted, fr, ids, m.takeInts(len(fr))[:0], m.takeInts(len(fr))[:0])
	pl := Planned{Ops: m.Ops, Last: m.last, LiveLen: n, Done: len(m.Ops)}
	var orderIDs []string
	if m.in.hasSetOrder {
		if orderIDs, pl.Err = m.orderIDs(idBuf[n+len(m.Elems):]); pl.Err != nil {
			return pl, true
		}
	}
	// A $setElementOrder that lists the result as it stands (the common
	// order: the live one, additions last) leaves it so, whatever order
	// the patch list gives: ordering by it undoes any arrangement.
	inOrder := m.in.hasSetOrder && slices.Equal(ids, orderIDs)
	if m.in.InPatch && len(positions) > 0 && !inOrder {
		positions, ids = format.ArrangeRanked(positions, ids, fr, sr, m.Applier.Cfg.Ordering)
	}
	if m.in.hasSetOrder && !inOrder {
		positions = m.setOrder(positions, ids, sr, orderIDs)
	}
	pl.Positions = positions
	return pl, true
}

// uniqueShape reports whether planUnique may take the list by its
// directives, and whether the patch deletes.
func (m *ListPlan) uniqueShape() (deletes, ok bool) {
	for i := range m.Elems {
		pe := &m.Elems[i]
		switch {
		case pe.ks.Directive:
			return false, false
		case pe.directive == format.PatchDelete:
			if pe.unread {
				return false, false
			}
			deletes = true
		case pe.directive != "":
			return false, false
		}
	}
	for i := range m.orderEntries {
		if e := &m.orderEntries[i]; e.directive != "" || e.ks.Directive {
			return false, false
		}
	}
	return deletes, true
}

// uniqueTargets finds each merging patch element's position (target; -1
// for deletions), live or added after the live ones, and fr, the patch
// element merged into each position (-1: none); ids gains the added
// identities. An element naming the live element after the last one
// matched takes it without a lookup. False: an identity is merged twice,
// or into an element the patch deletes.
func (m *ListPlan) uniqueTargets(ids []string, look *idLookup, deleted []bool) (target, fr []int, _ []string, added, ok bool) {
	n := m.LiveLen
	target = m.takeInts(len(m.Elems))
	fr = m.takeInts(n + len(m.Elems))
	for p := range fr {
		fr[p] = -1
	}
	next, cursor := n, 0
	for i := range m.Elems {
		pe := &m.Elems[i]
		if pe.directive != "" {
			target[i] = -1
			continue
		}
		p := cursor
		if p >= n || ids[p] != pe.id {
			var live bool
			if p, live = look.find(ids, pe.id); !live {
				p, next, added = next, next+1, true
				ids = look.add(ids, pe.id)
			}
		}
		if fr[p] >= 0 || (p < n && deleted != nil && deleted[p]) {
			return nil, nil, nil, false, false
		}
		fr[p], target[i] = i, p
		if p < n {
			cursor = p + 1
		}
	}
	return target, fr[:next], ids, added, true
}

// survivors returns the positions the result keeps, of n live ones and
// len(fr)-n added, appended to positions, with their ranks in the live
// list (appended to sr; -1 for added), and fr and ids narrowed to them.
func survivors(n int, deleted []bool, fr []int, ids []string, positions, sr []int) (_, _, _ []int, _ []string) {
	next := len(fr)
	for p := range next {
		switch {
		case p >= n:
			sr = append(sr, -1)
		case deleted != nil && deleted[p]:
			continue
		default:
			sr = append(sr, p)
		}
		positions = append(positions, p)
	}
	if len(positions) < next {
		for i, p := range positions {
			fr[i], ids[i] = fr[p], ids[p]
		}
		fr, ids = fr[:len(positions)], ids[:len(positions)]
	}
	return positions, sr, fr, ids
}

// orderIDs returns the identities $setElementOrder lists, in orderIDs
// (one per entry), having checked that the patch list follows its order.
func (m *ListPlan) orderIDs(orderIDs []string) ([]string, error) {
	var small [8]string
	patchIDs := small[:0]
	for i := range m.Elems {
		if pe := &m.Elems[i]; pe.directive == "" {
			patchIDs = append(patchIDs, pe.id)
		}
	}
	for i := range m.orderEntries {
		orderIDs[i] = m.orderEntries[i].id
	}
	if err := checkOrderOf(patchIDs, orderIDs, m.at, &m.in); err != nil {
		return nil, err
	}
	return orderIDs, nil
}

// setOrder orders a planUnique result, positions of identities ids, by
// $setElementOrder's orderIDs; sr holds the live positions of the
// survivors, in order, among -1 for additions.
func (m *ListPlan) setOrder(positions []int, ids []string, sr []int, orderIDs []string) []int {
	if slices.Equal(ids, orderIDs) {
		return positions // in the order already
	}
	// The live survivors' identities in their live order, from where the
	// arrangement put them (positions[i] holds identity ids[i]).
	place := make([]int, m.LiveLen)
	for i, p := range positions {
		if p < m.LiveLen {
			place[p] = i
		}
	}
	survivors := make([]string, 0, len(sr))
	for _, r := range sr {
		if r >= 0 {
			survivors = append(survivors, ids[place[r]])
		}
	}
	positions, _ = format.ArrangeInPlace(positions, ids, format.FirstRanks(orderIDs), format.FirstRanks(survivors), m.Applier.Cfg.Ordering)
	return positions
}

// smallLookup is the most identities planUnique finds by scanning.
const smallLookup = 16

// idLookup finds identities among a list's, by scanning while the list is
// short and through a map (index) once it is longer.
type idLookup struct {
	byID map[string]int
}

// index maps ids, and reports false for an identity held twice.
func (l *idLookup) index(ids []string) bool {
	l.byID = make(map[string]int, len(ids))
	for p, id := range ids {
		l.byID[id] = p
		if len(l.byID) <= p {
			return false
		}
	}
	return true
}

// find returns the position of id among ids.
func (l *idLookup) find(ids []string, id string) (int, bool) {
	if l.byID != nil {
		p, ok := l.byID[id]
		return p, ok
	}
	p := slices.Index(ids, id)
	return p, p >= 0
}

// add appends id to ids, mapping the list once it is long.
func (l *idLookup) add(ids []string, id string) []string {
	ids = append(ids, id)
	switch {
	case l.byID != nil:
		l.byID[id] = len(ids) - 1
	case len(ids) > smallLookup:
		l.index(ids) // no identity is held twice: each was looked up first
	}
	return ids
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
