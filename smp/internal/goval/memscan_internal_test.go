package goval

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// memWide has words that equal memory settles (pointers, strings, slice
// and map headers, plain bytes) and interfaces, which it does not.
type memWide struct {
	A, B  *int
	S     string
	L     []string
	M     map[string]int
	X     any
	On    bool // padding follows
	N     int32
	Tail  [3]*int
	Anys  [2]any
	Pads  []memPad
	Items []any
	Last  string
}

// memPad has seven bytes of padding after On.
type memPad struct {
	On bool
	N  int64
}

func memWideValue() memWide {
	one, two := 1, 2
	return memWide{
		A: &one, B: &two, S: "s", L: []string{"a", "b"}, M: map[string]int{"k": 1},
		X: "x", On: true, N: 3, Tail: [3]*int{&one, nil, &two}, Anys: [2]any{1.5, nil},
		Pads: []memPad{{On: true, N: 1}, {N: 2}}, Items: []any{"i"}, Last: "z",
	}
}

// TestMemScan: the words of a struct's program are compared before its
// steps run. Memory equal word for word is equal, but for an interface's
// (a NaN is unequal to itself, also boxed once); memory that differs runs
// the steps, so that equal values in other memory, or padding that
// differs, are still equal; and the first step that differs is the one
// reported.
func TestMemScan(t *testing.T) {
	eq := memEqOf(reflect.TypeFor[memWide]())
	s := GetScratch()
	defer PutScratch(s)
	same := func(a, b *memWide) bool { return eq(s, unsafe.Pointer(a), unsafe.Pointer(b), 0) }
	a := memWideValue()
	b := a // every word the same
	if !same(&a, &b) {
		t.Fatal("a copy differs")
	}
	c := memWideValue() // equal values, other memory
	*(*[3]byte)(unsafe.Add(unsafe.Pointer(&c), unsafe.Offsetof(c.On)+1)) = [3]byte{7, 8, 9}
	c.Pads = append([]memPad(nil), c.Pads...)
	*(*byte)(unsafe.Add(unsafe.Pointer(&c.Pads[1]), 1)) = 5
	if !same(&a, &c) || !same(&c, &a) {
		t.Fatal("equal values in other memory, or with other padding, differ")
	}

	nan := any(math.NaN())
	for name, set := range map[string]func(v *memWide){
		"interface":           func(v *memWide) { v.X = nan },
		"array of interfaces": func(v *memWide) { v.Anys[1] = nan },
		"slice of interfaces": func(v *memWide) { v.Items = []any{nan} },
	} {
		x, y := memWideValue(), memWideValue()
		set(&x)
		set(&y)
		y.A, y.B, y.L, y.M, y.Pads = x.A, x.B, x.L, x.M, x.Pads // the rest equal word for word
		y.Tail, y.Anys[0] = x.Tail, x.Anys[0]
		if reflect.DeepEqual(x, y) || same(&x, &y) {
			t.Errorf("%s: one boxed NaN is equal to itself", name)
		}
	}

	three := 3
	for _, c := range []struct {
		change func(v *memWide)
		at     uintptr
	}{
		{func(v *memWide) { v.A = &three }, unsafe.Offsetof(a.A)},
		{func(v *memWide) { v.B = nil }, unsafe.Offsetof(a.B)},
		{func(v *memWide) { v.S = "t" }, unsafe.Offsetof(a.S)},
		{func(v *memWide) { v.L = []string{"a", "c"} }, unsafe.Offsetof(a.L)},
		{func(v *memWide) { v.M = map[string]int{"k": 2} }, unsafe.Offsetof(a.M)},
		{func(v *memWide) { v.X = "y" }, unsafe.Offsetof(a.X)},
		{func(v *memWide) { v.On = false }, unsafe.Offsetof(a.On)},
		{func(v *memWide) { v.N = 4 }, unsafe.Offsetof(a.N)},
		{func(v *memWide) { v.Tail[1] = &three }, unsafe.Offsetof(a.Tail)},
		{func(v *memWide) { v.Pads = []memPad{{On: true, N: 1}, {N: 3}} }, unsafe.Offsetof(a.Pads)},
		{func(v *memWide) { v.Pads = []memPad{{On: true, N: 1}, {N: 2, On: true}} }, unsafe.Offsetof(a.Pads)},
		{func(v *memWide) { v.Last = "" }, unsafe.Offsetof(a.Last)},
		{func(v *memWide) { v.S, v.Last = "t", "" }, unsafe.Offsetof(a.S)},
	} {
		x, y := memWideValue(), memWideValue()
		c.change(&y)
		s.failAt = 0
		if eq(s, unsafe.Pointer(&x), unsafe.Pointer(&y), -1) {
			t.Errorf("change at %d: not seen", c.at)
		} else if s.failAt != c.at {
			t.Errorf("change at %d: reported at %d", c.at, s.failAt)
		}
	}
}

