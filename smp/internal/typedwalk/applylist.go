package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// mergeListTyped merges a merge list into dv (a settable zero value of the
// list's type). cur is the live list (invalid when in.OrigPresent is
// false). Lists of structs and maps are merged in Go by the JSON
// applier's plan (objItems), lists of scalars by its set plan; other
// lists pass their JSON.
func (a *tapplier) mergeListTyped(dv, cur reflect.Value, in engine.ListInput, n *goval.Node, c slot, at *pathNode) error {
	if c.IsObjectList() && goObjElems(n.Elem, cur) {
		return a.mergeObjList(dv, cur, in, n, c, at)
	}
	if !c.IsObjectList() && n.Elem.Kind == reflectschema.Scalar && !n.Elem.Marshaler {
		return a.mergeSetTyped(dv, cur, in, n, c, at)
	}
	if in.OrigPresent {
		ol, err := goval.DocListJSON(cur, n)
		if err != nil {
			return underPath(err, at)
		}
		in.Orig = ol
	}
	l, err := a.MergeList(in, c, at)
	if err != nil {
		return err
	}
	return a.soft(goval.FromJSONValue(dv, l, n, false, at))
}

// mergeSetTyped merges a merge list of scalars: PlanSet decides, as for
// JSON, which values the set holds and in which order; live values are
// copied, the patch's decoded.
func (a *tapplier) mergeSetTyped(dv, cur reflect.Value, in engine.ListInput, n *goval.Node, c slot, at *pathNode) error {
	var origIDs []string
	if in.OrigPresent {
		var err error
		if origIDs, err = scalarIDsTyped(cur, n.Elem); err != nil {
			return underPath(err, at)
		}
	}
	picks, err := a.PlanSet(in, origIDs, c, at)
	if err != nil {
		return err
	}
	dv = goval.AllocChain(dv)
	goval.MakeSliceIn(dv, len(picks))
	for j, p := range picks {
		if p.Patch {
			err = goval.FromJSONValue(dv.Index(j), in.Patch[p.Index], n.Elem, false, nil)
		} else {
			err = a.CopyValue(dv.Index(j), cur.Index(p.Index), n.Elem)
		}
		if err != nil {
			a.soft(underPath(under(err, errpath.IndexStep(j)), at))
		}
	}
	return nil
}

// scalarID is scalarIDs' identity of element i, v, of a list of scalars.
func scalarID(v reflect.Value, en *goval.Node, i int) (string, error) {
	j, err := goval.ToJSONValue(v, en, false)
	if err != nil {
		return "", err
	}
	return engine.ScalarID(j, i), nil
}

// mergeObjList merges a merge list of structs or of maps with string keys
// (goObjElems): PlanObjectList decides, as for JSON, which elements the
// result has, in which order, and which patch elements merge into each;
// each element is then merged in Go in its place, and the live elements
// no patch element merges into are deep-copied.
func (a *tapplier) mergeObjList(dv, cur reflect.Value, in engine.ListInput, n *goval.Node, c slot, at *pathNode) error {
	src := a.newItems(n.Elem, at)
	if in.OrigPresent {
		src.cur = cur
	}
	err := a.mergeObjItems(dv, in, c, src)
	a.nitems--
	return err
}

// newItems returns an objItems for a list merge, reused from a.items at
// its level of nesting while it fits; mergeObjList gives it back.
func (a *tapplier) newItems(n *goval.Node, at *pathNode) *objItems {
	a.nitems++
	if a.nitems > len(a.items) {
		return &objItems{n: n, at: at}
	}
	s := &a.items[a.nitems-1]
	*s = objItems{n: n, at: at, scratch: s.scratch} // keyFields clears the scratch map
	return s
}

