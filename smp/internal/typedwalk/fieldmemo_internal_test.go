package typedwalk

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// TestFieldOfRemembersByNodeAndName: the memo answers what ByName does,
// for two types sharing field names and more names than it holds.
func TestFieldOfRemembersByNodeAndName(t *testing.T) {
	type a struct {
		Name string `json:"name"`
		Port int    `json:"port"`
	}
	type b struct {
		Port int    `json:"port"`
		Name string `json:"name"`
	}
	var nodes []*goval.Node
	for _, typ := range []reflect.Type{reflect.TypeFor[a](), reflect.TypeFor[b]()} {
		root, err := goval.RootFor(typ)
		require.NoError(t, err)
		nodes = append(nodes, root.Node)
	}
	names := []string{"name", "port"}
	for i := range 12 {
		names = append(names, "missing"+strconv.Itoa(i))
	}
	s := &pairStack{}
	for range 3 {
		for _, name := range names {
			for _, n := range nodes {
				require.Same(t, n.ByName[name], s.fieldOf(n, name), name)
			}
		}
	}
	var none *pairStack
	require.Same(t, nodes[0].ByName["name"], none.fieldOf(nodes[0], "name"))
}
