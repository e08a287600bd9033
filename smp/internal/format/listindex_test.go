package format

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// listOf is a list of decoded JSON items, identified by IDOf.
type listOf []any

func (l listOf) KeyID(p int, ks KeySet) string { return IDOf(ks, l[p]) }

// naiveIndex is ListIndex's contract by brute force: every query scans
// every position.
type naiveIndex struct {
	items []any
	dead  []bool
}

func (x *naiveIndex) positions(ks KeySet, id string) []int {
	var out []int
	for p, it := range x.items {
		if !x.dead[p] && IDOf(ks, it) == id {
			out = append(out, p)
		}
	}
	return out
}

// TestListIndexAgainstScan runs random removals, replacements (which may
// change an item's identity under one key set and not another) and
// appends on a ListIndex with many duplicate identities, checking every
// answer against a full scan.
func TestListIndexAgainstScan(t *testing.T) {
	sets := []KeySet{{Fields: []string{"a"}}, {Fields: []string{"a", "b"}, Directive: true}, {Fields: []string{"b"}, Directive: true}}
	item := func(r *rand.Rand) any {
		m := map[string]any{"a": fmt.Sprint(r.IntN(4))}
		if r.IntN(3) > 0 {
			m["b"] = int64(r.IntN(3))
		}
		if r.IntN(10) == 0 {
			return "not an object"
		}
		return m
	}
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		var items []any
		for range 5 + r.IntN(60) {
			items = append(items, item(r))
		}
		src := slices.Clone(items)
		ix := NewListIndex(len(src))
		x, want := &ix, &naiveIndex{items: slices.Clone(items), dead: make([]bool, len(items))}
		for step := range 300 {
			ks := sets[r.IntN(len(sets))]
			id := IDOf(ks, item(r))
			where := fmt.Sprintf("seed %d step %d, %v id %q", seed, step, ks.Fields, id)
			wantPos := want.positions(ks, id)
			switch op := r.IntN(6); {
			case op == 0:
				x.RemoveAll(listOf(src), ks, id)
				for _, p := range wantPos {
					want.dead[p] = true
				}
			case op == 1 && len(wantPos) > 0:
				p, v := wantPos[r.IntN(len(wantPos))], item(r)
				src[p] = v
				x.Changed(listOf(src), p)
				want.items[p] = v
			case op == 2:
				v := item(r)
				src = append(src, v)
				x.Added(listOf(src))
				want.items = append(want.items, v)
				want.dead = append(want.dead, false)
			case op == 3:
				if got := x.Positions(listOf(src), ks, id); !slices.Equal(got, wantPos) {
					t.Fatalf("%s: positions %v, want %v", where, got, wantPos)
				}
			default:
				p, n := x.First(listOf(src), ks, id)
				wp := -1
				if len(wantPos) > 0 {
					wp = wantPos[0]
				}
				if p != wp || n != len(wantPos) {
					t.Fatalf("%s: first = %d, %d; want %d, %d", where, p, n, wp, len(wantPos))
				}
			}
		}
		for _, ks := range sets {
			livePos, ids := x.Live(listOf(src), ks, true)
			live := make([]any, len(livePos))
			for i, p := range livePos {
				live[i] = src[p]
			}
			var wantLive []any
			for p, it := range want.items {
				if !want.dead[p] {
					wantLive = append(wantLive, it)
				}
			}
			if len(live) != len(wantLive) {
				t.Fatalf("seed %d: %d live items, want %d", seed, len(live), len(wantLive))
			}
			for i := range live {
				if fmt.Sprint(live[i]) != fmt.Sprint(wantLive[i]) || ids[i] != IDOf(ks, wantLive[i]) {
					t.Fatalf("seed %d: live item %d is %v (%q), want %v", seed, i, live[i], ids[i], wantLive[i])
				}
			}
		}
	}
}
