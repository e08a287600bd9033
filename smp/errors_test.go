package smp_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// podWithNginx is a live Pod with one container holding two ports that
// share a number.
const podWithNginx = `{"metadata":{"name":"p","finalizers":["a"]},"spec":{"containers":[{"name":"nginx","image":"nginx:1",
"env":[{"name":"A","value":"1"}],
"ports":[{"containerPort":53,"protocol":"TCP"},{"containerPort":53,"protocol":"UDP"}]}],
"volumes":[{"name":"v","emptyDir":{}}]}}`

type errorCase struct {
	name     string
	typ      string // fixtures registry name; Pod if empty
	original string // podWithNginx if empty
	patch    string
	kind     smp.ErrorKind
	path     string
}

// malformedPatches are patches the applier must reject, each with the
// kind and the path it must report.
var malformedPatches = []errorCase{
	{name: "not JSON", patch: `{"spec":`, kind: smp.ErrInvalidJSON, path: "<root>"},
	{name: "trailing data", patch: `{} {}`, kind: smp.ErrInvalidJSON, path: "<root>"},
	{name: "array patch", patch: `[1,2]`, kind: smp.ErrNotObject, path: "<root>"},
	{name: "string patch", patch: `"x"`, kind: smp.ErrNotObject, path: "<root>"},
	{name: "number patch", patch: `5`, kind: smp.ErrNotObject, path: "<root>"},
	{name: "invalid UTF-8 is replaced, list for a map", patch: "{\"spec\":{\"nodeSelector\":[\"\xff\"]}}", kind: smp.ErrTypeMismatch, path: "spec.nodeSelector"},
	{name: "setElementOrder not a list", patch: `{"spec":{"$setElementOrder/containers":5}}`, kind: smp.ErrInvalidDirective, path: "spec.$setElementOrder/containers"},
	{name: "setElementOrder for a replace list", patch: `{"spec":{"$setElementOrder/tolerations":[]}}`, kind: smp.ErrDirectiveNotAllowed, path: "spec.$setElementOrder/tolerations"},
	{name: "setElementOrder for an unknown field", patch: `{"spec":{"$setElementOrder/nope":[]}}`, kind: smp.ErrDirectiveNotAllowed, path: "spec.$setElementOrder/nope"},
	{name: "setElementOrder entry without key", patch: `{"spec":{"$setElementOrder/containers":[{"image":"x"}]}}`, kind: smp.ErrMissingMergeKey, path: "spec.$setElementOrder/containers[0]"},
	{name: "setElementOrder entry not an object", patch: `{"spec":{"$setElementOrder/containers":["nginx"]}}`, kind: smp.ErrMixedList, path: "spec.$setElementOrder/containers[0]"},
	{name: "setElementOrder out of order", patch: `{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"}],"containers":[{"name":"b"},{"name":"a"}]}}`, kind: smp.ErrSetElementOrder, path: "spec.containers[1]"},
	{name: "setElementOrder missing a patch item", patch: `{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"c"}]}}`, kind: smp.ErrSetElementOrder, path: "spec.containers[0]"},
	{name: "setElementOrder of scalars missing an item", patch: `{"metadata":{"$setElementOrder/finalizers":["a"],"finalizers":["b"]}}`, kind: smp.ErrSetElementOrder, path: "metadata.finalizers[0]"},
	{name: "retainKeys not a list", typ: "Deployment", original: `{}`, patch: `{"spec":{"strategy":{"$retainKeys":"a"}}}`, kind: smp.ErrInvalidDirective, path: "spec.strategy.$retainKeys"},
	{name: "retainKeys of numbers", typ: "Deployment", original: `{}`, patch: `{"spec":{"strategy":{"$retainKeys":[1]}}}`, kind: smp.ErrInvalidDirective, path: "spec.strategy.$retainKeys"},
	{name: "retainKeys on a field without the strategy", patch: `{"spec":{"$retainKeys":["containers"]}}`, kind: smp.ErrDirectiveNotAllowed, path: "spec.$retainKeys"},
	{name: "field missing from retainKeys", typ: "Deployment", original: `{}`, patch: `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate","rollingUpdate":{}}}}`, kind: smp.ErrRetainKeys, path: "spec.strategy.rollingUpdate"},
	{name: "retainKeys in a volume element", patch: `{"spec":{"volumes":[{"name":"v","$retainKeys":["name"],"hostPath":{"path":"/"}}]}}`, kind: smp.ErrRetainKeys, path: "spec.volumes[name=v].hostPath"},
	{name: "$patch a number", patch: `{"spec":{"$patch":7}}`, kind: smp.ErrInvalidDirective, path: "spec.$patch"},
	{name: "$patch unknown", patch: `{"metadata":{"$patch":"remove"}}`, kind: smp.ErrInvalidDirective, path: "metadata.$patch"},
	{name: "$patch merge on a map", patch: `{"metadata":{"$patch":"merge"}}`, kind: smp.ErrInvalidDirective, path: "metadata.$patch"},
	{name: "$patch merge in a list", patch: `{"spec":{"containers":[{"$patch":"merge"}]}}`, kind: smp.ErrInvalidDirective, path: "spec.containers[0].$patch"},
	{name: "$patch unknown in a list", patch: `{"spec":{"containers":[{"$patch":"nope","name":"x"}]}}`, kind: smp.ErrInvalidDirective, path: "spec.containers[0].$patch"},
	{name: "patchMergeKey an object", patch: `{"spec":{"containers":[{"name":"nginx","ports":[{"$patchMergeKey":{},"containerPort":53}]}]}}`, kind: smp.ErrInvalidDirective, path: "spec.containers[name=nginx].ports[0]"},
	{name: "patchMergeKey empty", patch: `{"spec":{"containers":[{"name":"nginx","ports":[{"$patchMergeKey":[],"containerPort":53}]}]}}`, kind: smp.ErrInvalidDirective, path: "spec.containers[name=nginx].ports[0]"},
	{name: "patchMergeKey without the default key", patch: `{"spec":{"containers":[{"name":"nginx","ports":[{"$patchMergeKey":["protocol"],"protocol":"UDP"}]}]}}`, kind: smp.ErrInvalidDirective, path: "spec.containers[name=nginx].ports[0]"},
	{name: "patchMergeKey naming another field", patch: `{"spec":{"containers":[{"name":"nginx","ports":[{"$patchMergeKey":["containerPort","hostIP"],"containerPort":53}]}]}}`, kind: smp.ErrInvalidDirective, path: "spec.containers[name=nginx].ports[0]"},
	{name: "patchMergeKey on a list without recommended keys", patch: `{"spec":{"containers":[{"$patchMergeKey":["name","image"],"name":"nginx"}]}}`, kind: smp.ErrInvalidDirective, path: "spec.containers[0]"},
	{name: "patchMergeKey outside a list", patch: `{"spec":{"$patchMergeKey":["name"]}}`, kind: smp.ErrDirectiveNotAllowed, path: "spec.$patchMergeKey"},
	{name: "partial key matching two ports", patch: `{"spec":{"containers":[{"name":"nginx","ports":[{"$patchMergeKey":["containerPort"],"containerPort":53,"hostPort":1}]}]}}`, kind: smp.ErrAmbiguousMergeKey, path: "spec.containers[name=nginx].ports[containerPort=53]"},
	{name: "merge key missing", patch: `{"spec":{"containers":[{"image":"x"}]}}`, kind: smp.ErrMissingMergeKey, path: "spec.containers[0]"},
	{name: "merge key missing in a delete", patch: `{"spec":{"containers":[{"$patch":"delete"}]}}`, kind: smp.ErrMissingMergeKey, path: "spec.containers[0]"},
	{name: "merge key null", patch: `{"spec":{"containers":[{"name":null,"image":"x"}]}}`, kind: smp.ErrNullMergeKey, path: "spec.containers[0]"},
	{name: "merge key an object", patch: `{"spec":{"containers":[{"name":{"a":1}}]}}`, kind: smp.ErrTypeMismatch, path: "spec.containers[0]"},
	{name: "merge key of the wrong type", patch: `{"spec":{"containers":[{"name":5,"image":"x"}]}}`, kind: smp.ErrTypeMismatch, path: "spec.containers[name=5].name"},
	{name: "multi-field key missing a field", typ: "Gateway", original: `{}`, patch: `{"spec":{"listeners":[{"port":53}]}}`, kind: smp.ErrMissingMergeKey, path: "spec.listeners[0]"},
	{name: "multi-field key missing in a delete", typ: "Gateway", original: `{}`, patch: `{"spec":{"listeners":[{"$patch":"delete","protocol":"UDP"}]}}`, kind: smp.ErrMissingMergeKey, path: "spec.listeners[0]"},
	{name: "scalar in a list of objects", patch: `{"spec":{"containers":["nginx"]}}`, kind: smp.ErrMixedList, path: "spec.containers[0]"},
	{name: "object in a list of scalars", patch: `{"metadata":{"finalizers":[{"a":1}]}}`, kind: smp.ErrMixedList, path: "metadata.finalizers[0]"},
	{name: "map where a list is expected", patch: `{"spec":{"containers":{"name":"x"}}}`, kind: smp.ErrTypeMismatch, path: "spec.containers"},
	{name: "list where a map is expected", patch: `{"metadata":[1]}`, kind: smp.ErrTypeMismatch, path: "metadata"},
	{name: "string for a bool", patch: `{"spec":{"hostNetwork":"yes"}}`, kind: smp.ErrTypeMismatch, path: "spec.hostNetwork"},
	{name: "number for a string", patch: `{"spec":{"nodeName":5}}`, kind: smp.ErrTypeMismatch, path: "spec.nodeName"},
	{name: "number too large for int64", patch: `{"spec":{"terminationGracePeriodSeconds":9223372036854775808}}`, kind: smp.ErrInvalidValue, path: "spec.terminationGracePeriodSeconds"},
	{name: "number too large for int32", patch: `{"spec":{"containers":[{"name":"nginx","ports":[{"containerPort":2147483648}]}]}}`, kind: smp.ErrInvalidValue, path: "spec.containers[name=nginx].ports[containerPort=2147483648].containerPort"},
	{name: "fraction for an integer", patch: `{"spec":{"terminationGracePeriodSeconds":1.5}}`, kind: smp.ErrInvalidValue, path: "spec.terminationGracePeriodSeconds"},
	{name: "NaN-like string in a number field", patch: `{"spec":{"terminationGracePeriodSeconds":"NaN"}}`, kind: smp.ErrTypeMismatch, path: "spec.terminationGracePeriodSeconds"},
	{name: "deleteFromPrimitiveList not a list", patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}}`, kind: smp.ErrInvalidDirective, path: "metadata.$deleteFromPrimitiveList/finalizers"},
	{name: "deleteFromPrimitiveList on a list of objects", patch: `{"spec":{"$deleteFromPrimitiveList/containers":["a"]}}`, kind: smp.ErrDirectiveNotAllowed, path: "spec.$deleteFromPrimitiveList/containers"},
	{name: "deleteFromPrimitiveList on a replace list", patch: `{"spec":{"containers":[{"name":"nginx","$deleteFromPrimitiveList/args":["a"]}]}}`, kind: smp.ErrDirectiveNotAllowed, path: "spec.containers[name=nginx].$deleteFromPrimitiveList/args"},
	{name: "deleteFromPrimitiveList of objects", patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":[{}]}}`, kind: smp.ErrMixedList, path: "metadata.$deleteFromPrimitiveList/finalizers[0]"},
	{name: "key that is only $", patch: `{"spec":{"$":1}}`, kind: smp.ErrUnknownDirective, path: "spec.$"},
	{name: "unknown directive", patch: `{"$foo":1}`, kind: smp.ErrUnknownDirective, path: "$foo"},
	{name: "base64 field not base64", typ: "ConfigMap", original: `{}`, patch: `{"binaryData":{"k":"!!"}}`, kind: smp.ErrInvalidValue, path: "binaryData.k"},
	{name: "error inside an added element", patch: `{"spec":{"containers":[{"name":"new","ports":[{"containerPort":"80"}]}]}}`, kind: smp.ErrTypeMismatch, path: "spec.containers[name=new].ports[containerPort=80].containerPort"},
}

