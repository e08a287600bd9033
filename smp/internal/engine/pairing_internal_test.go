package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// agreesByScan is agreeIndex.sole by brute force: the one candidate with
// e's default identity holding every key field e holds, with its value.
func agreesByScan(e any, cands []any, def, ks format.KeySet) int {
	m, _ := e.(map[string]any)
	found := -1
	for p, c := range cands {
		cm, _ := c.(map[string]any)
		if format.IDOf(def, c) != format.IDOf(def, e) {
			continue
		}
		agree := true
		for _, f := range ks.Fields {
			mv, inM := m[f]
			if !inM {
				continue
			}
			cv, inC := cm[f]
			mk, _ := jsonval.ScalarKey(mv)
			ck, _ := jsonval.ScalarKey(cv)
			agree = agree && inC && mk == ck
		}
		if agree {
			if found >= 0 {
				return -1
			}
			found = p
		}
	}
	return found
}

// TestAgreeIndexAgainstScan checks agreeIndex on random lists, values
// chosen to collide (numbers and strings of the same text, separators in
// Values), against a scan.
func TestAgreeIndexAgainstScan(t *testing.T) {
	def := format.KeySet{Fields: []string{"port"}}
	ks := format.KeySet{Fields: []string{"port", "protocol", "host"}, Directive: true}
	values := []any{"1", int64(1), "1:1", "", "a\x00b", float64(2), "2"}
	elem := func(r *rand.Rand) any {
		if r.IntN(12) == 0 {
			return []any{"not an object"}
		}
		m := map[string]any{}
		for _, f := range ks.Fields {
			if r.IntN(4) > 0 {
				m[f] = values[r.IntN(len(values))]
			}
		}
		return m
	}
	// Values whose texts joined would collide.
	x := newAgreeIndex(def, ks, jsonItems{map[string]any{"port": "1", "protocol": "1", "host": "1:1"}})
	x.Add(0)
	if p := x.Sole(jsonItems{map[string]any{"port": "1", "protocol": "1:1", "host": "1"}}, 0); p != -1 {
		t.Fatalf("values 1:1,1 agree with 1,1:1 (position %d)", p)
	}
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 11))
		var cands []any
		for range r.IntN(40) {
			cands = append(cands, elem(r))
		}
		x := newAgreeIndex(def, ks, jsonItems(cands))
		for p := range cands {
			x.Add(p)
		}
		for range 50 {
			e := elem(r)
			if got, want := x.Sole(jsonItems{e}, 0), agreesByScan(e, cands, def, ks); got != want {
				t.Fatalf("seed %d: sole(%v) = %d, want %d among %v", seed, e, got, want, cands)
			}
		}
	}
}

// TestClaimSole checks that a candidate two seekers agree with pairs with
// neither, and that seekers left out do not claim.
func TestClaimSole(t *testing.T) {
	def := format.KeySet{Fields: []string{"port"}}
	ks := format.KeySet{Fields: []string{"port", "protocol"}, Directive: true}
	live := jsonItems{map[string]any{"port": "80", "protocol": "TCP"}, map[string]any{"port": "81", "protocol": "UDP"}}
	x := newAgreeIndex(def, ks, live)
	x.Add(0)
	x.Add(1)
	seekers := jsonItems{map[string]any{"port": "80"}, map[string]any{"port": "80", "protocol": "TCP"}, map[string]any{"port": "81"}}
	for _, c := range []struct {
		name    string
		seeking func(int) bool
		want    map[int]int // seeker → candidate
	}{
		{"every seeker: 80 claimed twice, 81 once", func(int) bool { return true }, map[int]int{2: 1}},
		{"the second seeker left out", func(s int) bool { return s != 1 }, map[int]int{0: 0, 2: 1}},
		{"none", func(int) bool { return false }, map[int]int{}},
	} {
		got := map[int]int{}
		x.claimSole(seekers, len(seekers), c.seeking, func(s, cand int) { got[s] = cand })
		if len(got) != len(c.want) {
			t.Errorf("%s: pairs %v, want %v", c.name, got, c.want)
			continue
		}
		for s, cand := range c.want {
			if got[s] != cand {
				t.Errorf("%s: pairs %v, want %v", c.name, got, c.want)
			}
		}
	}
}
