package engine

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestKeyedSafe checks keyedSafe, scanned for short lists and counted for
// longer ones, against its definition on random lists of either length.
func TestKeyedSafe(t *testing.T) {
	oracle := func(oids, mids []string) bool {
		for i := range mids {
			for j := range i {
				if mids[i] == mids[j] {
					return false
				}
			}
			n := 0
			for _, o := range oids {
				if o == mids[i] {
					n++
				}
			}
			if n > 1 {
				return false
			}
		}
		return true
	}
	r := rand.New(rand.NewPCG(1, 2))
	ids := func(n, distinct int) []string {
		l := make([]string, n)
		for i := range l {
			l[i] = strconv.Itoa(r.IntN(distinct))
		}
		return l
	}
	longSafe, longUnsafe := 0, 0
	for range 4000 {
		no, nm := r.IntN(2*smallIDs+4), r.IntN(2*smallIDs+4)
		oids, mids := ids(no, 3*smallIDs), ids(nm, 3*smallIDs)
		want := oracle(oids, mids)
		if got := keyedSafe(oids, mids); got != want {
			t.Fatalf("keyedSafe(%q, %q) = %v, want %v", oids, mids, got, want)
		}
		x := ObjList{oids: oids, mids: mids}
		if got := x.keyedSafe(); got != want {
			t.Fatalf("ObjList.keyedSafe(%q, %q) = %v, want %v", oids, mids, got, want)
		}
		for _, id := range oids {
			if x.held(id) != contains(mids, id) {
				t.Fatalf("held(%q) in %q is %v", id, mids, x.held(id))
			}
		}
		if nm > smallIDs && want {
			longSafe++
		} else if nm > smallIDs {
			longUnsafe++
		}
	}
	if longSafe == 0 || longUnsafe == 0 {
		t.Fatalf("long lists: %d safe, %d unsafe; both must be tried", longSafe, longUnsafe)
	}
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}
