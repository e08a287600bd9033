package engine

import (
	"slices"
	"strconv"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// ListInput is everything a patch says about one merge list: the live
// list, the patch list, and the parallel directive lists.
type ListInput struct {
	Orig        []any
	OrigPresent bool
	Patch       []any
	InPatch     bool
	setOrder    []any
	hasSetOrder bool
	deletes     []any
	hasDeletes  bool
	// dirsAt and name locate the parallel lists, for errors: the object
	// holding them and the list's name ("" when dirsAt is the list itself).
	dirsAt *pathNode
	name   string
}

// orderAt locates the list's $setElementOrder, made only for an error.
func (in ListInput) orderAt() *pathNode { return in.dirAt(format.PrefixSetOrder) }

// deletesAt locates the list's $deleteFromPrimitiveList.
func (in ListInput) deletesAt() *pathNode { return in.dirAt(format.PrefixDeleteFromList) }

func (in ListInput) dirAt(prefix string) *pathNode {
	if in.name == "" {
		return in.dirsAt
	}
	return in.dirsAt.Field(prefix + in.name)
}

// MergeList merges a merge list (patchStrategy merge).
func (a *Applier) MergeList(in ListInput, s slot, at *pathNode) ([]any, error) {
	if s.IsObjectList() {
		return a.mergeObjectList(in, s, at)
	}
	for i, v := range in.Orig {
		if r, ok := v.(jsonval.Raw); ok {
			if i == 0 {
				in.Orig = append([]any(nil), in.Orig...)
			}
			in.Orig[i] = jsonval.Expand(r)
		}
	}
	return a.mergeScalarList(in, s, at)
}

// scalarIDs returns the identity of each scalar of a document list. A
// value that is not a scalar (a malformed document) gets an identity of
// its own, so it is kept and never matched.
func scalarIDs(l []any) []string {
	ids := make([]string, len(l))
	for i, v := range l {
		ids[i] = ScalarID(v, i)
	}
	return ids
}

// ScalarID is the identity of item i, v, of a list of scalars: its scalar
// key, or for a value that is not a scalar one of its own.
func ScalarID(v any, i int) string {
	if id, ok := jsonval.ScalarKey(v); ok {
		return id
	}
	return "\x02" + strconv.Itoa(i)
}

// patchScalarIDs checks that a patch list holds scalars of the element
// type and returns their identities.
func (a *Applier) patchScalarIDs(l []any, es slot, what string, at *pathNode) ([]string, error) {
	ids := make([]string, len(l))
	for i, v := range l {
		id, ok := jsonval.ScalarKey(v)
		if !ok {
			return nil, newError(errpath.ErrMixedList, at.Index(i), "%s of scalars holds %s", what, jsonval.KindOf(v).WithArticle())
		}
		if err := a.checkType(v, es, nil); err != nil {
			return nil, a.checkType(v, es, at.Index(i)) // the path made only for the error
		}
		ids[i] = id
	}
	return ids, nil
}

// mergeScalarList merges a list of scalars as a set, then orders it and
// removes the $deleteFromPrimitiveList values.
func (a *Applier) mergeScalarList(in ListInput, s slot, at *pathNode) ([]any, error) {
	picks, err := a.PlanSet(in, scalarIDs(in.Orig), s, at)
	if err != nil {
		return nil, err
	}
	merged := make([]any, len(picks))
	for j, p := range picks {
		if p.Patch {
			merged[j] = in.Patch[p.Index]
		} else {
			merged[j] = in.Orig[p.Index]
		}
	}
	return merged, nil
}

// SetPick is one value of a merged set: item i of the patch list, or of
// the live list.
type SetPick struct {
	Patch bool
	Index int
}

// PlanSet plans a merge list of scalars for both appliers, from the live
// values' identities (origIDs) and the patch: the live values, then the
// patch's new ones, ordered by the patch list and $setElementOrder, less
// the $deleteFromPrimitiveList values. The picks are valid until the next
// call.
func (a *Applier) PlanSet(in ListInput, origIDs []string, s slot, at *pathNode) ([]SetPick, error) {
	es := s.Elem()
	pids, err := a.patchScalarIDs(in.Patch, es, "patch list", at)
	if err != nil {
		return nil, err
	}
	picks, ids := slices.Grow(a.picks[:0], len(origIDs)+len(pids))[:len(origIDs)], origIDs
	defer func() { a.picks = picks[:0] }()
	for i := range picks {
		picks[i] = SetPick{Index: i}
	}
	switch {
	case !in.OrigPresent:
		picks, ids = picks[:0], pids
		for i := range pids {
			picks = append(picks, SetPick{Patch: true, Index: i})
		}
	case in.InPatch && len(origIDs)+len(pids) > 0:
		seen := make(map[string]bool, len(origIDs)+len(pids))
		picks, ids = picks[:0], make([]string, 0, cap(picks))
		for k, src := range [2][]string{origIDs, pids} {
			for i, id := range src {
				if !seen[id] {
					seen[id] = true
					picks = append(picks, SetPick{Patch: k == 1, Index: i})
					ids = append(ids, id)
				}
			}
		}
		picks, ids = format.Arrange(picks, ids, format.FirstRanks(pids), format.FirstRanks(origIDs), a.Cfg.Ordering)
	}
	if in.hasSetOrder {
		oids, err := a.patchScalarIDs(in.setOrder, es, format.PrefixSetOrder+" list", nil)
		if err != nil {
			// Again, with the path, made only for the error.
			_, err = a.patchScalarIDs(in.setOrder, es, format.PrefixSetOrder+" list", in.orderAt())
			return nil, err
		}
		if err := checkOrderOf(pids, oids, at, &in); err != nil {
			return nil, err
		}
		picks, ids = format.Arrange(picks, ids, format.FirstRanks(oids), format.FirstRanks(origIDs), a.Cfg.Ordering)
	}
	if in.hasDeletes {
		dids, err := a.patchScalarIDs(in.deletes, es, format.PrefixDeleteFromList+" list", nil)
		if err != nil {
			_, err = a.patchScalarIDs(in.deletes, es, format.PrefixDeleteFromList+" list", in.deletesAt())
			return nil, err
		}
		drop := idSet(dids)
		kept := picks[:0] // filtered in place: picks is PlanSet's own
		for j, p := range picks {
			if !drop[ids[j]] {
				kept = append(kept, p)
			}
		}
		picks = kept
	}
	return picks, nil
}

// checkSetOrder enforces the preserve-order proposal's rules: the patch list's items appear
// in $setElementOrder, in the same relative order. As in Kubernetes, an
// empty list on either side passes.
func checkSetOrder(patchIDs, orderIDs []string, at, orderAt *pathNode) error {
	if pi := outOfOrder(patchIDs, orderIDs); pi >= 0 {
		return newError(errpath.ErrSetElementOrder, at.Index(pi),
			"item %d of the patch list is missing from %s or out of its order", pi, orderAt.Path())
	}
	return nil
}

// checkOrderOf is checkSetOrder for list in, the path of whose
// $setElementOrder is made only for an error.
func checkOrderOf(patchIDs, orderIDs []string, at *pathNode, in *ListInput) error {
	if outOfOrder(patchIDs, orderIDs) < 0 {
		return nil
	}
	return checkSetOrder(patchIDs, orderIDs, at, in.orderAt())
}

// outOfOrder is the first item of the patch list that breaks
// checkSetOrder's rules, or -1.
func outOfOrder(patchIDs, orderIDs []string) int {
	if len(patchIDs) == 0 || len(orderIDs) == 0 {
		return -1
	}
	pi := 0
	for oi := 0; oi < len(orderIDs) && pi < len(patchIDs); oi++ {
		if patchIDs[pi] == orderIDs[oi] {
			pi++
		}
	}
	if pi < len(patchIDs) {
		return pi
	}
	return -1
}