// TestMemEqMapViewWords: map values equal in memory are equal without
// their comparison, but for an interface's.
func TestMemEqMapViewWords(t *testing.T) {
	s := GetScratch()
	defer PutScratch(s)
	type boxed struct{ X any }
	nan := boxed{math.NaN()}
	ma, mb := map[string]boxed{"k": nan}, map[string]boxed{"k": nan}
	eq := memEqOf(reflect.TypeFor[map[string]boxed]())
	if reflect.DeepEqual(ma, mb) || eq(s, unsafe.Pointer(&ma), unsafe.Pointer(&mb), 0) {
		t.Error("one boxed NaN is equal to itself")
	}
	one := 1
	pa, pb := map[string]memPad{"k": {On: true, N: 1}}, map[string]memPad{"k": {On: true, N: 1}}
	eq = memEqOf(reflect.TypeFor[map[string]memPad]())
	if !eq(s, unsafe.Pointer(&pa), unsafe.Pointer(&pb), 0) {
		t.Error("equal maps differ")
	}
	pb["k"] = memPad{On: true, N: int64(one + 1)}
	if eq(s, unsafe.Pointer(&pa), unsafe.Pointer(&pb), 0) {
		t.Error("a changed value is not seen")
	}
}

// TestMapViewsNested compares maps whose values hold maps whose values
// are copied for comparison too: the inner copies must not overwrite the
// outer ones (the inner values here outgrow the outer's words, so the
// scratch buffer is also replaced midway).
func TestMapViewsNested(t *testing.T) {
	type wide struct {
		S    string
		Pad  [12]int
		Last string
	}
	type inner struct {
		M map[string]wide
		S string
		N int
	}
	type outer struct{ In map[string]inner }
	str := strings.Clone // equal strings at other addresses: copied, not settled by words
	// Every map holds nine entries or more: maps of up to eight are
	// compared in their group (smallmaps.go) and take no scratch words.
	build := func(s, last string, n int) map[string]outer {
		m := map[string]wide{"x": {S: str("v"), Last: str(last)}}
		in := map[string]inner{"k": {M: m, S: str(s), N: n}}
		out := map[string]outer{"o": {In: in}}
		for i := range 8 {
			f := "f" + strconv.Itoa(i)
			m[f] = wide{S: str(f)}
			in[f] = inner{M: map[string]wide{}, S: str(f)}
			out[f] = outer{In: map[string]inner{}}
		}
		return out
	}
	eq := memEqOf(reflect.TypeFor[map[string]outer]())
	base := build("hello", "end", 7)
	for name, b := range map[string]map[string]outer{
		"equal":              build("hello", "end", 7),
		"outer string":       build("world", "end", 7),
		"outer number":       build("hello", "end", 8),
		"innermost string":   build("hello", "END", 7),
		"both levels differ": build("world", "END", 8),
	} {
		s := GetScratch()
		got := eq(s, unsafe.Pointer(&base), unsafe.Pointer(&b), 0)
		if s.used != 0 {
			t.Errorf("%s: %d scratch words not given back", name, s.used)
		}
		PutScratch(s)
		if want := reflect.DeepEqual(base, b); got != want {
			t.Errorf("%s: compared equal %v, reflect.DeepEqual %v", name, got, want)
		}
	}
}
