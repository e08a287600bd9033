package typedwalk

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// TestObjItemsKeyIDByField checks that a live list read by one-field keys
// of different fields, in turn, gives each element's identity under the
// key asked for, as its JSON has it: objItems keeps the last field it
// looked up, and writes integers' identities itself.
func TestObjItemsKeyIDByField(t *testing.T) {
	root, err := goval.RootFor(reflect.TypeFor[memKeyElem]())
	require.NoError(t, err)
	l := []memKeyElem{{Name: "a", Port: 80, Big: 1}, {Name: "b", Port: 443, Big: 300}, {Name: "c", Port: -2147483648, Big: 7},
		{Name: "d", Port: 0, Big: 1<<64 - 1}, {Name: "e", Port: 2147483647, Big: 12345678901234567890}}
	src := &objItems{cur: reflect.ValueOf(l), n: root.Node}
	byName := format.KeySet{Fields: []string{"name"}}
	byPort := format.KeySet{Fields: []string{"port"}}
	for range 2 {
		for p, e := range l {
			require.Equal(t, format.SingleKey(e.Name), src.KeyID(p, byName))
			require.Equal(t, format.IDOf(byPort, map[string]any{"port": json.Number(strconv.Itoa(int(e.Port)))}), src.KeyID(p, byPort))
			big := format.KeySet{Fields: []string{"big"}} // unsigned
			require.Equal(t, format.IDOf(big, map[string]any{"big": json.Number(strconv.FormatUint(e.Big, 10))}), src.KeyID(p, big))
		}
	}
}
