package engine_test

import (
	"fmt"
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// ApplyObject merges a patch into a decoded document by the schema of a
// Go type: the merge list keeps the live element the patch does not name.
func ExampleApplyObject() {
	type Container struct {
		Name  string `json:"name"`
		Image string `json:"image,omitempty"`
	}
	type Spec struct {
		Containers []Container `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
	}
	t, err := reflectschema.Of(reflect.TypeFor[Spec]())
	if err != nil {
		panic(err)
	}
	cfg := &engine.Config{Directives: format.DirectivesAll, Limits: jsonval.DefaultLimits().Bounded()}
	live := map[string]any{"containers": []any{
		map[string]any{"name": "web", "image": "nginx:1"},
		map[string]any{"name": "log", "image": "fluentd"},
	}}
	patch := map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:2"}}}
	res, err := engine.ApplyObject(live, patch, reflectschema.Slot{Type: t}, cfg)
	fmt.Println(res, err)
	// Output:
	// map[containers:[map[image:nginx:2 name:web] map[image:fluentd name:log]]] <nil>
}
