package smp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// composeStats counts, for one fixtures type, how often Compose refused.
type composeStats struct {
	name             string
	reasons          sync.Map // reason -> *atomic.Int64
	chains, refused  atomic.Int64
	other, otherRef  atomic.Int64
	assoc, assocSkip atomic.Int64
}

func (s *composeStats) log(t *testing.T) {
	rate := func(r, n int64) string {
		if n == 0 {
			return "-"
		}
		return fmt.Sprintf("%d/%d (%.1f%%)", r, n, 100*float64(r)/float64(n))
	}
	s.reasons.Range(func(k, v any) bool {
		t.Logf("  %d× %s", v.(*atomic.Int64).Load(), k)
		return true
	})
	t.Logf("%s: diff chains refused %s; other patches refused %s; associativity checked %d (skipped %d)",
		s.name, rate(s.refused.Load(), s.chains.Load()), rate(s.otherRef.Load(), s.other.Load()), s.assoc.Load(), s.assocSkip.Load())
}

const composeDebug = false

var composeReasonText = regexp.MustCompile(`^[^:]*: cannot compose [^:]*: `)

func (s *composeStats) reason(what string, err error) {
	var e *smp.Error
	errors.As(err, &e)
	r := what + " " + e.Path.String() + ": " + composeReasonText.ReplaceAllString(err.Error(), "")
	v, _ := s.reasons.LoadOrStore(r, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

// composeProperties runs the composition properties for one fixtures
// type: 100 checks each by default (-rapid.checks).
func composeProperties[T any](t *testing.T, name string, gen func(*rapid.T) T, maxRefused float64) {
	st := &composeStats{name: name}
	t.Run("DiffChain", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { composeDiffChain(rt, gen, st) })
	})
	t.Run("OtherPatches", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { composeOtherPatches(rt, gen, st) })
	})
	st.log(t)
	// Diffs made from one document to the next compose almost always.
	if n := st.chains.Load(); n >= 50 {
		require.LessOrEqual(t, float64(st.refused.Load())/float64(n), maxRefused, "refusal rate on diff chains")
	}
}

// composeDiffChain draws documents d0..dn (2 <= n <= 5), diffs each from
// the one before, and checks that the composition of the diffs applied
// to d0 is what applying them in turn gives, and that composing in two
// halves gives the same.
func composeDiffChain[T any](rt *rapid.T, gen func(*rapid.T) T, st *composeStats) {
	n := rapid.IntRange(2, 5).Draw(rt, "n")
	docs := []T{gen(rt)}
	for i := range n {
		if rapid.IntRange(0, 5).Draw(rt, "same") == 0 {
			docs = append(docs, docs[i])
		} else {
			docs = append(docs, gen(rt))
		}
	}
	patches := make([]smp.Patch, n)
	for i := range n {
		p, err := smp.Diff(docs[i], docs[i+1])
		if err != nil {
			return // documents the differ refuses (a merge key field left out)
		}
		patches[i] = p
	}
	want, err := composeApplyAll(docs[0], patches)
	if err != nil {
		return // a diff the applier refuses (a merge key field left out)
	}
	st.chains.Add(1)
	got, err := smp.Compose[T](patches...)
	if err != nil {
		composeCheckRefusal(rt, err)
		st.refused.Add(1)
		st.reason("chain", err)
		return
	}
	res, err := smp.Apply(docs[0], got)
	require.NoError(rt, err, "composed %s of %v", got, patches)
	composeSameDoc(rt, want, res, false, patches, got)
	composeSameAsJSON[T](rt, patches, got)

	k := rapid.IntRange(1, n-1).Draw(rt, "split")
	left, lerr := smp.Compose[T](patches[:k]...)
	right, rerr := smp.Compose[T](patches[k:]...)
	var both smp.Patch
	if lerr == nil && rerr == nil {
		both, err = smp.Compose[T](left, right)
	}
	if lerr != nil || rerr != nil || err != nil {
		st.assocSkip.Add(1)
		return
	}
	st.assoc.Add(1)
	res2, err := smp.Apply(docs[0], both)
	require.NoError(rt, err, "composed in halves: %s", both)
	composeSameDoc(rt, want, res2, false, patches, both)
}

// composeOtherPatches composes patches made from other documents than the
// one they are applied to (diffs and three-way patches), where they apply
// in turn. Lists may then hold
// items no patch names, which Compose does not promise to place as the
// sequence does: the results are compared with lists as multisets.
func composeOtherPatches[T any](rt *rapid.T, gen func(*rapid.T) T, st *composeStats) {
	d := gen(rt)
	n := rapid.IntRange(2, 3).Draw(rt, "n")
	patches := make([]smp.Patch, n)
	for i := range n {
		var err error
		if rapid.IntRange(0, 2).Draw(rt, "threeWay") == 0 {
			patches[i], err = smp.ThreeWay(gen(rt), gen(rt), gen(rt), smp.WithOverwrite(true))
		} else {
			patches[i], err = smp.Diff(gen(rt), gen(rt))
		}
		if err != nil {
			return
		}
	}
	want, err := composeApplyAll(d, patches)
	if err != nil {
		return // the patches do not apply in turn: nothing to compare
	}
	st.other.Add(1)
	got, err := smp.Compose[T](patches...)
	if err != nil {
		composeCheckRefusal(rt, err)
		st.otherRef.Add(1)
		st.reason("other", err)
		if testing.Verbose() && composeDebug {
			fmt.Printf("REFUSED %v\n  %v\n", err, patches)
		}
		return
	}
	res, err := smp.Apply(d, got)
	require.NoError(rt, err, "composed %s of %v", got, patches)
	composeSameDoc(rt, want, res, true, patches, got)
}

