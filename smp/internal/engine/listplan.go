package engine

import (
	"strings"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// ListPlan plans the merge of one merge list of objects: from the live
// list's identities (Items), the patch's elements and its orders, which
// elements the result has, in which order, and which patch elements merge
// into each (ops); an element's identity after a merge follows from the
// key fields of the patch elements merged into it (mergedField). The JSON
// and the typed applier share it and carry out its steps each on its own
// values.
type ListPlan struct {
	Applier      *Applier
	Items        ListItems
	in           ListInput
	lk           format.ListKeys
	at           *pathNode
	Elems        []PatchElem
	orderEntries []PatchElem   // $setElementOrder's, when it is there
	orderKS      format.KeySet // the identities items are ordered by
	replace      bool          // a $patch: replace element: the list is the patch's
	LiveLen      int           // the live list's length: the first positions
	positions    int           // live and new elements so far

	// Ops are the merges in the order the patch gives them; last is each
	// position's last one (-1: none).
	Ops  []mergeOp
	last []int

	merged    []int // positions
	mergedIDs []string
	// server and orderServer rank the live items for the patch's order and
	// for $setElementOrder's; front ranks the patch's elements, in order,
	// by their first place.
	server, orderServer, front format.Ranks
	// renamed maps a patch element named by part of its keys
	// ($patchMergeKey) to the identity of the live element it merged into.
	renamed map[string]string
	x       format.ListIndex // the list being patched, when indexed is true
	indexed bool
	scratch map[string]any
	// ints is room for the plan's integer slices (takeInts).
	ints []int
}

// Planned is a list plan's outcome: the result's positions in order, the
// merges to carry out, and an error the plan met after the first done of
// them (done is len(ops) without one).
type Planned struct {
	Positions []int
	Ops       []mergeOp
	Last      []int
	LiveLen   int
	Done      int
	Err       error
}

// Single reports whether step op is its position's only merge.
func (pl *Planned) Single(op int) bool {
	return pl.Ops[op].prev < 0 && pl.Last[pl.Ops[op].Pos] == op
}

// Merged reports whether a patch element merges into position p.
func (pl *Planned) Merged(p int) bool {
	return p < len(pl.Last) && pl.Last[p] >= 0
}

// mergeObjectList merges a merge list of objects by merge key: deletions
// first, then each patch element merged into the first live element with
// its identity or appended, then the result ordered.
func (a *Applier) mergeObjectList(in ListInput, s slot, at *pathNode) ([]any, error) {
	pl, err := a.PlanObjectList(jsonItems(in.Orig), in, s, at)
	if err != nil {
		return nil, err
	}
	items := make([]any, len(in.Orig), len(in.Orig)+len(in.Patch))
	copy(items, in.Orig)
	es := s.Elem()
	for _, op := range pl.Ops[:pl.Done] {
		for op.Pos >= len(items) {
			items = append(items, nil)
		}
		var om map[string]any
		owned := false
		if !op.Fresh {
			om, owned = expandObject(items[op.Pos], es)
		}
		v, _, err := a.mergeObject(om, op.Elem.Body, es, false, owned, op.Elem.At)
		if err != nil {
			return nil, err
		}
		items[op.Pos] = v
	}
	if pl.Err != nil {
		return nil, pl.Err
	}
	out := make([]any, len(pl.Positions))
	for i, p := range pl.Positions {
		out[i] = items[p]
	}
	return out, nil
}

// PlanObjectList plans the merge of a merge list of objects whose live
// elements src reads. An error of the patch list itself is returned; one
// met on the way is the plan's, to be reported after the merges before
// it.
func (a *Applier) PlanObjectList(src ListItems, in ListInput, s slot, at *pathNode) (Planned, error) {
	var first ListPlan // on the stack: the one-pass plan keeps no pointer to it
	if err := first.init(a, src, in, s, at); err != nil {
		return Planned{}, err
	}
	if !first.replace && in.OrigPresent {
		if pl, ok := first.planUnique(); ok {
			return pl, nil
		}
	}
	m := new(ListPlan)
	*m = first
	var err error
	var positions []int
	if m.replace || !in.OrigPresent {
		m.build()
	} else {
		err = m.mergeLive()
	}
	done := len(m.Ops)
	if err == nil {
		positions, err = m.order()
	}
	return Planned{Positions: positions, Ops: m.Ops, Last: m.last, LiveLen: m.LiveLen, Done: done, Err: err}, nil
}

// init reads the patch list and its $setElementOrder into m, a zero plan
// (its fields are set one by one: a literal would be built and copied).
func (m *ListPlan) init(a *Applier, src ListItems, in ListInput, s slot, at *pathNode) error {
	lk := format.KeysOf(s)
	m.Applier, m.Items, m.in, m.lk, m.at = a, src, in, lk, at
	m.orderKS, m.LiveLen = lk.DefaultSet(), src.Count()
	m.positions = m.LiveLen
	var err error
	np := len(in.Patch)
	elems := make([]PatchElem, 0, np+len(in.setOrder)) // the patch's, then the order's
	// Elements lack no key in most lists: the patch is read for its
	// $patch: replace marker, which lets them, only when one does.
	m.Elems, err = a.parseObjectElems(elems[:0:np], in.Patch, lk, false, nil, at)
	if err != nil && errpath.KindOf(err) == errpath.ErrMissingMergeKey && hasReplaceMarker(in.Patch) {
		m.Elems, err = a.parseObjectElems(elems[:0:np], in.Patch, lk, true, nil, at)
	}
	if err != nil {
		return err
	}
	for i := range m.Elems {
		pe := &m.Elems[i]
		if pe.ks.Directive {
			m.orderKS = lk.FullSet()
		}
		m.replace = m.replace || pe.directive == format.PatchReplace
	}
	if in.hasSetOrder {
		if m.orderEntries, err = a.parseObjectElems(elems[np:np], in.setOrder, lk, false, &m.in, nil); err != nil {
			return err
		}
		for i := range m.orderEntries {
			if m.orderEntries[i].ks.Directive {
				m.orderKS = lk.FullSet()
			}
		}
	}
	return nil
}

// build makes the list from the patch alone: it replaces the live one, or
// there is none.
func (m *ListPlan) build() {
	live := make([]string, m.LiveLen)
	for p := range live {
		live[p] = m.Items.KeyID(p, m.orderKS)
	}
	m.server = format.FirstRanks(live)
	for i := range m.Elems {
		pe := &m.Elems[i]
		if pe.directive != "" {
			continue // deletions and list markers
		}
		m.merged = append(m.merged, m.add(pe))
	}
}

// add plans a new element made from pe and returns its position.
func (m *ListPlan) add(pe *PatchElem) int {
	p := m.positions
	m.positions++
	m.Plan(p, pe, true)
	return p
}

// mergeLive deletes, merges and adds the patch's elements in the live list.
func (m *ListPlan) mergeLive() error {
	m.x, m.indexed = format.NewListIndex(m.LiveLen), true
	x := &m.x
	m.front = format.MakeRanks(len(m.Elems))
	reset := deleteElems(x, m, m.Elems, m.in.hasSetOrder)
	_, survivorIDs := x.Live(m, m.orderKS, false) // read before any merge: it may share the index's
	m.server = format.FirstRanks(survivorIDs)
	var addedIDs []string
	for i := range m.Elems {
		pe := &m.Elems[i]
		if pe.directive != "" {
			continue
		}
		p, n := x.First(m, pe.ks, pe.id)
		if n > 1 && m.lk.Partial(pe.ks) {
			return m.ambiguous(pe)
		}
		if n == 0 {
			p := m.add(pe)
			x.Added(m)
			m.front.Add(format.IDOf(m.orderKS, pe.Body))
			addedIDs = append(addedIDs, m.KeyID(p, m.orderKS))
			continue
		}
		m.Plan(p, pe, reset[p])
		x.Changed(m, p)
		to := x.ID(m, m.orderKS, p) // Changed has read it
		m.front.Add(to)
		if from := format.IDOf(m.orderKS, pe.Body); from != to {
			if m.renamed == nil {
				m.renamed = map[string]string{}
			}
			m.renamed[from] = to
		}
	}
	m.merged, m.mergedIDs = x.Live(m, m.orderKS, true)
	// Kubernetes orders by $setElementOrder against a view of the live
	// list's array, where the first items appended fill the places that
	// deletions freed. Matching it keeps the results equal.
	if freed := m.LiveLen - len(survivorIDs); m.in.hasSetOrder && freed > 0 && len(addedIDs) > 0 {
		m.orderServer = format.FirstRanks(append(survivorIDs, addedIDs[:min(freed, len(addedIDs))]...))
	}
	return nil
}

// ambiguous is the error for a patch element whose partial keys match
// several live elements.
func (m *ListPlan) ambiguous(pe *PatchElem) error {
	matches := m.x.Positions(m, pe.ks, pe.id)
	full := m.lk.FullSet()
	name := func(p int) string {
		return errpath.Path{m.keyStep(p, full)}.String()
	}
	return newError(errpath.ErrAmbiguousMergeKey, pe.At,
		"%s %s is ambiguous: it matches %d elements (%s); name more keys to pick one", format.KeyPatchMergeKey,
		strings.Join(pe.ks.Fields, ","), len(matches), listed(matches, name, ", "))
}

// order places the merged items: the patch's elements in the patch's
// order among the live ones, then $setElementOrder's order.
func (m *ListPlan) order() ([]int, error) {
	in := m.in
	if m.orderServer.Len() == 0 {
		m.orderServer = m.server
	}
	merged, ids := m.merged, m.mergedIDs
	if ids == nil {
		ids = make([]string, len(merged))
		for i, p := range merged {
			ids[i] = m.KeyID(p, m.orderKS)
		}
	}
	if in.InPatch && in.OrigPresent && !m.replace && m.LiveLen+len(in.Patch) > 0 {
		merged, ids = format.ArrangeInPlace(merged, ids, m.front, m.server, m.Applier.Cfg.Ordering)
	}
	if m.replace && in.OrigPresent && m.Applier.Cfg.KubeDirectiveScope {
		merged = groupReplaced(merged, ids)
	}
	if in.hasSetOrder {
		var patchIDs []string
		for _, pe := range m.Elems {
			if pe.directive == "" {
				patchIDs = append(patchIDs, format.IDOf(m.orderKS, pe.Body))
			}
		}
		orderIDs := make([]string, 0, len(m.orderEntries))
		for _, e := range m.orderEntries {
			if e.directive == "" {
				orderIDs = append(orderIDs, format.IDOf(m.orderKS, e.Body))
			}
		}
		if err := checkOrderOf(patchIDs, orderIDs, m.at, &in); err != nil {
			return nil, err
		}
		m.resolvePartial(orderIDs)
		merged, _ = format.ArrangeInPlace(merged, ids, format.FirstRanks(orderIDs), m.orderServer, m.Applier.Cfg.Ordering)
	}
	return merged, nil
}

// resolvePartial names each $setElementOrder entry that gives part of its
// keys ($patchMergeKey) by the identity of the element it names: the
// patch element's merged result (renamed), or the one live element with
// those keys; an entry naming several live elements is left as it is.
func (m *ListPlan) resolvePartial(orderIDs []string) {
	i := 0
	for _, e := range m.orderEntries {
		if e.directive != "" {
			continue
		}
		if to, ok := m.renamed[orderIDs[i]]; ok {
			orderIDs[i] = to
		} else if m.indexed && m.lk.Partial(e.ks) {
			if p, n := m.x.First(m, e.ks, e.id); n == 1 {
				orderIDs[i] = m.KeyID(p, m.orderKS)
			}
		}
		i++
	}
}
