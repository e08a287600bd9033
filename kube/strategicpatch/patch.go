package strategicpatch

import (
	"bytes"
	"encoding/json"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/typedpatch/typedpatch/smp"
)

// JSONMap is a JSON object decoded into Go values.
type JSONMap map[string]interface{}

// DiffOptions are Kubernetes' options of its internal diff; this package
// accepts them for compatibility and uses none.
type DiffOptions struct {
	// SetElementOrder determines whether we generate the $setElementOrder parallel list.
	SetElementOrder bool
	// IgnoreChangesAndAdditions indicates if we keep the changes and additions in the patch.
	IgnoreChangesAndAdditions bool
	// IgnoreDeletions indicates if we keep the deletions in the patch.
	IgnoreDeletions bool
	// BuildRetainKeysDirective says whether to write $retainKeys.
	BuildRetainKeysDirective bool
}

// MergeOptions are Kubernetes' options of its internal merge; this package
// accepts them for compatibility and uses none.
type MergeOptions struct {
	// MergeParallelList indicates if we are merging the parallel list.
	MergeParallelList bool
	// IgnoreUnmatchedNulls indicates if we should process the unmatched nulls.
	IgnoreUnmatchedNulls bool
}

// engineOpts are the options of every operation: the directives
// Kubernetes writes and understands, and no value type checks.
func engineOpts(extra ...smp.Option) []smp.Option {
	return append([]smp.Option{smp.WithDirectives(smp.DirectivesRetainKeys), smp.WithTypeChecks(false), smp.WithRepeatedReplaceFields(true), smp.WithKubernetesDirectiveScope(true)}, extra...)
}

// CreateTwoWayMergePatch returns the patch that turns original into
// modified, for the struct type of dataStruct. Every precondition must
// accept the patch.
func CreateTwoWayMergePatch(original, modified []byte, dataStruct interface{}, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	schema, err := dataStructMeta(dataStruct)
	if err != nil {
		return nil, err
	}
	return CreateTwoWayMergePatchUsingLookupPatchMeta(original, modified, schema, fns...)
}

// CreateTwoWayMergePatchUsingLookupPatchMeta is CreateTwoWayMergePatch
// with the schema given as a LookupPatchMeta.
func CreateTwoWayMergePatchUsingLookupPatchMeta(original, modified []byte, schema LookupPatchMeta, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	original, modified = orEmpty(original), orEmpty(modified)
	if err := checkNumbers(original, modified); err != nil {
		return nil, err
	}
	t, err := schemaForJSON(schema, original, modified)
	if err != nil {
		return nil, err
	}
	patch, err := smp.DiffJSON(original, modified, t, engineOpts()...)
	if err != nil {
		return nil, kubeError(err)
	}
	if err := checkPreconditions(patch, fns); err != nil {
		return nil, err
	}
	return patch, nil
}

// CreateTwoWayMergeMapPatch is CreateTwoWayMergePatch on decoded objects.
func CreateTwoWayMergeMapPatch(original, modified JSONMap, dataStruct interface{}, fns ...mergepatch.PreconditionFunc) (JSONMap, error) {
	schema, err := dataStructMeta(dataStruct)
	if err != nil {
		return nil, err
	}
	return CreateTwoWayMergeMapPatchUsingLookupPatchMeta(original, modified, schema, fns...)
}

// CreateTwoWayMergeMapPatchUsingLookupPatchMeta is
// CreateTwoWayMergeMapPatch with the schema given as a LookupPatchMeta.
func CreateTwoWayMergeMapPatchUsingLookupPatchMeta(original, modified JSONMap, schema LookupPatchMeta, fns ...mergepatch.PreconditionFunc) (JSONMap, error) {
	o, m, err := encodePair(original, modified)
	if err != nil {
		return nil, err
	}
	p, err := CreateTwoWayMergePatchUsingLookupPatchMeta(o, m, schema, fns...)
	if err != nil {
		return nil, err
	}
	return decodeMap(p)
}

// StrategicMergePatch applies a patch to a document, both JSON, for the
// struct type of dataStruct.
func StrategicMergePatch(original, patch []byte, dataStruct interface{}) ([]byte, error) {
	schema, err := dataStructMeta(dataStruct)
	if err != nil {
		return nil, err
	}
	return StrategicMergePatchUsingLookupPatchMeta(original, patch, schema)
}