// composeSameAsJSON checks that ComposeJSON, on the patches' wire form
// and the data struct T, gives the patch Compose gave.
func composeSameAsJSON[T any](t *rapid.T, patches []smp.Patch, composed smp.Patch) {
	raw := make([][]byte, len(patches))
	for i, p := range patches {
		raw[i] = []byte(p.String())
	}
	var zero T
	got, err := smp.ComposeJSON(zero, raw...)
	require.NoError(t, err)
	require.JSONEq(t, composed.String(), string(got))
}

func composeApplyAll[T any](d T, patches []smp.Patch) (T, error) {
	for _, p := range patches {
		var err error
		if d, err = smp.Apply(d, p); err != nil {
			return d, err
		}
	}
	return d, nil
}

// composeCheckRefusal checks that a refusal is an *smp.Error of kind
// NotComposable whose path names where (never the whole document) and
// whose message says why.
func composeCheckRefusal(t require.TestingT, err error) {
	var e *smp.Error
	require.True(t, errors.As(err, &e), "%v is an *smp.Error", err)
	require.Equal(t, smp.ErrNotComposable, e.Kind, "%v", err)
	require.NotEmpty(t, e.Path, "refusal names a path: %v", err)
	require.Contains(t, e.Msg, "cannot compose")
}

// composeSameDoc compares two documents as JSON; unordered compares every
// list as a multiset.
func composeSameDoc(t require.TestingT, want, got any, unordered bool, patches []smp.Patch, composed smp.Patch) {
	w, g := composeCanonical(t, want, unordered), composeCanonical(t, got, unordered)
	if w != g {
		require.Equal(t, w, g, "patches %v composed into %s", patches, composed)
	}
}

func composeCanonical(t require.TestingT, v any, unordered bool) string {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var x any
	require.NoError(t, json.Unmarshal(data, &x))
	if x == nil {
		x = map[string]any{} // Apply makes a new object for a nil pointer
	}
	if unordered {
		x = composeSortLists(x)
	}
	out, err := json.Marshal(x)
	require.NoError(t, err)
	return string(out)
}

func composeSortLists(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = composeSortLists(e)
		}
	case []any:
		keys := make([]string, len(v))
		for i, e := range v {
			v[i] = composeSortLists(e)
			b, _ := json.Marshal(v[i])
			keys[i] = string(b)
		}
		idx := make([]int, len(v))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			switch {
			case keys[a] < keys[b]:
				return -1
			case keys[a] > keys[b]:
				return 1
			}
			return 0
		})
		out := make([]any, len(v))
		for i, j := range idx {
			out[i] = v[j]
		}
		return out
	}
	return v
}

// TestComposeProperties checks Compose on ten fixtures types: the two
// Kubernetes kinds, a multi-field key, recommended keys with
// $patchMergeKey, unions with $retainKeys, ordered lists and sets. A
// chain refuses where one diff empties a set (omitempty writes null) and
// a later one fills it again: no patch can say that for every document,
// and SeedOrderedSet, a document that is one small set, does it often.
func TestComposeProperties(t *testing.T) {
	t.Run("Deployment", func(t *testing.T) { composeProperties(t, "Deployment", typedGenDeployment, 0.15) })
	t.Run("Pod", func(t *testing.T) { composeProperties(t, "Pod", typedGenPod, 0.15) })
	t.Run("Gateway", func(t *testing.T) { composeProperties(t, "Gateway", typedGenGateway, 0.15) })
	t.Run("SeedMultiKey", func(t *testing.T) { composeProperties(t, "SeedMultiKey", typedGenSeedMultiKey, 0.15) })
	t.Run("SeedRecommended", func(t *testing.T) { composeProperties(t, "SeedRecommended", typedGenSeedRecommended, 0.15) })
	t.Run("SeedRecommendedBaz", func(t *testing.T) {
		composeProperties(t, "SeedRecommendedBaz", typedGenSeedRecommendedBaz, 0.15)
	})
	t.Run("SeedUnion", func(t *testing.T) { composeProperties(t, "SeedUnion", typedGenSeedUnion, 0.15) })
	t.Run("SeedDiscriminatedUnion", func(t *testing.T) {
		composeProperties(t, "SeedDiscriminatedUnion", typedGenSeedDiscriminatedUnion, 0.15)
	})
	t.Run("SeedOrderedList", func(t *testing.T) { composeProperties(t, "SeedOrderedList", typedGenSeedOrderedList, 0.15) })
	t.Run("SeedOrderedSet", func(t *testing.T) { composeProperties(t, "SeedOrderedSet", typedGenSeedOrderedSet, 0.4) })
}
