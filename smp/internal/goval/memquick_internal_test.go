package goval

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// memQuick has strings and slices that equal memory settles, whose data
// words differ when two values are built apart (memProg.quick).
type memQuick struct {
	S     string
	Ints  []int64
	Strs  []string
	Pads  []memPad // padding inside: equal values may differ in memory
	Empty []int32
	T     string
	N     int64
}

// TestMemScanQuick: strings and slices in other memory are compared by
// the bytes they point to, and the answer is reflect.DeepEqual's when
// their lengths, nil-ness, elements or padding differ.
func TestMemScanQuick(t *testing.T) {
	eq := memEqOf(reflect.TypeFor[memQuick]())
	if p := progOf(reflect.TypeFor[memQuick]()); p.quick == nil || p.quick[0] != 1<<1 || p.quick[2] != 8<<1|1 {
		t.Fatalf("quick words %v", p.quick)
	}
	s := GetScratch()
	defer PutScratch(s)
	build := func() memQuick {
		return memQuick{
			S: strings.Clone("hello, world"), Ints: []int64{1, 2, 3}, Strs: []string{"a", strings.Clone("bc")},
			Pads: []memPad{{On: true, N: 1}, {N: 2}}, Empty: []int32{}, T: strings.Clone("t"), N: 9,
		}
	}
	for name, change := range map[string]func(v *memQuick){
		"nothing":                 func(v *memQuick) {},
		"a string's last byte":    func(v *memQuick) { v.S = "hello, worle" },
		"a string's length":       func(v *memQuick) { v.S = "hello, worl" },
		"a short string":          func(v *memQuick) { v.T = "u" },
		"an empty string":         func(v *memQuick) { v.T = "" },
		"a slice's length":        func(v *memQuick) { v.Ints = append(v.Ints, 4) },
		"a slice shortened":       func(v *memQuick) { v.Ints = v.Ints[:2] },
		"a slice's last element":  func(v *memQuick) { v.Ints[2] = 4 },
		"a slice of strings":      func(v *memQuick) { v.Strs[1] = "bd" },
		"a slice of strings, eq":  func(v *memQuick) { v.Strs[1] = strings.Clone("bc") },
		"padding only":            func(v *memQuick) { *(*byte)(unsafe.Add(unsafe.Pointer(&v.Pads[1]), 1)) = 7 },
		"a padded element":        func(v *memQuick) { v.Pads[1].N = 3 },
		"nil for empty":           func(v *memQuick) { v.Empty = nil },
		"empty at other capacity": func(v *memQuick) { v.Empty = make([]int32, 0, 4) },
		"the word after":          func(v *memQuick) { v.N = 10 },
	} {
		a, b := build(), build()
		change(&b)
		want := reflect.DeepEqual(a, b)
		for _, depth := range []int{0, -1} {
			if got := eq(s, unsafe.Pointer(&a), unsafe.Pointer(&b), depth); got != want {
				t.Errorf("%s (depth %d): compared equal %v, reflect.DeepEqual %v", name, depth, got, want)
			}
		}
	}
}
