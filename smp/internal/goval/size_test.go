package goval_test

import (
	"reflect"
	"sort"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// jsonUnits is the size of decoded JSON as Limits.MaxNodes counts it: one
// unit for each object and array, and one for each member and element.
func jsonUnits(x any) int {
	switch x := x.(type) {
	case map[string]any:
		k := 1 + len(x)
		for _, e := range x {
			k += jsonUnits(e)
		}
		return k
	case []any:
		k := 1 + len(x)
		for _, e := range x {
			k += jsonUnits(e)
		}
		return k
	}
	return 0
}

// measured is the least MaxNodes under which check accepts v.
func measured(check func(l jsonval.Limits) error) int {
	return sort.Search(1<<12, func(k int) bool { return k > 0 && check(jsonval.Limits{MaxNodes: k}) == nil })
}

// omittedMembers is how many members encoding/json leaves out of the
// structs in v (omitempty, nil embedded pointers): the measure counts
// every member of a struct's type.
func omittedMembers(t *testing.T, v tricky) int {
	t.Helper()
	members := func(x any) int { return len(decodeJSON(t, x).(map[string]any)) }
	full := tricky{Inline: Inline{In: "i"}, S: "s", I: 1, F: 1, B: true, QS: "q", Bytes: []byte{1}, ListOE: []string{""},
		MapOE: map[string]int{"": 0}, Labels: map[string]string{"": ""}, IntKeys: map[int]string{0: ""}, UintKeys: map[uint8]string{0: ""},
		TextKeys: map[textKey]int{{}: 0}, Ptr: &inner{}, Inners: []inner{{}}, Any: 0, Num: "0"}
	trickyMembers, innerMembers := members(full), members(inner{P: strp("")})
	k := trickyMembers - members(v)
	ins := append([]inner{}, v.Inners...)
	for _, p := range []*inner{v.Ptr, v.PtrNull} {
		if p != nil {
			ins = append(ins, *p)
		}
	}
	switch a := v.Any.(type) {
	case inner:
		ins = append(ins, a)
	case *inner:
		ins = append(ins, *a)
	}
	for _, in := range ins {
		k += innerMembers - members(in)
	}
	return k
}

// TestMeasureTypedTable: the measure of each value of the table is the
// size of its JSON, members left out included, by the walk (MeasureTyped)
// and by the compiled check (CheckTyped) alike, read from memory or
// through reflect; a budget is spent by what it measures.
func TestMeasureTypedTable(t *testing.T) {
	root := rootOf(t)
	for name, v := range trickyTable() {
		want := jsonUnits(decodeJSON(t, v)) + omittedMembers(t, v)
		for _, x := range []reflect.Value{reflect.ValueOf(v), reflect.ValueOf(&v).Elem(), reflect.ValueOf(&v)} {
			walk := measured(func(l jsonval.Limits) error {
				b := goval.NewBudget(l)
				return b.MeasureTyped(x, root.Node, "doc")
			})
			check := measured(func(l jsonval.Limits) error {
				b := goval.NewBudget(l)
				return b.CheckTyped(x, root.Node, l, "doc")
			})
			if walk != want || check != want {
				t.Errorf("%s (%v, addressable %v): MeasureTyped %d, CheckTyped %d; JSON with every member %d", name, x.Type(), x.CanAddr(), walk, check, want)
			}
		}
		b := goval.NewBudget(jsonval.Limits{MaxNodes: 2 * want})
		for i := range 3 {
			err := b.MeasureTyped(reflect.ValueOf(v), root.Node, "doc")
			if (err == nil) != (i < 2) {
				t.Errorf("%s: measure %d of a budget for 2: %v", name, i+1, err)
			}
		}
	}
}
