package format

import "slices"

// Ordering chooses where a merge places the live list's items that the
// patch does not mention.
type Ordering uint8

const (
	// KubernetesOrder keeps server-only items near their live neighbours,
	// interleaving them by their live order, as Kubernetes does. Default.
	KubernetesOrder Ordering = iota
	// SeedOrder puts all server-only items first, in live order, then the
	// patch's items, as "Preserve Order in Strategic Merge Patch" describes.
	SeedOrder
)

// Arrange orders a merged list. Items whose id has a rank in front (the
// patch list's order, or $setElementOrder's) are sorted by that rank; the
// others (server-only items) by their rank in server, the live list. Then
// the two runs are joined: SeedOrder puts server-only items first;
// KubernetesOrder interleaves them, taking a server-only item before a
// front item only when both are live and the server-only item comes first
// in the live list. This is Kubernetes' normalizeElementOrder and
// mergeSortedSlice, in linear time.
func Arrange[T any](items []T, ids []string, front, server Ranks, ordering Ordering) ([]T, []string) {
	return ArrangeInPlace(slices.Clone(items), slices.Clone(ids), front, server, ordering)
}

// ArrangeInPlace is Arrange writing its result over items and ids.
func ArrangeInPlace[T any](items []T, ids []string, front, server Ranks, ordering Ordering) ([]T, []string) {
	// Each item's ranks, or -1, looked up once.
	var small [16]int
	ranks := small[:]
	if 2*len(ids) > len(small) {
		ranks = make([]int, 2*len(ids))
	}
	fr, sr := ranks[:len(ids)], ranks[len(ids):2*len(ids)]
	for i, id := range ids {
		fr[i], sr[i] = -1, -1
		if r, ok := front.Rank(id); ok {
			fr[i] = r
		}
		if r, ok := server.Rank(id); ok {
			sr[i] = r
		}
	}
	return ArrangeRanked(items, ids, fr, sr, ordering)
}

// ArrangeRanked is ArrangeInPlace for items whose ranks are known: item
// i's rank in front is fr[i], in server sr[i], each -1 for none. Ranks
// are small non-negative integers.
func ArrangeRanked[T any](items []T, ids []string, fr, sr []int, ordering Ordering) ([]T, []string) {
	out, outIDs := items[:0], ids[:0]
	type entry struct {
		item        T
		id          string
		rank, srank int
	}
	nf, unranked := 0, 0 // unranked: after every live item, for items no rank places
	for i := range fr {
		if fr[i] >= 0 {
			nf++
		}
		unranked = max(unranked, sr[i]+1)
	}
	var small [8]entry
	buf := small[:0] // fronts, then servers
	if len(items) > len(small) {
		buf = make([]entry, 0, len(items))
	}
	fronts, servers := buf[:0:nf], buf[nf:nf]
	for i, it := range items {
		if r := fr[i]; r >= 0 {
			fronts = append(fronts, entry{it, ids[i], r, sr[i]})
			continue
		}
		r := sr[i]
		if r < 0 {
			r = unranked
		}
		servers = append(servers, entry{it, ids[i], r, r})
	}
	fronts = BucketSort(fronts, func(e entry) int { return e.rank })
	servers = BucketSort(servers, func(e entry) int { return e.rank })
	take := func(e entry) {
		out = append(out, e.item)
		outIDs = append(outIDs, e.id)
	}
	if ordering == SeedOrder {
		for _, e := range servers {
			take(e)
		}
		for _, e := range fronts {
			take(e)
		}
		return out, outIDs
	}
	i, j := 0, 0
	for i < len(servers) && j < len(fronts) {
		if ri := fronts[j].srank; ri >= 0 && servers[i].rank < ri {
			take(servers[i])
			i++
		} else {
			take(fronts[j])
			j++
		}
	}
	for ; i < len(servers); i++ {
		take(servers[i])
	}
	for ; j < len(fronts); j++ {
		take(fronts[j])
	}
	return out, outIDs
}

// BucketSort sorts items stably by rank (small non-negative integers) in
// linear time; up to eight items are sorted in place.
func BucketSort[E any](items []E, rank func(E) int) []E {
	if len(items) < 2 {
		return items
	}
	sorted := true
	maxRank := 0
	for i, it := range items {
		r := rank(it)
		if i > 0 && r < rank(items[i-1]) {
			sorted = false
		}
		maxRank = max(maxRank, r)
	}
	if sorted {
		return items
	}
	if len(items) <= 8 { // a stable insertion sort, in place
		for i := 1; i < len(items); i++ {
			for j := i; j > 0 && rank(items[j]) < rank(items[j-1]); j-- {
				items[j], items[j-1] = items[j-1], items[j]
			}
		}
		return items
	}
	start := make([]int, maxRank+2)
	for _, it := range items {
		start[rank(it)+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	out := make([]E, len(items))
	for _, it := range items {
		r := rank(it)
		out[start[r]] = it
		start[r]++
	}
	return out
}

// Ranks gives ids their rank: the place of their first occurrence in the
// sequence they were added in. Up to eight ids are kept in place, so that
// the short lists of most objects cost no allocation; more go to a map.
type Ranks struct {
	small    [8]string
	n        int            // ids added, duplicates included
	distinct int            // distinct ids
	m        map[string]int // when more than len(small) were added
}

// MakeRanks returns empty Ranks with room for n ids.
func MakeRanks(n int) Ranks {
	var r Ranks
	if n > len(r.small) {
		r.m = make(map[string]int, n)
	}
	return r
}

// FirstRanks ranks ids by their first occurrence.
func FirstRanks(ids []string) Ranks {
	r := MakeRanks(len(ids))
	for _, id := range ids {
		r.Add(id)
	}
	return r
}

// Add ranks id next, unless it already has a rank.
func (r *Ranks) Add(id string) {
	if r.m == nil && r.n == len(r.small) {
		r.m = make(map[string]int, 2*r.n)
		for i, s := range r.small[:r.n] {
			if _, ok := r.m[s]; !ok {
				r.m[s] = i
			}
		}
	}
	if _, ok := r.Rank(id); !ok {
		r.distinct++
		if r.m != nil {
			r.m[id] = r.n
		}
	}
	if r.m == nil {
		r.small[r.n] = id
	}
	r.n++
}

// Rank returns the rank of id, and whether it has one.
func (r *Ranks) Rank(id string) (int, bool) {
	if r.m != nil {
		i, ok := r.m[id]
		return i, ok
	}
	for i, s := range r.small[:r.n] {
		if s == id {
			return i, true
		}
	}
	return 0, false
}

// Len is the number of distinct ids ranked.
func (r *Ranks) Len() int { return r.distinct }
