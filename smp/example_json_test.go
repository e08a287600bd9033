package smp_test

import (
	"errors"
	"fmt"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// The element the patch does not reach is written back as it was read.
func ExampleApplyJSON() {
	live := []byte(`{"spec":{"containers":[{"name":"web","image":"nginx:1"},{"name":"log","image":"fluent:1"}]}}`)
	patch := []byte(`{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}`)
	out, err := smp.ApplyJSON(live, patch, exampletypes.Pod{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output: {"spec":{"containers":[{"image":"nginx:2","name":"web"},{"name":"log","image":"fluent:1"}]}}
}

func ExampleDiffJSON() {
	original := []byte(`{"metadata":{"finalizers":["a","b"]},"spec":{"containers":[{"name":"web","image":"nginx:1"},{"name":"old"}]}}`)
	modified := []byte(`{"metadata":{"finalizers":["a"]},"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}`)
	patch, err := smp.DiffJSON(original, modified, exampletypes.Pod{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(patch))
	// Output: {"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"$setElementOrder/finalizers":["a"]},"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"image":"nginx:2","name":"web"},{"$patch":"delete","name":"old"}]}}
}

func ExampleThreeWayJSON() {
	lastApplied := []byte(`{"spec":{"nodeName":"a","hostname":"h1"}}`)
	config := []byte(`{"spec":{"nodeName":"b","hostname":"h1"}}`)
	live := []byte(`{"spec":{"nodeName":"c","hostname":"h1","dnsPolicy":"None"}}`)
	_, err := smp.ThreeWayJSON(lastApplied, config, live, exampletypes.Pod{}, smp.WithOverwrite(false))
	var e *smp.Error
	if errors.As(err, &e) && smp.IsConflict(err) {
		fmt.Println("conflict at", e.Path)
	}
	patch, _ := smp.ThreeWayJSON(lastApplied, config, live, exampletypes.Pod{}, smp.WithOverwrite(true))
	fmt.Println(string(patch))
	// Output:
	// conflict at spec.nodeName
	// {"spec":{"nodeName":"b"}}
}

// The live object's extra container, added by another writer, stays; the
// one the configuration dropped is deleted.
func ExampleThreeWayMap() {
	lastApplied := smp.JSONMap{"spec": map[string]any{"containers": []any{
		map[string]any{"name": "web", "image": "nginx:1"}, map[string]any{"name": "old", "image": "old:1"}}}}
	config := smp.JSONMap{"spec": map[string]any{"containers": []any{
		map[string]any{"name": "web", "image": "nginx:2"}}}}
	live := smp.JSONMap{"spec": map[string]any{"containers": []any{
		map[string]any{"name": "web", "image": "nginx:1"}, map[string]any{"name": "old", "image": "old:1"},
		map[string]any{"name": "proxy", "image": "envoy:1"}}}}
	patch, err := smp.ThreeWayMap(lastApplied, config, live, exampletypes.Pod{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(patch)
	out, err := smp.ApplyMap(live, patch, exampletypes.Pod{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// map[spec:map[$setElementOrder/containers:[map[name:web]] containers:[map[image:nginx:2 name:web] map[$patch:delete name:old]]]]
	// map[spec:map[containers:[map[image:nginx:2 name:web] map[image:envoy:1 name:proxy]]]]
}

func ExampleError() {
	_, err := smp.ApplyJSON([]byte(`{}`), []byte(`{"spec":{"containers":[{"image":"x"}]}}`), exampletypes.Pod{})
	var e *smp.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind)
		fmt.Println(e.Path)
		fmt.Println(err)
	}
	// Output:
	// MissingMergeKey
	// spec.containers[0]
	// spec.containers[0]: element has no merge key field "name" (merge key name)
}

// A map that holds the same map under two keys at each of forty levels
// stands for 2^40 leaves: CheckSize says so in milliseconds, naming where
// the budget ran out, before encoding/json would try to write them all.
func ExampleCheckSize() {
	m := map[string]any{"v": "leaf"}
	for range 40 {
		m = map[string]any{"a": m, "b": m}
	}
	err := smp.CheckSize(m, smp.DefaultLimits(), "object")
	fmt.Println(smp.KindOf(err))
	fmt.Println(smp.CheckSize(map[string]any{"a": map[string]any{"b": 1}}, smp.DefaultLimits(), "object"))
	// Output:
	// Limit
	// <nil>
}
