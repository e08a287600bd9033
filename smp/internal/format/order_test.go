package format

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRanksAgainstMap checks Ranks, kept in place up to eight ids and in a
// map beyond, against a map of first occurrences, for lists of every
// length around the switch and with duplicates.
func TestRanksAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20; n++ {
		for trial := 0; trial < 20; trial++ {
			ids := make([]string, n)
			for i := range ids {
				ids[i] = fmt.Sprint(r.IntN(n + 1))
			}
			want := map[string]int{}
			for i, id := range ids {
				if _, ok := want[id]; !ok {
					want[id] = i
				}
			}
			for _, got := range []Ranks{FirstRanks(ids), added(ids)} {
				if got.Len() != len(want) {
					t.Fatalf("%q: Len %d, want %d", ids, got.Len(), len(want))
				}
				for id := range n + 2 {
					k := fmt.Sprint(id)
					gr, gok := got.Rank(k)
					wr, wok := want[k]
					if gr != wr || gok != wok {
						t.Fatalf("%q: Rank(%s) = %d, %v; want %d, %v", ids, k, gr, gok, wr, wok)
					}
				}
			}
		}
	}
}

func added(ids []string) Ranks {
	var r Ranks
	for _, id := range ids {
		r.Add(id)
	}
	return r
}

// TestArrangeSmallAllocates checks that arranging a short list costs no
// allocation beyond its result.
func TestArrangeSmallAllocates(t *testing.T) {
	items := []int{0, 1, 2, 3}
	ids := []string{"a", "b", "c", "d"}
	front, server := FirstRanks([]string{"d", "b"}), FirstRanks([]string{"a", "b", "c", "d"})
	allocs := testing.AllocsPerRun(100, func() {
		it, is := append([]int(nil), items...), append([]string(nil), ids...)
		ArrangeInPlace(it, is, front, server, KubernetesOrder)
	})
	if allocs > 2 {
		t.Fatalf("ArrangeInPlace of 4 items: %v allocations, want the 2 copies only", allocs)
	}
}

// TestBucketSortStable checks BucketSort, in place up to eight items and
// by buckets beyond, against slices.SortStableFunc.
func TestBucketSortStable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	type item struct{ rank, seq int }
	for n := 0; n < 20; n++ {
		for trial := 0; trial < 20; trial++ {
			items := make([]item, n)
			for i := range items {
				items[i] = item{r.IntN(5), i}
			}
			want := slices.Clone(items)
			slices.SortStableFunc(want, func(a, b item) int { return a.rank - b.rank })
			got := BucketSort(slices.Clone(items), func(it item) int { return it.rank })
			if !slices.Equal(got, want) {
				t.Fatalf("BucketSort(%v) = %v, want %v", items, got, want)
			}
		}
	}
}
