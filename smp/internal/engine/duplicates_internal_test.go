package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestHasDuplicates compares hasDuplicates with a map on random lists,
// short and long, whose identities repeat often, rarely or never, and
// on lists whose only repeat is first and last, or adjacent.
func TestHasDuplicates(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	oracle := func(ids []string) bool {
		seen := map[string]bool{}
		for _, id := range ids {
			if seen[id] {
				return true
			}
			seen[id] = true
		}
		return false
	}
	found := 0
	for range 20000 {
		n := r.IntN(300)
		span := 1 + r.IntN(n+1) // repeats likely
		if r.IntN(2) == 0 {
			span = 8*n*n + 1 // repeats rare
		}
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprint(r.IntN(span))
		}
		if got, want := hasDuplicates(ids), oracle(ids); got != want {
			t.Fatalf("hasDuplicates(%q) = %v, want %v", ids, got, want)
		}
		if oracle(ids) {
			found++
		}
	}
	if found < 5000 || found > 15000 {
		t.Fatalf("%d of 20000 lists repeat an identity: too lopsided to compare", found)
	}
	for _, n := range []int{smallIDs + 1, 100, 5000} {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprint("id-", i)
		}
		if hasDuplicates(ids) {
			t.Fatalf("%d distinct identities reported as repeating", n)
		}
		ids[n-1] = ids[0]
		if !hasDuplicates(ids) {
			t.Fatalf("%d identities, the last repeating the first: not reported", n)
		}
		ids[n-1], ids[n/2+1] = "last", ids[n/2]
		if !hasDuplicates(ids) {
			t.Fatalf("%d identities, two adjacent equal: not reported", n)
		}
	}
}