// StrategicMergePatchUsingLookupPatchMeta is StrategicMergePatch with the
// schema given as a LookupPatchMeta.
func StrategicMergePatchUsingLookupPatchMeta(original, patch []byte, schema LookupPatchMeta) ([]byte, error) {
	// nil is {}, but empty input is not JSON.
	if original == nil {
		original = []byte("{}")
	}
	if patch == nil {
		patch = []byte("{}")
	}
	if len(original) == 0 || len(patch) == 0 {
		return nil, mergepatch.ErrBadJSONDoc
	}
	if err := checkNumbers(original, patch); err != nil {
		return nil, err
	}
	orders := bytes.Contains(patch, []byte("$setElementOrder/"))
	t, maps, err := schemaAndMaps(schema, orders, original, patch)
	if err != nil {
		return nil, err
	}
	if maps != nil && orders {
		if err := checkOrderLists(maps[0], maps[1], t, nil); err != nil {
			return nil, err
		}
	}
	out, err := smp.ApplyJSON(original, patch, t, engineOpts()...)
	if err != nil {
		return nil, kubeError(err)
	}
	return out, nil
}

// StrategicMergeMapPatch is StrategicMergePatch on decoded objects. It
// changes neither argument. An *unstructured.Unstructured data struct has
// no schema and is refused with ErrUnsupportedStrategicMergePatchFormat.
func StrategicMergeMapPatch(original, patch JSONMap, dataStruct interface{}) (JSONMap, error) {
	schema, err := dataStructMeta(dataStruct)
	if err != nil {
		return nil, err
	}
	if _, ok := dataStruct.(*unstructured.Unstructured); ok {
		return nil, mergepatch.ErrUnsupportedStrategicMergePatchFormat
	}
	return StrategicMergeMapPatchUsingLookupPatchMeta(original, patch, schema)
}

// StrategicMergeMapPatchUsingLookupPatchMeta is StrategicMergeMapPatch
// with the schema given as a LookupPatchMeta.
func StrategicMergeMapPatchUsingLookupPatchMeta(original, patch JSONMap, schema LookupPatchMeta) (JSONMap, error) {
	o, p, err := encodePair(original, patch)
	if err != nil {
		return nil, err
	}
	out, err := StrategicMergePatchUsingLookupPatchMeta(o, p, schema)
	if err != nil {
		return nil, err
	}
	return decodeMap(out)
}

// CreateThreeWayMergePatch returns the patch that brings current to
// modified while keeping the changes made to current since original. With
// overwrite false, a patch that would undo such a change fails with a
// mergepatch.ErrConflict. Preconditions are checked first.
func CreateThreeWayMergePatch(original, modified, current []byte, schema LookupPatchMeta, overwrite bool, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	original, modified, current = orEmpty(original), orEmpty(modified), orEmpty(current)
	if err := checkNumbers(original, modified, current); err != nil {
		return nil, err
	}
	t, err := schemaForJSON(schema, original, modified, current)
	if err != nil {
		return nil, err
	}
	patch, err := smp.ThreeWayJSON(original, modified, current, t, engineOpts(smp.WithOverwrite(overwrite))...)
	if err == nil {
		if err := checkPreconditions(patch, fns); err != nil {
			return nil, err
		}
		if !overwrite {
			if err := conflictCheckLookups(original, current, patch, t, schema); err != nil {
				return nil, err
			}
		}
		return patch, nil
	}
	if !smp.IsConflict(err) {
		return nil, kubeError(err)
	}
	// Kubernetes checks the preconditions before the conflicts.
	if patch, err = smp.ThreeWayJSON(original, modified, current, t, engineOpts(smp.WithOverwrite(true))...); err != nil {
		return nil, kubeError(err)
	}
	if err := checkPreconditions(patch, fns); err != nil {
		return nil, err
	}
	changed, err := smp.DiffJSON(original, current, t, engineOpts()...)
	if err != nil {
		return nil, kubeError(err)
	}
	return nil, mergepatch.NewErrConflict(yamlOf(patch), yamlOf(changed, "$setElementOrder/"))
}

