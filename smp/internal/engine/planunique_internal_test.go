package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// TestPlanUniqueMatchesGeneral checks the one-pass plan against the
// general one (deletions, the index, then the order) on random lists:
// live elements as maps, raw objects and scalars, keyed by one field or
// two, identities repeated or missing, patch elements new, matching or
// deleting, with and without a $setElementOrder, under both orderings.
// Where planUnique takes the list, both must give the same positions, the
// same merges and the same error; it must take every list its doc
// promises to take and decline every list with a repeated identity.
func TestPlanUniqueMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := []reflectschema.PatchMeta{
		{Strategy: reflectschema.Merge, MergeKey: []string{"name"}},
		{Strategy: reflectschema.Merge, MergeKey: []string{"port", "protocol"}},
	}
	var taken, declined, followed, inPlaceTaken, deletesTaken, orderTaken, exactOrder, orderErrs int
	for range 30000 {
		meta := keys[r.IntN(len(keys))]
		// Half the patches follow the live list: its elements in order,
		// some left out, some new ones between, now and then one twice
		// or out of place. Their keys come from a wider range, so that
		// fewer live lists repeat one.
		follow := r.IntN(2) == 0
		keyRange := 6
		if follow {
			keyRange = 40
		}
		elem := func(keyless bool) map[string]any {
			m := map[string]any{"v": r.IntN(100)}
			for _, f := range meta.MergeKey {
				if !keyless {
					m[f] = fmt.Sprint(r.IntN(keyRange))
				}
			}
			return m
		}
		live := make([]any, r.IntN(12))
		if follow {
			live = make([]any, r.IntN(24))
		}
		for i := range live {
			switch r.IntN(8) {
			case 0:
				live[i] = "scalar"
			case 1:
				live[i] = elem(true)
			case 2, 3:
				b, _ := json.Marshal(elem(false))
				live[i] = jsonval.Raw(b)
			default:
				live[i] = elem(false)
			}
		}
		patch := make([]any, r.IntN(12))
		for i := range patch {
			patch[i] = elem(false)
		}
		if follow {
			patch = following(r, live, meta.MergeKey, elem)
		}
		// A quarter of the patches name every element of a keyed live
		// list in its place, up to 40 long, so that planUnique checks
		// the identities without a map (hasDuplicates' table beyond 8).
		inPlace := r.IntN(4) == 0
		if inPlace {
			live = make([]any, r.IntN(41))
			patch = make([]any, len(live))
			for i := range live {
				e := elem(false)
				if r.IntN(2) == 0 {
					b, _ := json.Marshal(e)
					live[i] = jsonval.Raw(b)
				} else {
					live[i] = e
				}
				p := map[string]any{"v": r.IntN(100)}
				for _, f := range meta.MergeKey {
					p[f] = e[f]
				}
				patch[i] = p
			}
		}
		ks := format.KeysOf(slot{Patch: meta}).DefaultSet()
		// Half the patches delete elements, live ones or not.
		if r.IntN(2) == 0 {
			patch = withDeletions(r, live, patch, meta.MergeKey, elem)
		}
		ordering := format.Ordering(r.IntN(2))
		a := &Applier{Cfg: &Config{Directives: format.DirectivesAll, Limits: jsonval.DefaultLimits().Bounded(), KubeDirectiveScope: true, Ordering: ordering}}
		in := ListInput{Orig: live, OrigPresent: true, Patch: patch, InPatch: true}
		// Half the patches carry a $setElementOrder: mostly the order a
		// differ writes (the survivors, then the additions), else one
		// shuffled or cut short.
		if r.IntN(2) == 0 {
			in.setOrder, in.hasSetOrder = setOrderFor(r, live, patch, ks, meta.MergeKey), true
		}
		s := slot{Patch: meta}

		var fast ListPlan
		if err := fast.init(a, jsonItems(live), in, s, nil); err != nil {
			t.Fatal(err)
		}
		got, ok := fast.planUnique()
		repeated := repeats(jsonItems(live), patch, ks)
		shape := shapeOf(jsonItems(live), patch, ks)
		promised := !repeated && !shape.deletedMerged && !(in.hasSetOrder && shape.freed && shape.added)
		if !ok {
			declined++
			if promised {
				t.Fatalf("declined a list it takes: live %s, patch %v, order %v", showList(live), patch, in.setOrder)
			}
			continue
		}
		taken++
		if follow {
			followed++
		}
		if inPlace && len(live) > smallIDs {
			inPlaceTaken++
		}
		if shape.freed {
			deletesTaken++
		}
		if in.hasSetOrder {
			orderTaken++
		}
		if !promised {
			t.Fatalf("took a list with a repeated identity or a deleted element merged: live %s, patch %v", showList(live), patch)
		}
		var general ListPlan
		if err := general.init(a, jsonItems(live), in, s, nil); err != nil {
			t.Fatal(err)
		}
		if err := general.mergeLive(); err != nil {
			t.Fatal(err)
		}
		want, err := general.order()
		if fmt.Sprint(got.Err) != fmt.Sprint(err) {
			t.Fatalf("live %s, patch %v, order %v: error %v, want %v", showList(live), patch, in.setOrder, got.Err, err)
		}
		if err != nil {
			orderErrs++
		} else if in.hasSetOrder && slices.Equal(idsAt(jsonItems(live), patch, want, ks), idsOf(in.setOrder, ks)) {
			exactOrder++
		}
		if !slices.Equal(got.Positions, want) {
			t.Fatalf("live %s, patch %v, order %v (ordering %d): positions %v, want %v", showList(live), patch, in.setOrder, ordering, got.Positions, want)
		}
		if len(fast.Ops) != len(general.Ops) || got.Done != len(general.Ops) {
			t.Fatalf("live %s, patch %v: %d merges (%d done), want %d", showList(live), patch, len(fast.Ops), got.Done, len(general.Ops))
		}
		for i, op := range fast.Ops {
			g := general.Ops[i]
			if op.Pos != g.Pos || op.Fresh != g.Fresh || op.prev != g.prev || op.Elem.id != g.Elem.id {
				t.Fatalf("live %s, patch %v: merge %d is %+v, want %+v", showList(live), patch, i, op, g)
			}
		}
	}
	if taken < 1000 || followed < 1000 || declined < 1000 || inPlaceTaken < 300 || deletesTaken < 400 ||
		orderTaken < 1000 || exactOrder < 500 || orderErrs < 300 {
		t.Fatalf("the one-pass plan took %d lists (%d patches following the live list, %d longer than %d naming it in place, "+
			"%d deleting, %d ordered, %d of them in the order already, %d out of order) and declined %d: too few to compare",
			taken, followed, inPlaceTaken, smallIDs, deletesTaken, orderTaken, exactOrder, orderErrs, declined)
	}
}

