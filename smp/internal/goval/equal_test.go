package goval_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// TestEqualAsJSON: two values of the table are Equal exactly when
// json.Marshal writes the same bytes for them, whether read from memory
// (addressable) or through reflect; pairs that differ in Go but not in
// JSON are in the table.
func TestEqualAsJSON(t *testing.T) {
	root := rootOf(t)
	s := goval.GetScratch()
	defer goval.PutScratch(s)
	table := trickyTable()
	var alike int
	for na, a := range table {
		ja, _ := json.Marshal(a)
		for nb, b := range table {
			jb, _ := json.Marshal(b)
			want := bytes.Equal(ja, jb)
			if want && na != nb {
				alike++
			}
			for _, vs := range [][2]reflect.Value{
				{reflect.ValueOf(a), reflect.ValueOf(b)},
				{reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem()},
				{reflect.ValueOf(&a), reflect.ValueOf(&b)},
			} {
				if got := s.Equal(vs[0], vs[1], root.Node); got != want {
					t.Errorf("Equal(%s, %s) = %v (addressable %v); JSON %s and %s", na, nb, got, vs[0].CanAddr(), ja, jb)
				}
			}
			if s.SameMemory(reflect.ValueOf(a), reflect.ValueOf(b), root.Node) && !want {
				t.Errorf("SameMemory(%s, %s) but their JSON differs: %s and %s", na, nb, ja, jb)
			}
		}
	}
	if alike == 0 {
		t.Fatal("no two values of the table encode alike")
	}
}

// TestSameMemoryOfCopies: a value and a copy of it that shares nothing
// are the same in memory.
func TestSameMemoryOfCopies(t *testing.T) {
	root := rootOf(t)
	s := goval.GetScratch()
	defer goval.PutScratch(s)
	for name := range trickyTable() {
		a, b := trickyTable()[name], trickyTable()[name]
		if !s.SameMemory(reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem(), root.Node) {
			t.Errorf("%s: two copies are not the same memory", name)
		}
	}
}

// TestDeepEqualGo agrees with reflect.DeepEqual, unexported fields
// included, on the table and its copies, except that it tells values
// apart whose JSON differs though == does not (-0 and 0).
func TestDeepEqualGo(t *testing.T) {
	table := trickyTable()
	again := trickyTable()
	for na, a := range table {
		ja, _ := json.Marshal(a)
		for nb, b := range again {
			jb, _ := json.Marshal(b)
			want := reflect.DeepEqual(a, b) && bytes.Equal(ja, jb)
			if got := goval.DeepEqualGo(reflect.ValueOf(a), reflect.ValueOf(b), 0); got != want {
				t.Errorf("DeepEqualGo(%s, %s) = %v, want %v", na, nb, got, want)
			}
		}
	}
}
