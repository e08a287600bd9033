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
// key asked for: objItems keeps the last field it looked up.
func TestObjItemsKeyIDByField(t *testing.T) {
	root, err := goval.RootFor(reflect.TypeFor[memKeyElem]())
	require.NoError(t, err)
	l := []memKeyElem{{Name: "a", Port: 80}, {Name: "b", Port: 443}}
	src := &objItems{cur: reflect.ValueOf(l), n: root.Node}
	byName := format.KeySet{Fields: []string{"name"}}
	byPort := format.KeySet{Fields: []string{"port"}}
	for range 2 {
		for p, e := range l {
			require.Equal(t, format.SingleKey(e.Name), src.KeyID(p, byName))
			require.Equal(t, format.IDOf(byPort, map[string]any{"port": json.Number(strconv.Itoa(int(e.Port)))}), src.KeyID(p, byPort))
		}
	}
}
