package strategicpatch

import (
	"strconv"

	"github.com/typedpatch/typedpatch/smp"
)

// MergeStrategicMergeMapPatchUsingLookupPatchMeta composes patches into
// one whose effect is that of applying them in order, later patches
// winning (smp.ComposeMap): nulls, directives and deletions are kept, and
// the last $setElementOrder of a list wins where Kubernetes fails. Where
// no one patch has that effect it returns an *smp.Error of kind
// smp.ErrNotComposable naming the path. No argument is changed.
func MergeStrategicMergeMapPatchUsingLookupPatchMeta(schema LookupPatchMeta, patches ...JSONMap) (JSONMap, error) {
	docs := make([]map[string]interface{}, len(patches))
	for i, p := range patches {
		data, err := marshalMap(p, "patch "+strconv.Itoa(i+1))
		if err != nil {
			return nil, err
		}
		if docs[i], err = decodeMap(data); err != nil {
			return nil, err
		}
	}
	t, err := schemaOf(schema, docs...)
	if err != nil {
		return nil, err
	}
	in := make([]smp.JSONMap, len(docs))
	for i, d := range docs {
		in[i] = d
	}
	out, err := smp.ComposeMap(t, in...)
	if err != nil {
		return nil, err
	}
	return JSONMap(out), nil
}
