package smp_test

import (
	"fmt"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// Two patches that both order the containers, which Kubernetes'
// MergeStrategicMergeMapPatchUsingLookupPatchMeta cannot merge, compose
// into one: the later order wins, and the container the first patch
// deleted is deleted by the result.
func ExampleComposeJSON() {
	p1 := []byte(`{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"log"}],"containers":[{"name":"log","image":"fluent:1"},{"$patch":"delete","name":"old"}]}}`)
	p2 := []byte(`{"spec":{"$setElementOrder/containers":[{"name":"log"},{"name":"web"}],"containers":[{"name":"web","image":"nginx:2"}]}}`)
	patch, err := smp.ComposeJSON(exampletypes.Pod{}, p1, p2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(patch))
	// Output: {"spec":{"$setElementOrder/containers":[{"name":"log"},{"name":"web"}],"containers":[{"image":"fluent:1","name":"log"},{"image":"nginx:2","name":"web"},{"$patch":"delete","name":"old"}]}}
}

// Where no single patch has the sequence's effect on every document,
// Compose says where and why.
func ExampleCompose() {
	p1, _ := smp.ParsePatch([]byte(`{"metadata":{"finalizers":null}}`))
	p2, _ := smp.ParsePatch([]byte(`{"metadata":{"finalizers":["example.com/cleanup"]}}`))
	_, err := smp.Compose[exampletypes.Deployment](p1, p2)
	fmt.Println(err)
	// Output: metadata.finalizers: cannot compose patch 1 and patch 2: the set is filled by patch 2 after patch 1 removed it; no one patch can empty a set and fill it, whatever the document holds
}
