package goval

import (
	"reflect"
	"testing"
	"unsafe"
)

type memInner struct {
	A    int64
	B    int32 // padding follows
	S    string
	P    *int
	Tags []string
}

type memOuter struct {
	Name    string
	On, Off bool // a run of two bytes, then padding
	N       int64
	In      memInner
	Ins     []memInner
	Nums    []int32
	M       map[string]string
	X       any
	Next    *memOuter
	Last    uint8
}

func memOuterValue() memOuter {
	one, two := 1, 2
	return memOuter{
		Name: "n", On: true, N: 7,
		In:   memInner{A: 1, B: 2, S: "s", P: &one, Tags: []string{"a", "b"}},
		Ins:  []memInner{{A: 3, P: &two}, {S: "t", Tags: []string{}}},
		Nums: []int32{1, 2, 3},
		M:    map[string]string{"k": "v"},
		X:    map[string]any{"x": 1.5},
		Next: &memOuter{Name: "inner", Last: 9},
		Last: 4,
	}
}

// TestMemEqStructSteps: a struct's program tells every single change
// apart, looks through pointers and slices, and ignores padding.
func TestMemEqStructSteps(t *testing.T) {
	eq := memEqOf(reflect.TypeFor[memOuter]())
	s := GetScratch()
	defer PutScratch(s)
	same := func(a, b *memOuter) bool { return eq(s, unsafe.Pointer(a), unsafe.Pointer(b), 0) }
	a, b := memOuterValue(), memOuterValue()
	if !same(&a, &b) {
		t.Fatal("two equal values differ")
	}
	// Garbage in the padding after B, after Off, and in an element's.
	*(*uint32)(unsafe.Add(unsafe.Pointer(&b.In), unsafe.Offsetof(b.In.B)+4)) = 0xdeadbeef
	*(*[6]byte)(unsafe.Add(unsafe.Pointer(&b), unsafe.Offsetof(b.Off)+1)) = [6]byte{1, 2, 3, 4, 5, 6}
	*(*uint32)(unsafe.Add(unsafe.Pointer(&b.Ins[0]), unsafe.Offsetof(b.In.B)+4)) = 0xfeedface
	if !same(&a, &b) {
		t.Fatal("padding decided")
	}
	three := 3
	for name, change := range map[string]func(v *memOuter){
		"name":        func(v *memOuter) { v.Name = "m" },
		"on":          func(v *memOuter) { v.On = false },
		"off":         func(v *memOuter) { v.Off = true },
		"n":           func(v *memOuter) { v.N = 8 },
		"in.a":        func(v *memOuter) { v.In.A = 0 },
		"in.b":        func(v *memOuter) { v.In.B = 0 },
		"in.s":        func(v *memOuter) { v.In.S = "" },
		"in.p value":  func(v *memOuter) { v.In.P = &three },
		"in.p nil":    func(v *memOuter) { v.In.P = nil },
		"in.tags":     func(v *memOuter) { v.In.Tags = []string{"a", "c"} },
		"in.tags nil": func(v *memOuter) { v.In.Tags = nil },
		"ins[1].tags": func(v *memOuter) { v.Ins[1].Tags = nil },
		"ins[0].p":    func(v *memOuter) { *v.Ins[0].P = 5 },
		"ins short":   func(v *memOuter) { v.Ins = v.Ins[:1] },
		"nums":        func(v *memOuter) { v.Nums[2] = 4 },
		"m":           func(v *memOuter) { v.M["k"] = "w" },
		"x":           func(v *memOuter) { v.X = map[string]any{"x": 2.5} },
		"next":        func(v *memOuter) { v.Next.Last = 8 },
		"next nil":    func(v *memOuter) { v.Next = nil },
		"last":        func(v *memOuter) { v.Last = 5 },
	} {
		c := memOuterValue()
		change(&c)
		if same(&a, &c) || same(&c, &a) {
			t.Errorf("%s: the change is not seen", name)
		}
	}
}

// TestSameMemoryUpTo: where two structs differ, the offset returned is
// that of the first difference in memory, nested structs' fields
// included, so that every field ending there is equal.
func TestSameMemoryUpTo(t *testing.T) {
	n := nodeFor(t, reflect.TypeFor[memOuter]())
	s := GetScratch()
	defer PutScratch(s)
	var in memInner
	for _, c := range []struct {
		change func(v *memOuter)
		want   uintptr
	}{
		{func(v *memOuter) { v.Name = "m" }, 0},
		{func(v *memOuter) { v.N = 1 }, unsafe.Offsetof(v0.N)},
		{func(v *memOuter) { v.In.S = "x" }, unsafe.Offsetof(v0.In) + unsafe.Offsetof(in.S)},
		{func(v *memOuter) { v.In.Tags[1] = "x"; v.Last = 1 }, unsafe.Offsetof(v0.In) + unsafe.Offsetof(in.Tags)},
		{func(v *memOuter) { v.Nums[2] = 4 }, unsafe.Offsetof(v0.Nums)},
		{func(v *memOuter) { v.Next.Name = "x" }, unsafe.Offsetof(v0.Next)},
	} {
		a, b := memOuterValue(), memOuterValue()
		c.change(&b)
		same, upTo := s.SameMemoryUpTo(reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem(), n)
		if same || upTo != c.want {
			t.Errorf("SameMemoryUpTo = %v, %d; want false, %d", same, upTo, c.want)
		}
		if s.SameMemory(reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem(), n) {
			t.Error("SameMemory: the change is not seen")
		}
	}
	a, b := memOuterValue(), memOuterValue()
	if same, upTo := s.SameMemoryUpTo(reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem(), n); !same || upTo != 0 {
		t.Errorf("equal values: %v, %d", same, upTo)
	}
}

var v0 memOuter

// TestMemEqMapViews: maps with keys of a string type, compared through a
// view, small and large: equal when reflect.DeepEqual says so, different
// after any one value or key changes.
func TestMemEqMapViews(t *testing.T) {
	type name string
	type byName = map[name]memInner
	eq := memEqOf(reflect.TypeFor[byName]())
	s := GetScratch()
	defer PutScratch(s)
	one := 1
	for n := range 12 {
		build := func() byName {
			m := byName{}
			for i := range n {
				m[name(rune('a'+i))] = memInner{A: int64(i), S: "s", P: &one, Tags: []string{"t"}}
			}
			return m
		}
		a := build()
		same := func(b byName) bool { return eq(s, unsafe.Pointer(&a), unsafe.Pointer(&b), 0) }
		if !same(build()) {
			t.Fatalf("%d members: two equal maps differ", n)
		}
		for i := range n {
			k := name(rune('a' + i))
			changes := map[string]func(byName){
				"a value's word":   func(b byName) { v := b[k]; v.A = -1; b[k] = v },
				"a value's string": func(b byName) { v := b[k]; v.S = "x"; b[k] = v },
				"a value's slice":  func(b byName) { v := b[k]; v.Tags = []string{"u"}; b[k] = v },
				"a key":            func(b byName) { v := b[k]; delete(b, k); b["z"] = v },
			}
			for what, change := range changes {
				b := build()
				change(b)
				if same(b) || reflect.DeepEqual(a, b) {
					t.Fatalf("%d members: %s of %q changed, yet equal", n, what, k)
				}
			}
		}
	}
}
