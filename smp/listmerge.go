package smp

import (
	"strings"
)

// listMerge is one merge list of objects being patched: the patch's
// elements and order, the key set that orders them, and, as the merge
// goes, the merged items with the ranks that place them.
type listMerge struct {
	a            *applier
	in           listInput
	lk           listKeys
	es           slot // the elements' slot
	at           *pathNode
	elems        []patchElem
	orderEntries []patchElem // $setElementOrder's, when it is there
	orderKS      keySet      // the identities items are ordered by
	replace      bool        // a $patch: replace element: the list is the patch's

	merged    []any
	mergedIDs []string
	// server and orderServer rank the live items for the patch's order and
	// for $setElementOrder's; frontIDs are the patch's elements in order.
	server, orderServer map[string]int
	frontIDs            []string
	// renamed maps a patch element named by part of its keys
	// ($patchMergeKey) to the identity of the live element it merged into.
	renamed map[string]string
	x       *listIndex // the live list being patched, when there is one
}

// mergeObjectList merges a merge list of objects by merge key: deletions
// first, then each patch element merged into the first live element with
// its identity or appended, then the result ordered.
func (a *applier) mergeObjectList(in listInput, s slot, at *pathNode) ([]any, error) {
	var m listMerge
	if err := m.init(a, in, s, at); err != nil {
		return nil, err
	}
	var err error
	if m.replace || !in.origPresent {
		err = m.build()
	} else {
		err = m.mergeLive()
	}
	if err != nil {
		return nil, err
	}
	return m.order()
}

// init reads the patch list and its $setElementOrder.
func (m *listMerge) init(a *applier, in listInput, s slot, at *pathNode) error {
	lk := keysOf(s)
	*m = listMerge{a: a, in: in, lk: lk, es: s.Elem(), at: at, orderKS: lk.defaultSet()}
	var err error
	if m.elems, err = a.parseObjectElems(in.patch, lk, hasReplaceMarker(in.patch), at); err != nil {
		return err
	}
	for _, pe := range m.elems {
		if pe.ks.directive {
			m.orderKS = lk.fullSet()
		}
		m.replace = m.replace || pe.directive == patchReplace
	}
	if in.hasSetOrder {
		if m.orderEntries, err = a.parseObjectElems(in.setOrder, lk, false, in.orderAt); err != nil {
			return err
		}
		for _, e := range m.orderEntries {
			if e.ks.directive {
				m.orderKS = lk.fullSet()
			}
		}
	}
	return nil
}

// build makes the list from the patch alone: it replaces the live one, or
// there is none.
func (m *listMerge) build() error {
	for _, pe := range m.elems {
		if pe.directive != "" {
			continue // deletions and list markers
		}
		v, keep, err := m.a.mergeObject(nil, pe.body, m.es, false, pe.at)
		if err != nil {
			return err
		}
		if keep {
			m.merged = append(m.merged, v)
		}
	}
	m.server = firstRanks(idsUnder(m.orderKS, m.in.orig))
	return nil
}