func TestMalformedPatches(t *testing.T) {
	require.GreaterOrEqual(t, len(malformedPatches), 40)
	for _, c := range malformedPatches {
		t.Run(c.name, func(t *testing.T) {
			typ, orig := c.typ, c.original
			if typ == "" {
				typ = "Pod"
			}
			if orig == "" {
				orig = podWithNginx
			}
			schema, ok := exampletypes.Lookup(typ)
			require.True(t, ok)
			out, err := smp.ApplyJSON([]byte(orig), []byte(c.patch), schema)
			require.Error(t, err, "result: %s", out)
			assert.Nil(t, out, "a failed apply returns no partial result")
			var e *smp.Error
			require.True(t, errors.As(err, &e), "%T %v", err, err)
			assert.Equal(t, c.kind, e.Kind, "%v", err)
			assert.Equal(t, c.path, e.Path.String(), "%v", err)
			assert.True(t, strings.HasPrefix(err.Error(), c.path+": "), "message starts with the path: %v", err)
		})
	}
}

// TestErrorsIsKind: a kind is an error errors.Is matches against an
// *Error of that kind, wherever it is in the chain.
func TestErrorsIsKind(t *testing.T) {
	_, err := smp.ThreeWayJSON([]byte(`{"spec":{"nodeName":"a"}}`), []byte(`{"spec":{"nodeName":"b"}}`), []byte(`{"spec":{"nodeName":"c"}}`), &exampletypes.Pod{}, smp.WithOverwrite(false))
	require.Error(t, err)
	assert.True(t, errors.Is(err, smp.ErrConflict))
	assert.True(t, errors.Is(fmt.Errorf("wrapped: %w", err), smp.ErrConflict))
	assert.False(t, errors.Is(err, smp.ErrLimit))
	assert.False(t, errors.Is(errors.New("Conflict"), smp.ErrConflict))
}
