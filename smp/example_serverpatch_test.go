package smp_test

import (
	"fmt"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// A merge patch holds the changed lists whole, and the live
// resourceVersion, so that a server refuses it once the object changed.
func ExampleMergePatchJSON() {
	live := []byte(`{"metadata":{"name":"web","resourceVersion":"7"},"spec":{"containers":[{"name":"web","image":"nginx:1"},{"name":"log","image":"fluent:1"}]}}`)
	patch := []byte(`{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}`)
	mp, err := smp.MergePatchJSON(live, patch, exampletypes.Pod{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(mp))
	// Output: {"metadata":{"resourceVersion":"7"},"spec":{"containers":[{"image":"nginx:2","name":"web"},{"image":"fluent:1","name":"log"}]}}
}

// A JSON patch tests the live resourceVersion first, then changes one
// field of one element; "/" in a key is escaped as "~1".
func ExampleJSONPatchJSON() {
	live := []byte(`{"metadata":{"resourceVersion":"7","labels":{"app/name":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1"},{"name":"log","image":"fluent:1"}]}}`)
	patch := []byte(`{"metadata":{"labels":{"app/name":"shop"}},"spec":{"containers":[{"name":"log","image":"fluent:2"}]}}`)
	jp, err := smp.JSONPatchJSON(live, patch, exampletypes.Pod{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(jp))
	// Output: [{"op":"test","path":"/metadata/resourceVersion","value":"7"},{"op":"replace","path":"/metadata/labels/app~1name","value":"shop"},{"op":"replace","path":"/spec/containers/1/image","value":"fluent:2"}]
}

// The typed API computes the strategic merge patch on Go values, then the
// JSON patch a server takes for it.
func ExampleJSONPatch() {
	live := exampletypes.Deployment{ObjectMeta: exampletypes.ObjectMeta{Name: "web", ResourceVersion: "12"}}
	live.Spec.Template.Spec.Containers = []exampletypes.Container{{Name: "web", Image: "nginx:1"}, {Name: "sidecar", Image: "envoy:1"}}
	modified := live
	modified.Spec.Template.Spec.Containers = []exampletypes.Container{{Name: "web", Image: "nginx:2"}}
	patch, err := smp.ThreeWay(live, modified, live)
	if err != nil {
		fmt.Println(err)
		return
	}
	jp, err := smp.JSONPatch(live, patch)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(jp))
	// Output: [{"op":"test","path":"/metadata/resourceVersion","value":"12"},{"op":"remove","path":"/spec/template/spec/containers/1"},{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:2"}]
}
