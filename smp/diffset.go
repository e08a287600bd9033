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
	sd := d.planSetDiff(scalarIDs(ol), scalarIDs(ml))
	return sd.whole, writeSetDiff(sd, patch, k, jsonValues{ol, ml})
}

// setDiff is the patch of a merge list of scalars, planned over the
// values' identities for both differs.
type setDiff struct {
	adds  []int // modified's values to add
	dels  []int // the original's values to delete, each once
	order bool  // write $setElementOrder
	// whole says a set cannot say the change (a value's count changed):
	// the list is written whole, if at all.
	whole bool
}

// planSetDiff plans the patch turning a set of identities oids into mids.
func (d *differ) planSetDiff(oids, mids []string) setDiff {
	same := slices.Equal(oids, mids)
	if !d.keyedOnly() && !keyedSafe(oids, mids) {
		// A set cannot say how many times a value occurs.
		return setDiff{whole: !d.ignoreChanges() && !same}
	}
	var sd setDiff
	inO := make(map[string]bool, len(oids))
	for _, id := range oids {
		inO[id] = true
	}
	inM := make(map[string]bool, len(mids))
	for i, id := range mids {
		inM[id] = true
		if !inO[id] && !d.ignoreChanges() {
			sd.adds = append(sd.adds, i)
		}
	}
	if !d.ignoreDeletions() {
		seen := make(map[string]bool)
		for i, id := range oids {
			if !inM[id] && !seen[id] {
				seen[id] = true
				sd.dels = append(sd.dels, i)
			}
		}
	}
	// Kubernetes sorts the original list in place before comparing it with
	// modified, so a reorder into sorted order writes no order and is lost
	// (docs/compat.md); here any change of order writes it.
	sd.order = len(mids) > 0 && d.wantSetOrder((!d.ignoreDeletions() && len(sd.dels) > 0) || (!d.ignoreChanges() && !same))
	return sd
}

// setValues gives a differ's set values as JSON.
type setValues interface {
	original(i int) (any, error)
	modified(i int) (any, error)
	modifiedList() ([]any, error)
}

// writeSetDiff writes the planned patch under k: additions, deletions
// sorted as Kubernetes sorts them, and the order.
func writeSetDiff[V setValues](sd setDiff, patch map[string]any, k string, v V) error {
	if sd.whole {
		return nil
	}
	var adds, dels []any
	for _, i := range sd.adds {
		x, err := v.modified(i)
		if err != nil {
			return err
		}
		adds = append(adds, x)
	}
	for _, i := range sd.dels {
		x, err := v.original(i)
		if err != nil {
			return err
		}
		dels = append(dels, x)
	}
	slices.SortStableFunc(dels, func(a, b any) int { return cmp.Compare(jsonval.SortText(a), jsonval.SortText(b)) })
	if len(adds) > 0 {
		patch[k] = adds
	}
	if len(dels) > 0 {
		patch[format.PrefixDeleteFromList+k] = dels
	}
	if sd.order {
		ml, err := v.modifiedList()
		if err != nil {
			return err
		}
		patch[format.PrefixSetOrder+k] = ml
	}
	return nil
}

// jsonValues are the JSON differ's set values.
type jsonValues struct{ ol, ml []any }

func (j jsonValues) original(i int) (any, error)  { return j.ol[i], nil }
func (j jsonValues) modified(i int) (any, error)  { return j.ml[i], nil }
func (j jsonValues) modifiedList() ([]any, error) { return j.ml, nil }
