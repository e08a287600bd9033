package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"cmp"
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Merge lists of scalars, diffed as sets.

// scalarsOnly fails where a merge list of scalars holds an array or an
// object, as the applier does.
func scalarsOnly(l []any, at *pathNode) error {
	for i, v := range l {
		if !jsonval.HasScalarKey(v) {
			return newError(ErrMixedList, at.Index(i), "merge list of scalars holds %s", jsonval.KindOf(v).WithArticle())
		}
	}
	return nil
}

// diffScalarList diffs a merge list of scalars as a set: additions in the
// patch list, removals in $deleteFromPrimitiveList.
func (d *differ) diffScalarList(patch map[string]any, k string, ol, ml []any) (bool, error) {
	oids, mids := scalarIDs(ol), scalarIDs(ml)
	if !d.keyedOnly() && !keyedSafe(oids, mids) {
		// A set cannot say how many times a value occurs.
		return !d.ignoreChanges() && !jsonval.Equal(ol, ml), nil
	}
	inO := make(map[string]bool, len(ol))
	for _, id := range oids {
		inO[id] = true
	}
	inM := make(map[string]bool, len(ml))
	var adds []any
	for i, id := range mids {
		inM[id] = true
		if !inO[id] && !d.ignoreChanges() {
			adds = append(adds, ml[i])
		}
	}
	var dels []any
	if !d.ignoreDeletions() {
		seen := make(map[string]bool)
		for i, id := range oids {
			if !inM[id] && !seen[id] {
				seen[id] = true
				dels = append(dels, ol[i])
			}
		}
		slices.SortStableFunc(dels, func(a, b any) int { return cmp.Compare(jsonval.SortText(a), jsonval.SortText(b)) })
	}
	if len(adds) > 0 {
		patch[k] = adds
	}
	if len(dels) > 0 {
		patch[format.PrefixDeleteFromList+k] = dels
	}
	// Kubernetes sorts the original list in place before comparing it with
	// modified, so a reorder into sorted order writes no order and is lost
	// (docs/compat.md); here any change of order writes it.
	if len(ml) > 0 && d.wantSetOrder((!d.ignoreDeletions() && len(dels) > 0) || (!d.ignoreChanges() && !jsonval.Equal(ol, ml))) {
		patch[format.PrefixSetOrder+k] = ml
	}
	return false, nil
}
