package format_test

import (
	"encoding/json"
	"fmt"

	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// Two elements are one when their merge key fields are equal JSON
// scalars, numbers compared by value.
func Example() {
	ks := format.KeySet{Fields: []string{"containerPort", "protocol"}, Directive: true}
	a := map[string]any{"containerPort": json.Number("53"), "protocol": "UDP"}
	b := map[string]any{"containerPort": json.Number("5.3e1"), "protocol": "UDP", "name": "dns"}
	c := map[string]any{"containerPort": json.Number("53"), "protocol": "TCP"}
	fmt.Println(format.IDOf(ks, a) == format.IDOf(ks, b), format.IDOf(ks, a) == format.IDOf(ks, c))
	fmt.Println(ks.KeyStep(a))
	// Output:
	// true false
	// [{containerPort 53} {protocol UDP}]
}
