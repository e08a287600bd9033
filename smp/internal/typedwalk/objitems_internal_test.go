package typedwalk

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// TestObjItemsKeyIDByField checks the identities a live list of structs
// gives under one-field keys of every field, asked in turn, against
// those of the elements' JSON: for a slice of structs (read in place)
// and of pointers, with omitempty fields empty (absent from the JSON),
// negative and large integers.
func TestObjItemsKeyIDByField(t *testing.T) {
	root, err := goval.RootFor(reflect.TypeFor[memKeyElem]())
	require.NoError(t, err)
	l := []memKeyElem{{Name: "a", Port: 80, Big: 1}, {Name: "b", Port: 443, Big: 300, Small: -3},
		{Name: "", Port: -2147483648, Big: 7, Count: 65535}, {Name: "d", Port: 0, Big: 1<<64 - 1, Small: 127},
		{Name: "e", Port: 2147483647, Big: 0, Small: -128}}
	ptrs := make([]*memKeyElem, len(l))
	for i := range l {
		ptrs[i] = &l[i]
	}
	for _, list := range []any{l, ptrs} {
		src := &objItems{cur: reflect.ValueOf(list), n: root.Node}
		for range 2 {
			for _, f := range root.Node.Fields {
				ks := format.KeySet{Fields: []string{f.Name}}
				for p, e := range l {
					b, err := json.Marshal(e)
					require.NoError(t, err)
					var m map[string]any
					d := json.NewDecoder(bytes.NewReader(b))
					d.UseNumber()
					require.NoError(t, d.Decode(&m))
					require.Equal(t, format.IDOf(ks, m), src.KeyID(p, ks), "%T element %d, field %s", list, p, f.Name)
				}
			}
		}
	}
}
