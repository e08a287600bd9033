package engine

import (
	"cmp"
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Merge lists of scalars, diffed as sets.

// scalarsOnly fails where a merge list of scalars holds an array or an
// object, as the applier does.
func scalarsOnly(l []any, at *pathNode) error {
	for i, v := range l {
		if !jsonval.HasScalarKey(v) {
			return newError(errpath.ErrMixedList, at.Index(i), "merge list of scalars holds %s", jsonval.KindOf(v).WithArticle())
		}
	}
	return nil
}

// DiffScalarList diffs a merge list of scalars as a set: additions in the
// patch list, removals in $deleteFromPrimitiveList.
func (d *Differ) DiffScalarList(patch map[string]any, k string, ol, ml []any) (bool, error) {
	sd := d.PlanSetDiff(scalarIDs(ol), scalarIDs(ml))
	return sd.Whole, WriteSetDiff(sd, patch, k, jsonValues{ol, ml})
}

// SetDiff is the patch of a merge list of scalars, planned over the
// values' identities for both differs.
type SetDiff struct {
	Adds  []int // modified's values to add
	Dels  []int // the original's values to delete, each once
	Order bool  // write $setElementOrder
	// Whole says a set cannot say the change (a value's count changed):
	// the list is written whole, if at all.
	Whole bool
}

// PlanSetDiff plans the patch turning a set of identities oids into mids.
func (d *Differ) PlanSetDiff(oids, mids []string) SetDiff {
	same := slices.Equal(oids, mids)
	if !d.KeyedOnly() && !keyedSafe(oids, mids) {
		// A set cannot say how many times a value occurs.
		return SetDiff{Whole: !d.IgnoreChanges() && !same}
	}
	var sd SetDiff
	inO := idSet(oids)
	inM := make(map[string]bool, len(mids))
	for i, id := range mids {
		inM[id] = true
		if !inO[id] && !d.IgnoreChanges() {
			sd.Adds = append(sd.Adds, i)
		}
	}
	if !d.ignoreDeletions() {
		seen := make(map[string]bool)
		for i, id := range oids {
			if !inM[id] && !seen[id] {
				seen[id] = true
				sd.Dels = append(sd.Dels, i)
			}
		}
	}
	// Kubernetes sorts the original list in place before comparing it with
	// modified, so a reorder into sorted order writes no order and is lost
	// (docs/compat.md); here any change of order writes it.
	sd.Order = len(mids) > 0 && d.wantSetOrder((!d.ignoreDeletions() && len(sd.Dels) > 0) || (!d.IgnoreChanges() && !same))
	return sd
}

// SetValues gives a differ's set values as JSON.
type SetValues interface {
	Original(i int) (any, error)
	Modified(i int) (any, error)
	ModifiedList() ([]any, error)
}

// WriteSetDiff writes the planned patch under k: additions, deletions
// sorted as Kubernetes sorts them, and the order.
func WriteSetDiff[V SetValues](sd SetDiff, patch map[string]any, k string, v V) error {
	if sd.Whole {
		return nil
	}
	var adds, dels []any
	for _, i := range sd.Adds {
		x, err := v.Modified(i)
		if err != nil {
			return err
		}
		adds = append(adds, x)
	}
	for _, i := range sd.Dels {
		x, err := v.Original(i)
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
	if sd.Order {
		ml, err := v.ModifiedList()
		if err != nil {
			return err
		}
		patch[format.PrefixSetOrder+k] = ml
	}
	return nil
}

// jsonValues are the JSON differ's set values.
type jsonValues struct{ ol, ml []any }

func (j jsonValues) Original(i int) (any, error)  { return j.ol[i], nil }
func (j jsonValues) Modified(i int) (any, error)  { return j.ml[i], nil }
func (j jsonValues) ModifiedList() ([]any, error) { return j.ml, nil }
