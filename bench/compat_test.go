package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/smp"
)

// compatCase is one difference docs/compat.md lists: the same apply or
// two-way diff run by Kubernetes and by this project, each result pinned.
// If Kubernetes changes, the test says so.
type compatCase struct {
	id                string // the docs/compat.md heading anchor
	schema            any
	k8sSchema         any    // when Kubernetes needs tags reflectschema rejects
	original, patch   string // apply: original + patch; diff: original + modified (in patch)
	diff              bool
	k8sWant, oursWant string // JSON, or "error: substring"
}

var compatCases = []compatCase{
	{id: "delete-directive-on-a-map", schema: &appsv1.Deployment{},
		original: `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}}`,
		patch:    `{"spec":{"strategy":{"rollingUpdate":{"$patch":"delete"}}}}`,
		k8sWant:  `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{}}}}`,
		oursWant: `{"spec":{"strategy":{"type":"RollingUpdate"}}}`},
	{id: "null-live-list-with-setelementorder", schema: &corev1.Pod{},
		original: `{"spec":{"containers":null}}`,
		patch:    `{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"a"}]}}`,
		k8sWant:  "error: expected a []interface {}",
		oursWant: `{"spec":{"containers":[{"name":"a"}]}}`},
	{id: "directives-in-added-values", schema: &corev1.Pod{},
		original: `{"spec":{"containers":[{"name":"a"}]}}`,
		patch:    `{"spec":{"containers":[{"name":"b","ports":[{"containerPort":80},{"$patch":"delete","containerPort":81}],"image":null}]}}`,
		k8sWant:  `{"spec":{"containers":[{"name":"b","image":null,"ports":[{"containerPort":80},{"$patch":"delete","containerPort":81}]},{"name":"a"}]}}`,
		oursWant: `{"spec":{"containers":[{"name":"b","ports":[{"containerPort":80}]},{"name":"a"}]}}`},
	{id: "replace-directive-on-an-absent-map", schema: &appsv1.Deployment{},
		original: `{"spec":{}}`,
		patch:    `{"spec":{"strategy":{"$patch":"replace","type":"Recreate"}}}`,
		k8sWant:  `{"spec":{}}`,
		oursWant: `{"spec":{"strategy":{"type":"Recreate"}}}`},
	{id: "directives-on-fields-without-their-strategy", schema: &corev1.Pod{},
		original: `{"spec":{"containers":[{"name":"a","args":["x","y"]}]}}`,
		patch:    `{"spec":{"containers":[{"name":"a","$deleteFromPrimitiveList/args":["x"]}]}}`,
		k8sWant:  `{"spec":{"containers":[{"name":"a","args":["y"]}]}}`,
		oursWant: "error: not a merge list"},
	{id: "directives-on-fields-without-their-strategy", schema: &corev1.Pod{},
		original: `{"spec":{"nodeName":"n","hostname":"h"}}`,
		patch:    `{"spec":{"$retainKeys":["nodeName"]}}`,
		k8sWant:  `{"spec":{"nodeName":"n"}}`,
		oursWant: "error: no retainKeys strategy"},
	{id: "values-of-the-wrong-type", schema: &corev1.Pod{},
		original: `{"spec":{}}`,
		patch:    `{"spec":{"hostNetwork":"yes","containers":{"name":"a"}}}`,
		k8sWant:  `{"spec":{"hostNetwork":"yes","containers":{"name":"a"}}}`,
		oursWant: "error: expected an array"},
	{id: "objects-under-unknown-fields-and-maps-of-structs", schema: &corev1.Pod{},
		original: `{"spec":{"extra":{"a":{"b":1}}}}`,
		patch:    `{"spec":{"extra":{"a":{"c":2}}}}`,
		k8sWant:  "error: unable to find api field",
		oursWant: "error: not a field of the schema"},
	{id: "objects-under-unknown-fields-and-maps-of-structs", schema: &mapHolder{},
		original: `{"m":{"a":{"name":"x","value":"1"}}}`,
		patch:    `{"m":{"a":{"value":"2"}}}`,
		k8sWant:  "error: data type is not struct, instead is: map",
		oursWant: `{"m":{"a":{"name":"x","value":"2"}}}`},
	{id: "self-marshalling-types-are-atomic", schema: &appsv1.ControllerRevision{},
		original: `{"data":{"a":{"x":1},"b":2}}`,
		patch:    `{"data":{"a":{"y":2}}}`,
		k8sWant:  "error: unable to find api field",
		oursWant: `{"data":{"a":{"y":2}}}`},
	{id: "merge-keys-compare-numbers-by-value", schema: &corev1.Pod{},
		original: `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"x"}]}]}}`,
		patch:    `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80.0,"name":"y"}]}]}}`,
		k8sWant:  `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"y"},{"containerPort":80,"name":"x"}]}]}}`,
		oursWant: "error: does not fit int32"},
	{id: "integers-stay-exact", schema: &corev1.Pod{},
		original: `{"metadata":{"annotations":{}},"spec":{"x":18446744073709551615}}`,
		patch:    `{"metadata":{"name":"n"}}`,
		k8sWant:  `{"metadata":{"annotations":{},"name":"n"},"spec":{"x":18446744073709552000}}`,
		oursWant: `{"metadata":{"annotations":{},"name":"n"},"spec":{"x":18446744073709551615}}`},
	{id: "duplicated-merge-keys", schema: &corev1.Pod{}, diff: true,
		original: `{"spec":{"containers":[{"name":"a","image":"1"},{"name":"a","image":"2"}]}}`,
		patch:    `{"spec":{"containers":[{"name":"a","image":"2"}]}}`,
		k8sWant:  `{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"$patch":"delete","name":"a"}]}}`,
		oursWant: `{"spec":{"containers":[{"image":"2","name":"a"},{"$patch":"replace"}]}}`},
	{id: "duplicated-merge-keys", schema: &corev1.Pod{},
		original: `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":81},{"containerPort":444}]}]}}`,
		patch:    `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":444,"protocol":"UDP"},{"containerPort":81},{"containerPort":444},{"$patch":"replace"}]}]}}`,
		k8sWant:  `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":444,"protocol":"UDP"},{"containerPort":444},{"containerPort":81}]}]}}`,
		oursWant: `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":444,"protocol":"UDP"},{"containerPort":81},{"containerPort":444}]}]}}`},
	{id: "reordering-a-set", schema: &corev1.Pod{}, diff: true,
		original: `{"metadata":{"finalizers":["b","a"]}}`,
		patch:    `{"metadata":{"finalizers":["a","b"]}}`,
		k8sWant:  `{}`,
		oursWant: `{"metadata":{"$setElementOrder/finalizers":["a","b"]}}`},
	{id: "reordering-a-set", schema: &corev1.Pod{}, diff: true,
		original: `{"spec":{"volumes":[{"name":"c","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["b","a"]}}}}]}}`,
		patch:    `{"spec":{"volumes":[{"name":"c","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["b","a"]}}}}]}}`,
		k8sWant:  `{"spec":{"$setElementOrder/volumes":[{"name":"c"}],"volumes":[{"$retainKeys":["ephemeral","name"],"ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","a"]}}},"name":"c"}]}}`,
		oursWant: `{}`},
	{id: "a-pointer-to-a-struct-holding-a-list", schema: &pointerHolder{}, k8sSchema: &keyedPointerHolder{},
		original: `{"item":[{"name":"a","value":"1"}]}`,
		patch:    `{"item":[{"name":"a","value":"2"},{"name":"b"}]}`,
		k8sWant:  `{"item":[{"name":"a","value":"2"},{"name":"b"}]}`,
		oursWant: "error: expected an object"},
	{id: "replace-strategy-objects-in-two-way-patches", schema: &policyv1.PodDisruptionBudget{}, diff: true,
		original: `{"spec":{"selector":{"matchLabels":{"a":"1"}},"minAvailable":1}}`,
		patch:    `{"spec":{"selector":{"matchLabels":{"a":"1"}},"minAvailable":2}}`,
		k8sWant:  `{"spec":{"minAvailable":2,"selector":{"matchLabels":{"a":"1"}}}}`,
		oursWant: `{"spec":{"minAvailable":2}}`},
	// A replaced object that changed is written whole, as Kubernetes writes
	// it: a label it drops goes with the whole, not as a deletion.
	{id: "replace-strategy-objects-in-two-way-patches", schema: &policyv1.PodDisruptionBudget{}, diff: true,
		original: `{"spec":{"selector":{"matchLabels":{"a":"1","b":"2"}}}}`,
		patch:    `{"spec":{"selector":{"matchLabels":{"a":"1"}}}}`,
		k8sWant:  `{"spec":{"selector":{"matchLabels":{"a":"1"}}}}`,
		oursWant: `{"spec":{"selector":{"matchLabels":{"a":"1"}}}}`},
	{id: "merge-keys-left-out-by-omitempty", schema: &corev1.Pod{}, diff: true,
		original: `{"spec":{"imagePullSecrets":[{"name":"a"}]}}`,
		patch:    `{"spec":{"imagePullSecrets":[{"name":"a"},{}]}}`,
		k8sWant:  "error: does not contain declared merge key",
		oursWant: `{"spec":{"imagePullSecrets":[{"name":"a"},{},{"$patch":"replace"}]}}`},
	{id: "merge-keys-left-out-by-omitempty", schema: &corev1.Pod{},
		original: `{"spec":{"imagePullSecrets":[{"name":"a"}]}}`,
		patch:    `{"spec":{"imagePullSecrets":[{},{"$patch":"replace"}]}}`,
		k8sWant:  "error: does not contain declared merge key",
		oursWant: `{"spec":{"imagePullSecrets":[{}]}}`},
	{id: "a-recreated-element-keeps-its-place", schema: &corev1.Pod{},
		original: `{"spec":{"containers":[{"name":"y"},{"name":"x","image":"1"},{"name":"z"}]}}`,
		patch:    `{"spec":{"$setElementOrder/containers":[{"name":"y"},{"name":"x"}],"containers":[{"name":"x","image":"2"},{"$patch":"delete","name":"x"}]}}`,
		k8sWant:  `{"spec":{"containers":[{"name":"y"},{"name":"z"},{"name":"x","image":"2"}]}}`,
		oursWant: `{"spec":{"containers":[{"name":"y"},{"name":"x","image":"2"},{"name":"z"}]}}`},
	{id: "an-empty-setelementorder-keeps-the-patch-order", schema: &corev1.Pod{},
		original: `{"spec":{}}`,
		patch:    `{"spec":{"$setElementOrder/containers":[],"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}}`,
		k8sWant:  `{"spec":{"containers":[{"name":"c"},{"name":"b"},{"name":"a"}]}}`,
		oursWant: `{"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}}`},
}

