package goval_test

import (
	"fmt"
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// A type's plan, built once, drives the walks: here a value to its JSON,
// as encoding/json writes it, and a comparison of two values as their
// JSON compares.
func ExampleRootFor() {
	type Port struct {
		Name string `json:"name"`
		Port int    `json:"port,omitempty"`
	}
	type Service struct {
		Ports []Port `json:"ports" patchStrategy:"merge" patchMergeKey:"name"`
	}
	root, err := goval.RootFor(reflect.TypeFor[Service]())
	if err != nil {
		panic(err)
	}
	a := Service{Ports: []Port{{Name: "http", Port: 80}}}
	j, _ := goval.ToJSONValue(reflect.ValueOf(a), root.Node, false)
	fmt.Println(j)

	b := Service{Ports: []Port{{Name: "http", Port: 80}}}
	s := goval.GetScratch()
	defer goval.PutScratch(s)
	fmt.Println(s.Equal(reflect.ValueOf(a), reflect.ValueOf(b), root.Node))
	// Output:
	// map[ports:[map[name:http port:80]]]
	// true
}