// withDeletions adds to patch, at random places, $patch: delete elements
// naming live keyed objects and now and then a new key.
func withDeletions(r *rand.Rand, live, patch []any, key []string, newElem func(bool) map[string]any) []any {
	out := slices.Clone(patch)
	for range 1 + r.IntN(3) {
		var m, d map[string]any
		if len(live) > 0 && r.IntN(4) > 0 {
			m = asMap(live[r.IntN(len(live))])
		}
		if m != nil {
			d = map[string]any{}
			for _, f := range key {
				if v, ok := m[f]; ok {
					d[f] = jsonval.Expand(v)
				}
			}
			if len(d) < len(key) {
				continue
			}
		} else {
			d = newElem(false)
			delete(d, "v")
		}
		d["$patch"] = "delete"
		i := r.IntN(len(out) + 1)
		out = slices.Insert(out, i, any(d))
	}
	return out
}

// setOrderFor returns a $setElementOrder for patch on live: the keys of
// the live keyed objects the patch does not delete, then the patch's new
// ones; a quarter of the time shuffled, cut short or with an unknown key.
func setOrderFor(r *rand.Rand, live, patch []any, ks format.KeySet, key []string) []any {
	shape := shapeOf(jsonItems(live), patch, ks)
	var order []any
	entry := func(m map[string]any) {
		e := map[string]any{}
		for _, f := range key {
			v, ok := m[f]
			if !ok {
				return
			}
			e[f] = jsonval.Expand(v)
		}
		order = append(order, e)
	}
	for _, it := range live {
		if m := asMap(it); m != nil && !shape.deletes[format.IDOf(ks, it)] {
			entry(m)
		}
	}
	liveIDs := map[string]bool{}
	for p := range jsonItems(live) {
		liveIDs[jsonItems(live).KeyID(p, ks)] = true
	}
	for _, e := range patch {
		if m := e.(map[string]any); m["$patch"] == nil && !liveIDs[format.IDOf(ks, e)] {
			entry(m)
		}
	}
	switch r.IntN(8) {
	case 0:
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	case 1:
		if len(order) > 0 {
			order = order[:r.IntN(len(order))]
		}
	}
	return order
}

