package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"strconv"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// listInput is everything a patch says about one merge list: the live
// list, the patch list, and the parallel directive lists.
type listInput struct {
	orig        []any
	origPresent bool
	patch       []any
	inPatch     bool
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
func (in listInput) orderAt() *pathNode { return in.dirAt(format.PrefixSetOrder) }

// deletesAt locates the list's $deleteFromPrimitiveList.
func (in listInput) deletesAt() *pathNode { return in.dirAt(format.PrefixDeleteFromList) }

func (in listInput) dirAt(prefix string) *pathNode {
	if in.name == "" {
		return in.dirsAt
	}
	return in.dirsAt.Field(prefix + in.name)
}

// mergeList merges a merge list (patchStrategy merge).
func (a *applier) mergeList(in listInput, s slot, at *pathNode) ([]any, error) {
	if s.IsObjectList() {
		return a.mergeObjectList(in, s, at)
	}
	for i, v := range in.orig {
		if r, ok := v.(jsonval.Raw); ok {
			if i == 0 {
				in.orig = append([]any(nil), in.orig...)
			}
			in.orig[i] = jsonval.Expand(r)
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
		id, ok := jsonval.ScalarKey(v)
		if !ok {
			id = "\x02" + strconv.Itoa(i)
		}
		ids[i] = id
	}
	return ids
}

// patchScalarIDs checks that a patch list holds scalars of the element
// type and returns their identities.
func (a *applier) patchScalarIDs(l []any, es slot, what string, at *pathNode) ([]string, error) {
	ids := make([]string, len(l))
	for i, v := range l {
		id, ok := jsonval.ScalarKey(v)
		if !ok {
			return nil, newError(ErrMixedList, at.Index(i), "%s of scalars holds %s", what, jsonval.KindOf(v).WithArticle())
		}
		if err := a.checkType(v, es, at.Index(i)); err != nil {
			return nil, err
		}
		ids[i] = id
	}
	return ids, nil
}

// mergeScalarList merges a list of scalars as a set, then orders it and
// removes the $deleteFromPrimitiveList values.
func (a *applier) mergeScalarList(in listInput, s slot, at *pathNode) ([]any, error) {
	es := s.Elem()
	pids, err := a.patchScalarIDs(in.patch, es, "patch list", at)
	if err != nil {
		return nil, err
	}
	origIDs := scalarIDs(in.orig)
	merged, ids := in.orig, origIDs
	switch {
	case !in.origPresent:
		merged, ids = in.patch, pids
	case in.inPatch && len(in.orig)+len(in.patch) > 0:
		seen := make(map[string]bool, len(in.orig)+len(in.patch))
		merged = make([]any, 0, len(in.orig)+len(in.patch))
		ids = make([]string, 0, cap(merged))
		for _, src := range [2]struct {
			l   []any
			ids []string
		}{{in.orig, origIDs}, {in.patch, pids}} {
			for i, v := range src.l {
				if !seen[src.ids[i]] {
					seen[src.ids[i]] = true
					merged = append(merged, v)
					ids = append(ids, src.ids[i])
				}
			}
		}
		merged, ids = format.Arrange(merged, ids, format.FirstRanks(pids), format.FirstRanks(origIDs), a.cfg.ordering)
	}
	if in.hasSetOrder {
		oids, err := a.patchScalarIDs(in.setOrder, es, format.PrefixSetOrder+" list", in.orderAt())
		if err != nil {
			return nil, err
		}
		if err := checkSetOrder(pids, oids, at, in.orderAt()); err != nil {
			return nil, err
		}
		merged, ids = format.Arrange(merged, ids, format.FirstRanks(oids), format.FirstRanks(origIDs), a.cfg.ordering)
	}
	if in.hasDeletes {
		dids, err := a.patchScalarIDs(in.deletes, es, format.PrefixDeleteFromList+" list", in.deletesAt())
		if err != nil {
			return nil, err
		}
		drop := make(map[string]bool, len(dids))
		for _, id := range dids {
			drop[id] = true
		}
		kept := make([]any, 0, len(merged))
		for i, v := range merged {
			if !drop[ids[i]] {
				kept = append(kept, v)
			}
		}
		merged = kept
	}
	if merged == nil {
		merged = []any{}
	}
	return merged, nil
}

// checkSetOrder enforces seed 004's rules: the patch list's items appear
// in $setElementOrder, in the same relative order. As in Kubernetes, an
// empty list on either side passes.
func checkSetOrder(patchIDs, orderIDs []string, at, orderAt *pathNode) error {
	if len(patchIDs) == 0 || len(orderIDs) == 0 {
		return nil
	}
	pi := 0
	for oi := 0; oi < len(orderIDs) && pi < len(patchIDs); oi++ {
		if patchIDs[pi] == orderIDs[oi] {
			pi++
		}
	}
	if pi < len(patchIDs) {
		return newError(ErrSetElementOrder, at.Index(pi),
			"item %d of the patch list is missing from %s or out of its order", pi, orderAt.Path())
	}
	return nil
}
