package smp

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// naiveIndex is listIndex's contract by brute force: every query scans
// every position.
type naiveIndex struct {
	items []any
	dead  []bool
}

func (x *naiveIndex) positions(ks keySet, id string) []int {
	var out []int
	for p, it := range x.items {
		if !x.dead[p] && idOf(ks, it) == id {
			out = append(out, p)
		}
	}
	return out
}

// TestListIndexAgainstScan runs random removals, replacements (which may
// change an item's identity under one key set and not another) and
// appends on a listIndex with many duplicate identities, checking every
// answer against a full scan.
func TestListIndexAgainstScan(t *testing.T) {
	sets := []keySet{{fields: []string{"a"}}, {fields: []string{"a", "b"}, directive: true}, {fields: []string{"b"}, directive: true}}
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
		ix := newListIndex(len(src))
		x, want := &ix, &naiveIndex{items: slices.Clone(items), dead: make([]bool, len(items))}
		for step := range 300 {
			ks := sets[r.IntN(len(sets))]
			id := idOf(ks, item(r))
			where := fmt.Sprintf("seed %d step %d, %v id %q", seed, step, ks.fields, id)
			wantPos := want.positions(ks, id)
			switch op := r.IntN(6); {
			case op == 0:
				x.removeAll(jsonItems(src), ks, id)
				for _, p := range wantPos {
					want.dead[p] = true
				}
			case op == 1 && len(wantPos) > 0:
				p, v := wantPos[r.IntN(len(wantPos))], item(r)
				src[p] = v
				x.changed(jsonItems(src), p)
				want.items[p] = v
			case op == 2:
				v := item(r)
				src = append(src, v)
				x.added(jsonItems(src))
				want.items = append(want.items, v)
				want.dead = append(want.dead, false)
			case op == 3:
				if got := x.positions(jsonItems(src), ks, id); !slices.Equal(got, wantPos) {
					t.Fatalf("%s: positions %v, want %v", where, got, wantPos)
				}
			default:
				p, n := x.first(jsonItems(src), ks, id)
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
			livePos, ids := x.live(jsonItems(src), ks, true)
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
				if fmt.Sprint(live[i]) != fmt.Sprint(wantLive[i]) || ids[i] != idOf(ks, wantLive[i]) {
					t.Fatalf("seed %d: live item %d is %v (%q), want %v", seed, i, live[i], ids[i], wantLive[i])
				}
			}
		}
	}
}

// agreesByScan is agreeIndex.sole by brute force: the one candidate with
// e's default identity holding every key field e holds, with its value.
func agreesByScan(e any, cands []any, def, ks keySet) int {
	m, _ := e.(map[string]any)
	found := -1
	for p, c := range cands {
		cm, _ := c.(map[string]any)
		if idOf(def, c) != idOf(def, e) {
			continue
		}
		agree := true
		for _, f := range ks.fields {
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
// values), against a scan.
func TestAgreeIndexAgainstScan(t *testing.T) {
	def := keySet{fields: []string{"port"}}
	ks := keySet{fields: []string{"port", "protocol", "host"}, directive: true}
	values := []any{"1", int64(1), "1:1", "", "a\x00b", float64(2), "2"}
	elem := func(r *rand.Rand) any {
		if r.IntN(12) == 0 {
			return []any{"not an object"}
		}
		m := map[string]any{}
		for _, f := range ks.fields {
			if r.IntN(4) > 0 {
				m[f] = values[r.IntN(len(values))]
			}
		}
		return m
	}
	// Values whose texts joined would collide.
	x := newAgreeIndex(def, ks)
	x.add(map[string]any{"port": "1", "protocol": "1", "host": "1:1"}, 0)
	if p := x.sole(map[string]any{"port": "1", "protocol": "1:1", "host": "1"}); p != -1 {
		t.Fatalf("values 1:1,1 agree with 1,1:1 (position %d)", p)
	}
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 11))
		var cands []any
		x := newAgreeIndex(def, ks)
		for p := range r.IntN(40) {
			c := elem(r)
			cands = append(cands, c)
			x.add(c, p)
		}
		for range 50 {
			e := elem(r)
			if got, want := x.sole(e), agreesByScan(e, cands, def, ks); got != want {
				t.Fatalf("seed %d: sole(%v) = %d, want %d among %v", seed, e, got, want, cands)
			}
		}
	}
}

// TestSkipValueKnownEnds: with a document's container ends registered,
// every member and element of every container is cut where a plain scan
// cuts it; after release the ends are forgotten.
func TestSkipValueKnownEnds(t *testing.T) {
	big := `"` + strings.Repeat("x", 2*jsonval.SkipMin) + `"`
	doc := []byte(`{"a":{"b":[` + big + `,{"c":` + big + `},[[` + big + `]]],"d":{"e":` + big + `}}, "f" : [ ` + big + ` , {"g":"}]\"{["} ] }`)
	raw, ends, ok := jsonval.ScanRaw(doc, DefaultLimits())
	if !ok || len(ends) < 4 {
		t.Fatalf("scanRaw: ok %v, %d ends recorded", ok, len(ends))
	}
	var walk func(r jsonval.Raw, out *[]string)
	walk = func(r jsonval.Raw, out *[]string) {
		switch r[0] {
		case '{':
			jsonval.EachRawMember(r, func(k []byte, v jsonval.Raw) bool {
				*out = append(*out, string(k)+"="+string(v))
				walk(v, out)
				return true
			})
		case '[':
			jsonval.EachElement(r, func(v jsonval.Raw) {
				*out = append(*out, string(v))
				walk(v, out)
			})
		}
	}
	var plain, known []string
	walk(raw, &plain)
	release := jsonval.RegisterEnds(raw, ends)
	if _, ok := jsonval.KnownEnd(raw, 0); !ok {
		t.Fatal("the document's own end is not known once registered")
	}
	walk(raw, &known)
	release()
	if _, ok := jsonval.KnownEnd(raw, 0); ok {
		t.Fatal("the ends are still known after release")
	}
	if !slices.Equal(plain, known) {
		t.Fatalf("with known ends:\n%q\nscanning:\n%q", known, plain)
	}
}
