package engine

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// TestSameUniqueMatchesGeneral checks the shortcut for lists whose
// identities match place by place, none twice (sameUnique), against the
// general path on the same lists: the same pairs, keyed-safety, deletions
// and re-keyed elements, in the two-way and the deletions pass, for lists
// short enough to scan and long enough to map.
func TestSameUniqueMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ks := format.KeySet{Fields: []string{"name"}, Directive: true}
	list := func(ids []int) jsonItems {
		l := make(jsonItems, len(ids))
		for i, id := range ids {
			l[i] = map[string]any{"name": strconv.Itoa(id)}
		}
		return l
	}
	counts := map[string]int{}
	for range 6000 {
		n := r.IntN(2 * (smallIDs + 4))
		distinct := n*n + 1 + r.IntN(n*n+1) // mostly unique
		if r.IntN(4) == 0 {
			distinct = max(1, n/2) // identities repeat
		}
		oids := make([]int, n)
		for i := range oids {
			oids[i] = r.IntN(distinct)
		}
		mids := append([]int(nil), oids...)
		switch r.IntN(4) {
		case 0: // one identity changed
			if n > 0 {
				mids[r.IntN(n)] = r.IntN(distinct + 2)
			}
		case 1: // two swapped
			if n > 1 {
				i, j := r.IntN(n), r.IntN(n)
				mids[i], mids[j] = mids[j], mids[i]
			}
		}
		ol, ml := list(oids), list(mids)
		for _, pass := range []Pass{PassTwoWay, PassDeletions} {
			run := func(general bool) (ObjList, bool, []any, map[string]bool) {
				x := ObjList{d: &Differ{Cfg: &Config{}, Pass: pass}, o: &ol, m: &ml,
					oids: sideIDs(&ol, ks), mids: sideIDs(&ml, ks), ks: ks, def: ks}
				if general {
					x.aligned = 2
				}
				safe := x.keyedSafe()
				x.pair()
				return x, safe, x.deletions(), x.rekeyed()
			}
			short, safe, dels, rekeyed := run(false)
			general, gSafe, gDels, gRekeyed := run(true)
			require.Equal(t, general.pairs, short.pairs, "pairs of %v → %v", oids, mids)
			require.Equal(t, gSafe, safe, "keyed-safe %v → %v", oids, mids)
			require.Equal(t, gDels, dels, "deletions %v → %v", oids, mids)
			require.Equal(t, gRekeyed, rekeyed, "re-keyed %v → %v", oids, mids)
			switch {
			case short.aligned != 1:
				counts["declined"]++
			case n > smallIDs:
				counts["taken, mapped"]++
			default:
				counts["taken, scanned"]++
			}
		}
	}
	for _, c := range []string{"declined", "taken, mapped", "taken, scanned"} {
		require.GreaterOrEqual(t, counts[c], 1000, "lists %s: %v", c, counts)
	}
}
