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
// two, identities repeated or missing, patch elements new or matching,
// under both orderings. Where planUnique takes the list, both must give
// the same positions and the same merges; it must decline every list with
// a repeated identity.
func TestPlanUniqueMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := []reflectschema.PatchMeta{
		{Strategy: reflectschema.Merge, MergeKey: []string{"name"}},
		{Strategy: reflectschema.Merge, MergeKey: []string{"port", "protocol"}},
	}
	taken, declined, followed, inPlaceTaken := 0, 0, 0, 0
	for range 20000 {
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
		ordering := format.Ordering(r.IntN(2))
		a := &Applier{Cfg: &Config{Directives: format.DirectivesAll, Limits: jsonval.DefaultLimits().Bounded(), KubeDirectiveScope: true, Ordering: ordering}}
		in := ListInput{Orig: live, OrigPresent: true, Patch: patch, InPatch: true}
		s := slot{Patch: meta}

		var fast ListPlan
		if err := fast.init(a, JSONItems(live), in, s, nil); err != nil {
			t.Fatal(err)
		}
		got, ok := fast.planUnique()
		repeated := repeats(JSONItems(live), patch, format.KeysOf(s).DefaultSet())
		if !ok {
			declined++
			if !repeated {
				t.Fatalf("declined a list without repeated identities: live %s, patch %v", showList(live), patch)
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
		if repeated {
			t.Fatalf("took a list with a repeated identity: live %s, patch %v", showList(live), patch)
		}
		var general ListPlan
		if err := general.init(a, JSONItems(live), in, s, nil); err != nil {
			t.Fatal(err)
		}
		if err := general.mergeLive(); err != nil {
			t.Fatal(err)
		}
		want, err := general.order()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("live %s, patch %v (ordering %d): positions %v, want %v", showList(live), patch, ordering, got, want)
		}
		if len(fast.Ops) != len(general.Ops) {
			t.Fatalf("live %s, patch %v: %d merges, want %d", showList(live), patch, len(fast.Ops), len(general.Ops))
		}
		for i, op := range fast.Ops {
			g := general.Ops[i]
			if op.Pos != g.Pos || op.Fresh != g.Fresh || op.prev != g.prev || op.Elem.id != g.Elem.id {
				t.Fatalf("live %s, patch %v: merge %d is %+v, want %+v", showList(live), patch, i, op, g)
			}
		}
	}
	if taken < 1000 || followed < 1000 || declined < 1000 || inPlaceTaken < 300 {
		t.Fatalf("the one-pass plan took %d lists (%d patches following the live list, %d longer than %d naming it in place) and declined %d: too few to compare",
			taken, followed, inPlaceTaken, smallIDs, declined)
	}
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
// live items or among the patch's elements.
func repeats(live JSONItems, patch []any, ks format.KeySet) bool {
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
