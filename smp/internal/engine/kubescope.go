package engine

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// orderAnywhere reports whether directive kind is taken on list slot c,
// which does not merge: $setElementOrder on a list that is not of objects,
// under WithKubernetesDirectiveScope.
func (a *Applier) orderAnywhere(kind format.DirectiveKind, c slot) bool {
	return a.Cfg.KubeDirectiveScope && kind == format.DirSetOrder && c.Kind() == reflectschema.List && !c.IsObjectList()
}

// orderReplacedList applies $setElementOrder to a list that does not
// merge, as Kubernetes does: a list the patch holds must agree with the
// order and is taken as it is; without one, the live list is reordered
// as a set's would be.
func (a *Applier) orderReplacedList(in ListInput, c slot, at *pathNode) ([]any, error) {
	if !in.InPatch {
		return a.MergeList(in, c, at) // c holds no objects: a set's reordering
	}
	es := c.Elem()
	pids, err := a.patchScalarIDs(in.Patch, es, "patch list", at)
	if err != nil {
		return nil, err
	}
	oids, err := a.patchScalarIDs(in.setOrder, es, format.PrefixSetOrder+" list", in.orderAt())
	if err != nil {
		return nil, err
	}
	if err := checkSetOrder(pids, oids, at, in.orderAt()); err != nil {
		return nil, err
	}
	return a.finalizeList(in.Patch, c, at)
}

// groupReplaced orders a list a patch replaced as Kubernetes does: the
// elements sharing an identity move next to the first of them, the rest
// keep their order. Only a list with a repeated identity changes.
func groupReplaced(positions []int, ids []string) []int {
	first := format.FirstRanks(ids)
	if first.Len() == len(ids) {
		return positions
	}
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	order = format.BucketSort(order, func(i int) int {
		r, _ := first.Rank(ids[i])
		return r
	})
	out := make([]int, len(order))
	for j, i := range order {
		out[j] = positions[i]
	}
	return out
}