// MergingMapsHaveConflicts reports whether two patches set a field to
// different values, by strategic merge patch rules.
func MergingMapsHaveConflicts(left, right map[string]interface{}, schema LookupPatchMeta) (bool, error) {
	l, r, err := encodePair(left, right)
	if err != nil {
		return false, err
	}
	t, err := schemaForJSON(schema, l, r)
	if err != nil {
		return false, err
	}
	lm, rm, err := decodePair(l, r)
	if err != nil {
		return false, err
	}
	conflict, err := smp.PatchesConflict(lm, rm, t)
	return conflict, kubeError(err)
}

// orEmpty reads an empty document as {}, as Kubernetes' diffs do.
func orEmpty(doc []byte) []byte {
	if len(doc) == 0 {
		return []byte("{}")
	}
	return doc
}

// schemaForJSON converts a LookupPatchMeta, decoding the documents when it
// is one whose fields must be asked about (see walk).
func schemaForJSON(schema LookupPatchMeta, docs ...[]byte) (t smpSchema, err error) {
	t, _, err = schemaAndMaps(schema, false, docs...)
	return t, err
}

// schemaAndMaps is schemaForJSON that also returns the decoded documents,
// nil when it did not decode them: documents a typed data struct's schema
// fits (rawSafe, with strictLists) need no walk.
func schemaAndMaps(schema LookupPatchMeta, strictLists bool, docs ...[]byte) (smpSchema, []map[string]interface{}, error) {
	if !needsDocs(schema) {
		t, err := schemaOf(schema)
		return t, nil, err
	}
	if t, ok := fittingSchema(schema, strictLists, docs); ok {
		return t, nil, nil
	}
	maps := make([]map[string]interface{}, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal(d, &maps[i]); err != nil {
			return nil, nil, mergepatch.ErrBadJSONDoc
		}
	}
	t, err := schemaOf(schema, maps...)
	return t, maps, err
}

func encodePair(a, b map[string]interface{}) ([]byte, []byte, error) {
	ja, err := marshalMap(a, "first object")
	if err != nil {
		return nil, nil, err
	}
	jb, err := marshalMap(b, "second object")
	return ja, jb, err
}

func decodePair(a, b []byte) (map[string]interface{}, map[string]interface{}, error) {
	ma, err := decodeMap(a)
	if err != nil {
		return nil, nil, err
	}
	mb, err := decodeMap(b)
	return ma, mb, err
}

// decodeMap decodes an object as Kubernetes does: integers as int64.
func decodeMap(data []byte) (JSONMap, error) {
	m := map[string]interface{}{}
	if err := kjson.Unmarshal(data, &m); err != nil {
		return nil, mergepatch.ErrBadJSONDoc
	}
	return m, nil
}

// checkPreconditions runs fns on the decoded patch, as Kubernetes does.
func checkPreconditions(patch []byte, fns []mergepatch.PreconditionFunc) error {
	if len(fns) == 0 {
		return nil
	}
	m, err := decodeMap(patch)
	if err != nil {
		return err
	}
	for _, fn := range fns {
		if !fn(map[string]interface{}(m)) {
			return mergepatch.NewErrPreconditionFailed(m)
		}
	}
	return nil
}

// yamlOf renders a JSON patch for a conflict message, leaving out keys
// with the given prefixes at any depth (Kubernetes describes the changes
// since the original without $setElementOrder).
func yamlOf(patch []byte, drop ...string) string {
	m, err := decodeMap(patch)
	if err != nil {
		return string(patch)
	}
	if len(drop) > 0 {
		dropKeys(map[string]interface{}(m), drop)
	}
	return mergepatch.ToYAMLOrError(m)
}

// dropKeys deletes the keys with one of the prefixes from v's objects.
func dropKeys(v interface{}, prefixes []string) {
	switch v := v.(type) {
	case map[string]interface{}:
		for k, e := range v {
			for _, p := range prefixes {
				if strings.HasPrefix(k, p) {
					delete(v, k)
				}
			}
			dropKeys(e, prefixes)
		}
	case []interface{}:
		for _, e := range v {
			dropKeys(e, prefixes)
		}
	}
}
