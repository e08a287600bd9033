package rfcpatch

import (
	"strconv"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// list writes a list's changes. Elements that have an identity (the merge
// key of an object in a merge list, the value of a scalar in a set) pair
// by it; others pair by position.
func (w *writer) list(a, b []any, s reflectschema.Slot) {
	ids := identities(s)
	if ids == nil {
		w.positional(a, b, s.Elem())
		return
	}
	w.keyed(a, b, ids, s.Elem())
}

// positional pairs elements by index, then adds or removes the tail.
func (w *writer) positional(a, b []any, es reflectschema.Slot) {
	for i := range min(len(a), len(b)) {
		n := w.pushIndex(i)
		w.value(a[i], b[i], es)
		w.path = w.path[:n]
	}
	for i := len(a); i < len(b); i++ {
		n := w.pushIndex(i)
		w.op("add", b[i], true)
		w.path = w.path[:n]
	}
	for i := len(a) - 1; i >= len(b); i-- {
		n := w.pushIndex(i)
		w.op("remove", nil, false)
		w.path = w.path[:n]
	}
}

// keyed pairs the k-th live element of an identity with the k-th result
// element of the same identity. Paired elements that keep their relative
// order stay and are diffed in place; the rest of the live list is
// removed, from the end so that indexes hold, and the result's other
// elements are added where they belong. Which pairs stay is chosen
// greedily in one pass over each list, the better of the two kept: a
// moved element costs a removal and an addition rather than a subsequence
// search.
func (w *writer) keyed(a, b []any, id func(any) (string, bool), es reflectschema.Slot) {
	stay := stayingPairs(a, b, id)
	for i := len(a) - 1; i >= 0; i-- {
		if stay[i] < 0 {
			n := w.pushIndex(i)
			w.op("remove", nil, false)
			w.path = w.path[:n]
		}
	}
	i := 0
	for j, e := range b {
		for i < len(a) && stay[i] < 0 {
			i++
		}
		n := w.pushIndex(j)
		if i < len(a) && stay[i] == j {
			w.value(a[i], e, es)
			i++
		} else {
			w.op("add", e, true)
		}
		w.path = w.path[:n]
	}
}

// stayingPairs returns, for each live element, the index of the result
// element it stays as, or -1; staying indexes increase.
func stayingPairs(a, b []any, id func(any) (string, bool)) []int {
	wanted := make(map[string][]int, len(b))
	for j, e := range b {
		if k, ok := id(e); ok {
			wanted[k] = append(wanted[k], j)
		}
	}
	pair := make([]int, len(a)) // the partner in b, or -1
	from := make([]int, len(b)) // the partner in a, or -1
	for j := range from {
		from[j] = -1
	}
	for i, e := range a {
		pair[i] = -1
		if k, ok := id(e); ok {
			if q := wanted[k]; len(q) > 0 {
				pair[i], from[q[0]] = q[0], i
				wanted[k] = q[1:]
			}
		}
	}
	// In live order: keep a pair whose result index passes all kept.
	byLive := make([]int, len(a))
	kept, last := 0, -1
	for i, j := range pair {
		byLive[i] = -1
		if j > last {
			byLive[i], last = j, j
			kept++
		}
	}
	// In result order: keep a pair whose live index passes all kept.
	byResult := make([]int, len(a))
	for i := range byResult {
		byResult[i] = -1
	}
	keptR, last := 0, -1
	for j, i := range from {
		if i > last {
			byResult[i], last = j, i
			keptR++
		}
	}
	if keptR > kept {
		return byResult
	}
	return byLive
}

// identities returns how elements of a list at s are identified, or nil
// for a list whose elements pair by position.
func identities(s reflectschema.Slot) func(any) (string, bool) {
	if !s.IsMergeList() {
		return nil
	}
	if !s.IsObjectList() {
		return jsonval.ScalarKey
	}
	key := s.Patch.RecommendedMergeKey
	if len(key) == 0 {
		key = s.Patch.MergeKey
	}
	if len(key) == 0 {
		return nil
	}
	return func(e any) (string, bool) {
		m, ok := e.(map[string]any)
		if !ok {
			return "", false
		}
		var b []byte
		for _, f := range key {
			v, ok := m[f]
			if !ok {
				b = append(b, '-')
				continue
			}
			k, ok := jsonval.ScalarKey(v)
			if !ok {
				return "", false
			}
			b = strconv.AppendInt(append(b, '+'), int64(len(k)), 10)
			b = append(append(b, ':'), k...)
		}
		return string(b), true
	}
}
