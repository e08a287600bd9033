package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"math/rand/v2"
	"slices"
	"strings"
	"testing"

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
// values), against a scan.
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
	x.add(0)
	if p := x.sole(jsonItems{map[string]any{"port": "1", "protocol": "1:1", "host": "1"}}, 0); p != -1 {
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
			x.add(p)
		}
		for range 50 {
			e := elem(r)
			if got, want := x.sole(jsonItems{e}, 0), agreesByScan(e, cands, def, ks); got != want {
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