// pointerHolder has a pointer-to-struct field holding a list in JSON;
// keyedPointerHolder adds the merge key Kubernetes then merges it by.
type pointerHolder struct {
	Item *namedValue `json:"item,omitempty" patchStrategy:"merge"`
}

type keyedPointerHolder struct {
	Item *namedValue `json:"item,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

// mapHolder is a map of structs, whose values merge by their own type.
type mapHolder struct {
	M map[string]namedValue `json:"m,omitempty"`
}

type namedValue struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

func TestCompatDifferences(t *testing.T) {
	doc, err := os.ReadFile("../docs/compat.md")
	require.NoError(t, err)
	for _, c := range compatCases {
		t.Run(c.id, func(t *testing.T) {
			require.Contains(t, string(doc), "\n### "+strings.ReplaceAll(c.id, "-", " "), "docs/compat.md has a section for it (case-insensitive headings are written in lower case)")
			var kout, oout []byte
			var kerr, oerr error
			ks := c.schema
			if c.k8sSchema != nil {
				ks = c.k8sSchema
			}
			if c.diff {
				kout, kerr = k8s.CreateTwoWayMergePatch([]byte(c.original), []byte(c.patch), ks)
				oout, oerr = smp.DiffJSON([]byte(c.original), []byte(c.patch), c.schema)
			} else {
				kout, kerr = k8s.StrategicMergePatch([]byte(c.original), []byte(c.patch), ks)
				oout, oerr = smp.ApplyJSON([]byte(c.original), []byte(c.patch), c.schema)
			}
			check(t, "Kubernetes", c.k8sWant, kout, kerr)
			check(t, "typedpatch", c.oursWant, oout, oerr)
		})
	}
}

func check(t *testing.T, who, want string, out []byte, err error) {
	t.Helper()
	if msg, ok := strings.CutPrefix(want, "error: "); ok {
		require.Error(t, err, "%s: %s", who, out)
		assert.Contains(t, err.Error(), msg, who)
		return
	}
	require.NoError(t, err, who)
	var w, g any
	for _, d := range []struct {
		data []byte
		v    *any
	}{{[]byte(want), &w}, {out, &g}} {
		dec := json.NewDecoder(bytes.NewReader(d.data))
		dec.UseNumber()
		require.NoError(t, dec.Decode(d.v))
	}
	assert.Equal(t, w, g, "%s: %s", who, out)
}