// listShape is what a patch does to a live list: the identities it
// deletes, whether a deletion removes a live element (freed), whether
// the patch adds one, and whether it merges into one it deletes.
type listShape struct {
	deletes                     map[string]bool
	freed, added, deletedMerged bool
}

func shapeOf(live jsonItems, patch []any, ks format.KeySet) listShape {
	liveIDs := map[string]bool{}
	for p := range live {
		liveIDs[live.KeyID(p, ks)] = true
	}
	sh := listShape{deletes: map[string]bool{}}
	for _, e := range patch {
		if e.(map[string]any)["$patch"] != nil {
			id := format.IDOf(ks, e)
			sh.deletes[id] = true
			sh.freed = sh.freed || liveIDs[id]
		}
	}
	for _, e := range patch {
		if e.(map[string]any)["$patch"] == nil {
			id := format.IDOf(ks, e)
			sh.added = sh.added || !liveIDs[id]
			sh.deletedMerged = sh.deletedMerged || (liveIDs[id] && sh.deletes[id])
		}
	}
	return sh
}

// idsAt returns the identities of a plan's positions: live elements,
// then the patch's additions in order.
func idsAt(live jsonItems, patch []any, positions []int, ks format.KeySet) []string {
	var all []string
	seen := map[string]bool{}
	for p := range live {
		id := live.KeyID(p, ks)
		all = append(all, id)
		seen[id] = true
	}
	for _, e := range patch {
		if id := format.IDOf(ks, e); e.(map[string]any)["$patch"] == nil && !seen[id] {
			all = append(all, id)
			seen[id] = true
		}
	}
	out := make([]string, len(positions))
	for i, p := range positions {
		out[i] = all[p]
	}
	return out
}

func idsOf(items []any, ks format.KeySet) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = format.IDOf(ks, it)
	}
	return out
}

// following returns a patch that names live's keyed objects in order,
// leaving some out, adding new elements (newElem) between them, and now
// and then naming one twice or moving one to the front.
func following(r *rand.Rand, live []any, key []string, newElem func(bool) map[string]any) []any {
	var patch []any
	for _, it := range live {
		m := asMap(it)
		if r.IntN(5) == 0 {
			patch = append(patch, newElem(false))
		}
		if m == nil || r.IntN(4) == 0 {
			continue
		}
		e := map[string]any{"v": r.IntN(100)}
		complete := true
		for _, f := range key {
			v, ok := m[f]
			complete = complete && ok
			e[f] = jsonval.Expand(v)
		}
		if !complete {
			continue
		}
		patch = append(patch, e)
		if r.IntN(10) == 0 {
			patch = append(patch, e)
		}
	}
	if len(patch) > 1 && r.IntN(5) == 0 {
		last := len(patch) - 1
		patch = append(patch[last:], patch[:last]...)
	}
	return patch
}

// repeats reports whether an identity under ks is held twice among the
// live items or among the patch's merges.
func repeats(live jsonItems, patch []any, ks format.KeySet) bool {
	seen := map[string]bool{}
	for p := range live {
		id := live.KeyID(p, ks)
		if seen[id] {
			return true
		}
		seen[id] = true
	}
	inPatch := map[string]bool{}
	for _, e := range patch {
		if e.(map[string]any)["$patch"] != nil {
			continue // deletions may repeat
		}
		id := format.IDOf(ks, e)
		if inPatch[id] {
			return true
		}
		inPatch[id] = true
	}
	return false
}

// showList renders a live list with its raw items as text.
func showList(live []any) string {
	out := make([]any, len(live))
	for i, it := range live {
		out[i] = show(it)
	}
	return fmt.Sprint(out)
}
