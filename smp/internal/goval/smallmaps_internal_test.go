package goval

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/smallmap"
)

type (
	smallKey  string
	smallOne  struct{ N int64 }
	smallWide struct {
		A    int64
		B    int32 // padding follows
		P    *int
		S, T string
	}
	smallBoxed struct{ X any } // not settled by equal words
)

// smallMapCase builds two maps of one type from the same entries: b
// filled in another order, with keys and strings at other addresses,
// with entries added and deleted on the way, and then, by change, made
// to differ or not.
type smallMapCase[K ~string, V any] struct {
	val func(r *rand.Rand, i int) V
}

func (c smallMapCase[K, V]) build(r *rand.Rand, n int) (a, b map[K]V) {
	a, b = map[K]V{}, map[K]V{}
	keys := r.Perm(n + 3)[:n] // some keys of a longer range: maps differ in their keys too
	vals := make([]V, n)
	for i, k := range keys {
		vals[i] = c.val(r, k)
		a[K("k"+strconv.Itoa(k))] = vals[i]
	}
	for _, i := range r.Perm(n) {
		if r.IntN(4) == 0 { // a slot taken, then freed
			b["gone"] = vals[i]
			delete(b, "gone")
		}
		b[K(strings.Clone("k"+strconv.Itoa(keys[i])))] = vals[i]
	}
	return a, b
}

// TestSmallMapsInPlace: maps of up to eight entries are compared in
// their groups, with keys in other slots, freed slots, and keys and
// values in other memory; the answer is reflect.DeepEqual's, for maps
// of strings, of values of one and of several words, and of values
// that equal words do not settle. Larger maps go the general way.
func TestSmallMapsInPlace(t *testing.T) {
	if !smallmap.Readable() {
		t.Fatal("small maps are not read in place")
	}
	one, two := 1, 2
	str := func(r *rand.Rand) string {
		return strings.Clone([]string{"", "a", "bc", "defgh", "a longer string value"}[r.IntN(5)])
	}
	r := rand.New(rand.NewPCG(3, 4))
	checkSmallMaps(t, r, "strings", smallMapCase[string, string]{func(r *rand.Rand, _ int) string { return str(r) }},
		func(v string) string { return v + "x" })
	checkSmallMaps(t, r, "one word", smallMapCase[smallKey, smallOne]{func(r *rand.Rand, i int) smallOne { return smallOne{int64(i)} }},
		func(v smallOne) smallOne { v.N = -1; return v })
	checkSmallMaps(t, r, "seven words", smallMapCase[smallKey, smallWide]{func(r *rand.Rand, i int) smallWide {
		return smallWide{A: int64(i), B: 3, P: []*int{nil, &one, &two}[r.IntN(3)], S: str(r), T: str(r)}
	}}, func(v smallWide) smallWide { v.T += "t"; return v })
	nan := any(math.NaN()) // one box in both maps: equal words, unequal values
	checkSmallMaps(t, r, "boxed", smallMapCase[string, smallBoxed]{func(r *rand.Rand, i int) smallBoxed {
		if r.IntN(8) == 0 {
			return smallBoxed{nan}
		}
		return smallBoxed{[]any{float64(i), str(r), nil}[r.IntN(3)]}
	}}, func(v smallBoxed) smallBoxed { v.X = math.NaN(); return v })
}

// TestSmallMapsFreedSlot: a freed slot holds a zero key and value,
// which must not pair with a zero key and value of the other map.
func TestSmallMapsFreedSlot(t *testing.T) {
	a := map[string]smallOne{"": {}, "y": {1}}
	b := map[string]smallOne{"w": {5}, "y": {1}, "z": {}}
	delete(b, "w") // b's first slot is freed: a zero key and value
	eq := memEqOf(reflect.TypeFor[map[string]smallOne]())
	s := GetScratch()
	defer PutScratch(s)
	if eq(s, unsafe.Pointer(&a), unsafe.Pointer(&b), 0) {
		t.Error("maps with the key \"\" and \"z\" compared equal")
	}
}

// checkSmallMaps compares maps of sizes 0 to 10 as built by c, equal,
// with one value changed by change or with one key replaced, against
// reflect.DeepEqual, and
// counts that the small ones were compared in place.
func checkSmallMaps[K ~string, V any](t *testing.T, r *rand.Rand, name string, c smallMapCase[K, V], change func(V) V) {
	t.Helper()
	eq := memEqOf(reflect.TypeFor[map[K]V]())
	s := GetScratch()
	defer PutScratch(s)
	inPlace := 0
	for trial := range 400 {
		n := trial % 11
		a, b := c.build(r, n)
		for k, v := range b {
			switch r.IntN(3) {
			case 0:
				b[k] = change(v)
			case 1: // a key of the same length, not in a
				delete(b, k)
				b[K(strings.Repeat("z", len(k)))] = v
			}
			break
		}
		if _, _, ok := smallmap.Pair(unsafe.Pointer(&a), unsafe.Pointer(&b), 0); ok {
			inPlace++
		}
		got := eq(s, unsafe.Pointer(&a), unsafe.Pointer(&b), 0)
		if want := reflect.DeepEqual(a, b); got != want {
			t.Fatalf("%s, %d entries: compared equal %v, reflect.DeepEqual %v\na: %v\nb: %v", name, n, got, want, a, b)
		}
		if s.used != 0 {
			t.Fatalf("%s: %d scratch words not given back", name, s.used)
		}
	}
	if inPlace < 200 {
		t.Errorf("%s: %d of 400 pairs compared in place", name, inPlace)
	}
}