// mergeLive deletes, merges and adds the patch's elements in the live list.
func (m *listMerge) mergeLive() error {
	x := newListIndex(m.in.orig)
	m.x = x
	reset := deleteElems(x, m.elems, m.in.hasSetOrder)
	survivors, survivorIDs := x.live(m.orderKS)
	m.server = firstRanks(survivorIDs)
	var added []any
	for _, pe := range m.elems {
		if pe.directive != "" {
			continue
		}
		p, n := x.first(pe.ks, pe.id)
		if n > 1 && m.lk.partial(pe.ks) {
			return m.ambiguous(pe)
		}
		if n == 0 {
			v, _, err := m.a.mergeObject(nil, pe.body, m.es, false, pe.at)
			if err != nil {
				return err
			}
			m.frontIDs = append(m.frontIDs, idOf(m.orderKS, pe.body))
			x.add(v)
			added = append(added, v)
			continue
		}
		om, _ := expand(x.items[p]).(map[string]any)
		if reset[p] {
			om = nil
		}
		v, _, err := m.a.mergeObject(om, pe.body, m.es, false, pe.at)
		if err != nil {
			return err
		}
		x.set(p, v)
		m.frontIDs = append(m.frontIDs, idOf(m.orderKS, v))
		if from, to := idOf(m.orderKS, pe.body), m.frontIDs[len(m.frontIDs)-1]; from != to {
			if m.renamed == nil {
				m.renamed = map[string]string{}
			}
			m.renamed[from] = to
		}
	}
	m.merged, m.mergedIDs = x.live(m.orderKS)
	// Kubernetes orders by $setElementOrder against a view of the live
	// list's array, where the first items appended fill the places that
	// deletions freed. Matching it keeps the results equal.
	freed := len(m.in.orig) - len(survivors)
	m.orderServer = firstRanks(idsUnder(m.orderKS, append(survivors, added[:min(freed, len(added))]...)))
	return nil
}

// ambiguous is the error for a patch element whose partial keys match
// several live elements.
func (m *listMerge) ambiguous(pe patchElem) error {
	matches := m.x.positions(pe.ks, pe.id)
	name := func(p int) string {
		o, _ := expand(m.x.items[p]).(map[string]any)
		return Path{m.lk.fullSet().step(o)}.String()
	}
	return newError(ErrAmbiguousMergeKey, pe.at,
		"%s %s is ambiguous: it matches %d elements (%s); name more keys to pick one", keyPatchMergeKey,
		strings.Join(pe.ks.fields, ","), len(matches), listed(matches, name, ", "))
}

// order places the merged items: the patch's elements in the patch's
// order among the live ones, then $setElementOrder's order.
func (m *listMerge) order() ([]any, error) {
	in := m.in
	if m.orderServer == nil {
		m.orderServer = m.server
	}
	merged, ids := m.merged, m.mergedIDs
	if ids == nil {
		ids = idsUnder(m.orderKS, merged)
	}
	if in.inPatch && in.origPresent && !m.replace && len(in.orig)+len(in.patch) > 0 {
		merged, ids = arrange(merged, ids, firstRanks(m.frontIDs), m.server, m.a.cfg.ordering)
	}
	if in.hasSetOrder {
		var patchIDs []string
		for _, pe := range m.elems {
			if pe.directive == "" {
				patchIDs = append(patchIDs, idOf(m.orderKS, pe.body))
			}
		}
		orderIDs := make([]string, 0, len(m.orderEntries))
		for _, e := range m.orderEntries {
			if e.directive == "" {
				orderIDs = append(orderIDs, idOf(m.orderKS, e.body))
			}
		}
		if err := checkSetOrder(patchIDs, orderIDs, m.at, in.orderAt); err != nil {
			return nil, err
		}
		m.resolvePartial(orderIDs)
		merged, _ = arrange(merged, ids, firstRanks(orderIDs), m.orderServer, m.a.cfg.ordering)
	}
	if merged == nil {
		merged = []any{}
	}
	return merged, nil
}

// resolvePartial names each $setElementOrder entry that gives part of its
// keys ($patchMergeKey) by the identity of the element it names: the
// patch element's merged result (renamed), or the one live element with
// those keys; an entry naming several live elements is left as it is.
func (m *listMerge) resolvePartial(orderIDs []string) {
	i := 0
	for _, e := range m.orderEntries {
		if e.directive != "" {
			continue
		}
		if to, ok := m.renamed[orderIDs[i]]; ok {
			orderIDs[i] = to
		} else if m.x != nil && m.lk.partial(e.ks) {
			if p, n := m.x.first(e.ks, e.id); n == 1 {
				orderIDs[i] = idOf(m.orderKS, m.x.items[p])
			}
		}
		i++
	}
}