// mergeObjItems is mergeObjList reading the live list, its elements' node
// and its path from src.
func (a *tapplier) mergeObjItems(dv reflect.Value, in engine.ListInput, c slot, src *objItems) error {
	cur, at := src.cur, src.at
	pl, err := a.PlanObjectList(src, in, c, at)
	if err == nil {
		err = src.err
	}
	if err != nil {
		return err
	}
	dv = goval.AllocChain(dv)
	var small [16]int
	place := small[:0] // by position: its index in dv
	if n := pl.LiveLen + len(in.Patch); n > len(small) {
		place = make([]int, n)
	} else {
		place = small[:n]
	}
	if pl.Err == nil {
		goval.MakeSliceIn(dv, len(pl.Positions)) // empty, not null, for none
		for i := range place {
			place[i] = -1
		}
		for j, p := range pl.Positions {
			place[p] = j
		}
	}
	x := objMerges{a: a, src: src, pl: pl, es: c.Elem()}
	for op := range pl.Ops[:pl.Done] {
		var dst reflect.Value
		if j := place[pl.Ops[op].Pos]; pl.Err == nil && j >= 0 {
			dst = dv.Index(j)
		} else {
			dst = reflect.New(dv.Type().Elem()).Elem() // the merge is done only for its error
		}
		if err := x.merge(op, dst); err != nil {
			return err
		}
	}
	if pl.Err != nil {
		return pl.Err
	}
	if a.Share && dv.Kind() == reflect.Slice && cur.IsValid() && cur.Type() == dv.Type() {
		keepShared(dv, cur, &pl)
		return nil
	}
	for j, p := range pl.Positions {
		if !pl.Merged(p) {
			err := a.CopyValue(dv.Index(j), cur.Index(p), src.n)
			a.soft(underPath(under(err, errpath.IndexStep(j)), at))
		}
	}
	return nil
}

// keepShared sets the live elements of cur that no patch element merges
// into in their places in dv, as CopyValue does under Share (by
// assignment): a run of at least minCopyRun consecutive ones at a time,
// others one by one (a run's two slices are allocated).
func keepShared(dv, cur reflect.Value, pl *engine.Planned) {
	ps := pl.Positions
	kept := func(k, p int) bool { return k < len(ps) && ps[k] == p && !pl.Merged(p) }
	for j := 0; j < len(ps); j++ {
		p := ps[j]
		if !kept(j, p) {
			continue
		}
		k := j + 1
		for kept(k, p+k-j) {
			k++
		}
		if k-j >= minCopyRun {
			reflect.Copy(dv.Slice(j, k), cur.Slice(p, p+k-j))
		} else {
			for i := j; i < k; i++ {
				dv.Index(i).Set(cur.Index(p + i - j))
			}
		}
		j = k - 1
	}
}

// minCopyRun is the shortest run of kept elements keepShared copies whole.
const minCopyRun = 4

// objMerges carries out a list plan's merges on structs or maps.
type objMerges struct {
	a   *tapplier
	src *objItems
	pl  engine.Planned
	es  slot // the elements' slot
	// asJSON is the JSON of the elements with several merges (see merge).
	asJSON map[int]map[string]any
}

// merge carries out step op into dst, the element's place. A position
// with one merge is merged in Go. One with several, from a patch
// repeating an identity, is merged as JSON step by step and decoded after
// its last: the first merge may leave fields the schema does not
// declare, which a Go value cannot hold and the next must meet as JSON
// does.
func (x *objMerges) merge(op int, dst reflect.Value) error {
	a, pl, o := x.a, &x.pl, x.pl.Ops[op]
	var ce reflect.Value
	if !o.Fresh && o.Pos < pl.LiveLen {
		if e, null := goval.DerefNull(x.src.cur.Index(o.Pos)); !null {
			ce = e
		}
	}
	if pl.Single(op) {
		_, err := a.mergeObj(goval.AllocChain(dst), ce, o.Elem.Body, x.src.n, x.es, o.Elem.At)
		return err
	}
	om, ok := x.asJSON[o.Pos]
	if !ok && ce.IsValid() {
		j, err := goval.DocJSON(ce, x.src.n, false)
		if err != nil {
			return underPath(under(err, errpath.IndexStep(o.Pos)), x.src.at)
		}
		om, _ = jsonval.Expand(j).(map[string]any)
	}
	if o.Fresh {
		om = nil
	}
	v, _, err := a.MergeObject(om, o.Elem.Body, x.es, false, o.Elem.At)
	if err != nil {
		return err
	}
	if x.asJSON == nil {
		x.asJSON = map[int]map[string]any{}
	}
	x.asJSON[o.Pos] = v
	if pl.Last[o.Pos] == op {
		a.soft(goval.FromJSONValue(dst, v, x.src.n, false, o.Elem.At))
	}
	return nil
}
