package rfcpatch_test

import (
	"fmt"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
	"github.com/typedpatch/typedpatch/smp/internal/rfcpatch"
)

func Example() {
	live := map[string]any{"labels": map[string]any{"a/b": "1", "keep": "x"}, "args": []any{"-v", "-q"}}
	result := map[string]any{"labels": map[string]any{"keep": "x"}, "args": []any{"-v"}}
	mp, _ := jsonval.Encode(rfcpatch.MergePatch(live, result))
	fmt.Println(string(mp))
	jp, _ := rfcpatch.JSONPatch(live, result, reflectschema.Slot{}, nil, 0)
	fmt.Println(string(jp))
	// Output:
	// {"args":["-v"],"labels":{"a/b":null}}
	// [{"op":"remove","path":"/args/1"},{"op":"remove","path":"/labels/a~1b"}]
}
