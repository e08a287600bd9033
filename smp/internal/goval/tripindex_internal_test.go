package goval

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// tripProbe has strings between plain words, and padding.
type tripProbe struct {
	A int64
	S string
	B int32
	T string
	C [3]byte
}

// tailProbe is not a whole number of words.
type tailProbe [11]byte

// TestTripTableByContent fills a table with random values' round trips
// and looks up others against a map keyed by the values' content: found
// exactly when the content was added, whatever the strings' addresses,
// through the table's growth from 8 slots to 2,048.
func TestTripTableByContent(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	word := func() string {
		return []string{"", "a", "ab", "abc", "abcd", "abcdefgh", "abcdefghi", "x\xffy", "abcdefgh-abcdefgh"}[r.IntN(9)]
	}
	probe := func() tripProbe {
		return tripProbe{A: int64(r.IntN(3)), S: strings.Clone(word()), B: int32(r.IntN(3)), T: strings.Clone(word()), C: [3]byte{byte(r.IntN(2)), 0, byte(r.IntN(2))}}
	}
	tail := func() tailProbe {
		var v tailProbe
		for range 3 {
			v[r.IntN(11)] = byte(r.IntN(4))
		}
		return v
	}
	checkTable(t, r, probe)
	checkTable(t, r, tail)
}

// checkTable adds values drawn by draw to a table, up to maxRoundTrips
// contents, checking lookups against a map all along.
func checkTable[V any](t *testing.T, r *rand.Rand, draw func() V) {
	t.Helper()
	typ := reflect.TypeFor[V]()
	rt := newRoundTrips(typ)
	var table *tripTable
	want := map[string]int{}
	for i := 0; len(want) < maxRoundTrips && i < 200000; i++ {
		v := draw()
		key := rt.content(nil, unsafe.Pointer(&v), typ.Size())
		got, found := trip{}, false
		if table != nil {
			got, found = table.find(key)
		}
		w, met := want[string(key)]
		if found != met || found && got.v.Interface() != w {
			t.Fatalf("%+v: found %v (%v), want %v (%v)", v, found, got.v, met, w)
		}
		if !met && r.IntN(2) == 0 {
			want[string(key)] = i
			table = table.add(string(key), trip{v: reflect.ValueOf(i)})
			if table.len() != len(want) || 2*table.len() > len(table.slots) {
				t.Fatalf("%d contents in %d slots, want %d", table.len(), len(table.slots), len(want))
			}
		}
	}
	if len(want) < 100 {
		t.Fatalf("only %d contents", len(want))
	}
}
