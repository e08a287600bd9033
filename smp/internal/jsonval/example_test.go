package jsonval_test

import (
	"encoding/json"
	"fmt"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Numbers are one key whatever their spelling, at a cost linear in their
// text; a string never shares a key with a number.
func Example() {
	a, _ := jsonval.ScalarKey(json.Number("53"))
	b, _ := jsonval.ScalarKey(json.Number("5.3e1"))
	c, _ := jsonval.ScalarKey("53")
	fmt.Println(a == b, a == c)
	fmt.Println(jsonval.KindOf(map[string]any{}), jsonval.Describe([]any{}))
	// Output:
	// true false
	// object a array
}
