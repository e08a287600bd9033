package goval_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// keyed has key fields of the kinds KeyJSON reads from memory, with and
// without omitempty, and one it converts through reflect.
type keyed struct {
	Name    string  `json:"name,omitempty"`
	Host    string  `json:"host"`
	Port    int32   `json:"port"`
	Small   int8    `json:"small,omitempty"`
	Count   uint16  `json:"count,omitempty"`
	Big     uint64  `json:"big"`
	On      bool    `json:"on,omitempty"`
	Ratio   float64 `json:"ratio,omitempty"`
	Quoted  int64   `json:"quoted,string"`
	Pointer *string `json:"pointer,omitempty"`
}

// TestKeyJSONAsEncodingJSON checks KeyJSON of every field, for elements
// read from memory (addressable) and through reflect (not addressable),
// against what encoding/json writes of the element: the same value, and
// absent exactly where it leaves the field out.
func TestKeyJSONAsEncodingJSON(t *testing.T) {
	root, err := goval.RootFor(reflect.TypeFor[keyed]())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	strs := []string{"", "a", "\xff", "<&>", "é", "\u2028"}
	nums := []int64{0, 1, -1, 255, 1 << 40, -1 << 62}
	for range 3000 {
		s := strs[r.IntN(len(strs))]
		n := nums[r.IntN(len(nums))]
		e := keyed{Name: s, Host: strs[r.IntN(len(strs))], Port: int32(n), Small: int8(n), Count: uint16(n),
			Big: uint64(n), On: n > 0, Ratio: float64(n) / 3, Quoted: n}
		if r.IntN(2) == 0 {
			e.Pointer = &s
		}
		want, _ := decodeJSON(t, e).(map[string]any)
		for _, v := range []reflect.Value{reflect.ValueOf(&e).Elem(), reflect.ValueOf(e)} {
			for _, f := range root.Node.Fields {
				got, ok, err := goval.KeyJSON(v, root.Node, f.Name)
				if err != nil {
					t.Fatalf("%s of %+v: %v", f.Name, e, err)
				}
				w, inW := want[f.Name]
				if ok != inW || !cmp.Equal(w, got) {
					t.Fatalf("KeyJSON %s of %+v (addressable %v) = %#v, %v; encoding/json: %#v, %v", f.Name, e, v.CanAddr(), got, ok, w, inW)
				}
			}
		}
	}
}
