package smp

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// typedAsJSON converts a typed root document to its JSON form (the empty
// object when absent), for operations the typed differ does not do.
func typedAsJSON(root goval.Root, v reflect.Value) (map[string]any, error) {
	if !v.IsValid() {
		return map[string]any{}, nil
	}
	j, err := goval.ToJSONValue(v, root.Node, false)
	if err != nil {
		return nil, err
	}
	m, _ := j.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// typedViaJSON runs a two-way (len(docs) 2) or three-way diff of typed
// documents on their JSON form: how Diff and ThreeWay honour
// WithRepeatedReplaceFields, which the typed differ, skipping equal
// values, does not implement.
func typedViaJSON(root goval.Root, cfg *config, docs ...reflect.Value) (map[string]any, error) {
	ms := make([]map[string]any, len(docs))
	for i, v := range docs {
		m, err := typedAsJSON(root, v)
		if err != nil {
			return nil, err
		}
		ms[i] = m
	}
	if len(ms) == 2 {
		return twoWay(ms[0], ms[1], root.Slot(), cfg)
	}
	return engine.ThreeWay(ms[0], ms[1], ms[2], root.Slot(), cfg)
}
