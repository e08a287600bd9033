package engine

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// setOp is what a patch does to one value of a merge list of scalars.
type setOp struct {
	v   any
	del bool // removed ($deleteFromPrimitiveList wins over an add)
	add bool
	// readded marks a value an earlier patch removed and a later adds.
	readded bool
}

// scalarList composes two merging parts for a merge list of scalars (a
// set): per value, the later patch's add or removal wins.
func (c *composer) scalarList(a, b fieldPart, s slot, at *pathNode) (fieldPart, error) {
	sides := [2]listSide{}
	ops := [2]map[string]*setOp{}
	for i, p := range [2]fieldPart{a, b} {
		sides[i], ops[i] = readSet(p)
	}
	res := map[string]*setOp{}
	for id, o := range ops[0] {
		res[id] = o
	}
	for id, ob := range ops[1] {
		if oa := res[id]; oa != nil && oa.del && ob.add && !ob.del {
			res[id] = &setOp{v: ob.v, add: true, readded: true}
			continue
		}
		res[id] = ob
	}
	out, rank, err := c.orderOf(a, b, sides, func(id string) bool {
		return res[id] != nil && res[id].del
	}, func(string) *pathNode { return at }, at)
	if err != nil {
		return fieldPart{}, err
	}
	placed := out.hasOrder && len(out.order) > 0
	copies := map[string]int{}
	if !b.has {
		// b merges no list, so a's repeated values stay repeated.
		l, _ := a.val.([]any)
		for _, v := range l {
			id, _ := jsonval.ScalarKey(v)
			copies[id]++
		}
	}
	adds, dels := []any{}, []any{}
	for _, id := range byRank(res, rank) {
		o := res[id]
		switch {
		case o.del:
			dels = append(dels, o.v)
		case o.add:
			if o.readded && !placed {
				return fieldPart{}, c.refuse(at, "%s, which %s removed, is added back by %s without a %s placing it: where it ends depends on the document",
					jsonval.Describe(o.v), c.earlier, c.later, format.PrefixSetOrder+at.Name())
			}
			for range max(copies[id], 1) {
				adds = append(adds, o.v)
			}
		}
	}
	if a.has || b.has {
		out.has, out.val = true, adds
	}
	if placed && len(adds) > countAdds(res) {
		out.order = repeated(out.order, copies) // each copy must be named
	}
	out.dels, out.hasDels = dels, len(dels) > 0
	return out, nil
}

func countAdds(ops map[string]*setOp) int {
	n := 0
	for _, o := range ops {
		if o.add && !o.del {
			n++
		}
	}
	return n
}

// repeated returns order with each value as many times as copies says.
func repeated(order []any, copies map[string]int) []any {
	out := make([]any, 0, len(order))
	for _, v := range order {
		id, _ := jsonval.ScalarKey(v)
		for range max(copies[id], 1) {
			out = append(out, v)
		}
	}
	return out
}

// readSet reads one part of a set: the values it adds (in order), those
// it removes, and its $setElementOrder.
func readSet(p fieldPart) (listSide, map[string]*setOp) {
	side := listSide{elems: map[string]bool{}, live: map[string]bool{}, dels: map[string]bool{}}
	ops := map[string]*setOp{}
	l, _ := p.val.([]any)
	for _, v := range l {
		id, _ := jsonval.ScalarKey(v)
		if ops[id] == nil {
			ops[id] = &setOp{v: v, add: true}
			side.merged = append(side.merged, id)
		}
	}
	for _, v := range p.dels {
		id, _ := jsonval.ScalarKey(v)
		if ops[id] == nil {
			ops[id] = &setOp{v: v}
		}
		ops[id].del = true
		side.dels[id] = true
	}
	for id, o := range ops {
		side.live[id] = o.add && !o.del
	}
	for _, v := range p.order {
		id, _ := jsonval.ScalarKey(v)
		if !side.elems[id] {
			side.elems[id] = true
			side.order = append(side.order, id)
		}
	}
	return side, ops
}
