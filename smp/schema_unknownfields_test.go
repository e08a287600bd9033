package smp_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/smp"
)

// requireUnknown asserts err is ErrUnknownField at path, or nil for "".
func requireUnknown(t *testing.T, what string, err error, path string) {
	t.Helper()
	if path == "" {
		assert.NoError(t, err, what)
		return
	}
	var se *smp.Error
	if assert.ErrorAs(t, err, &se, what) {
		assert.Equal(t, smp.ErrUnknownField, se.Kind, "%s: %v", what, err)
		assert.Equal(t, path, se.Path.String(), what)
	}
}

// TestUnknownFieldChanges: objects or lists that differ under a field the
// schema does not declare fail the differ, two-way and three-way, at the
// first such field; adding, removing or keeping one whole does not.
func TestUnknownFieldChanges(t *testing.T) {
	deploy, err := builtin.Lookup("apps/v1", "Deployment")
	require.NoError(t, err)
	for _, tc := range []struct{ a, b, path string }{
		{`{"x":1}`, `{"x":2}`, ""},                  // a scalar is replaced whole either way
		{`{}`, `{"x":{"y":[1]}}`, ""},               // added whole
		{`{"x":{"y":[1]}}`, `{}`, ""},               // removed whole
		{`{"x":{"y":[1]}}`, `{"x":{"y":[1]}}`, ""},  // unchanged
		{`{"x":{"y":[1]}}`, `{"x":[1]}`, ""},        // an object becoming a list is replaced
		{`{"x":{"y":[1]}}`, `{"x":{"y":[2]}}`, "x"}, // changed under it
		{`{"spec":{"extra":[1,2]}}`, `{"spec":{"extra":[1]}}`, "spec.extra"},
		{`{"metadata":{"labels":{"a":"b"}}}`, `{"metadata":{"labels":{"a":"c"}}}`, ""}, // a known map
		{`{"spec":{"template":{"spec":{"containers":[{"name":"web","futureList":[1,2]}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"web","futureList":[1]}]}}}}`,
			"spec.template.spec.containers[name=web].futureList"},
		// different elements of a merge list are not compared
		{`{"spec":{"template":{"spec":{"containers":[{"name":"a","f":[1]}]}}}}`, `{"spec":{"template":{"spec":{"containers":[{"name":"b","f":[2]}]}}}}`, ""},
		// an atomic list is replaced whole: nothing under it merges
		{`{"spec":{"template":{"spec":{"containers":[{"name":"a","command":["x"]}]}}}}`, `{"spec":{"template":{"spec":{"containers":[{"name":"a","command":["y"]}]}}}}`, ""},
	} {
		_, err := smp.DiffJSON([]byte(tc.a), []byte(tc.b), deploy)
		requireUnknown(t, "DiffJSON "+tc.a+" → "+tc.b, err, tc.path)
		_, err = smp.ThreeWayJSON([]byte(tc.a), []byte(tc.b), []byte(tc.a), deploy)
		requireUnknown(t, "ThreeWayJSON, current = original "+tc.a+" → "+tc.b, err, tc.path)
		_, err = smp.ThreeWayJSON([]byte(`{}`), []byte(tc.b), []byte(tc.a), deploy, smp.WithOverwrite(true))
		requireUnknown(t, "ThreeWayJSON, current "+tc.a+" → modified "+tc.b, err, tc.path)
		patch, err := smp.DiffJSON([]byte(tc.a), []byte(tc.b), deploy, smp.WithMergeUnknown(true))
		require.NoError(t, err)
		got, err := smp.ApplyJSON([]byte(tc.a), patch, deploy, smp.WithMergeUnknown(true))
		require.NoError(t, err)
		assert.JSONEq(t, tc.b, string(got), "WithMergeUnknown(true): the patch turns original into modified")
	}
}

// TestUnknownFieldApply: the case, a Deployment patched with the
// Service type as its data struct, fails instead of replacing the
// containers list; a patch that adds, removes, replaces or deletes an
// undeclared field whole applies.
func TestUnknownFieldApply(t *testing.T) {
	doc := `{"spec":{"template":{"spec":{"containers":[{"name":"a","env":[{"name":"X","value":"1"}]},{"name":"b"}]}}}}`
	patch := `{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"i"}]}}}}`
	_, err := smp.ApplyJSON([]byte(doc), []byte(patch), exampletypes.Service{})
	requireUnknown(t, "a Deployment patched as a Service", err, "spec.template")
	_, err = smp.ApplyMap(decodeMap([]byte(doc)), decodeMap([]byte(patch)), exampletypes.Service{})
	requireUnknown(t, "ApplyMap", err, "spec.template")
	got, err := smp.ApplyJSON([]byte(doc), []byte(patch), exampletypes.Service{}, smp.WithMergeUnknown(true))
	require.NoError(t, err)
	assert.JSONEq(t, patch, string(got), "merged as plain JSON, the list is replaced: what the option opts into")
	got, err = smp.ApplyJSON([]byte(doc), []byte(patch), exampletypes.Deployment{})
	require.NoError(t, err)
	assert.Contains(t, string(got), `"env"`, "with the right type the containers merge by name")

	for _, tc := range []struct{ doc, patch, want, path string }{
		{`{"spec":{}}`, `{"spec":{"extra":{"a":[1]}}}`, `{"spec":{"extra":{"a":[1]}}}`, ""},
		{`{"spec":{"extra":{"a":[1]}}}`, `{"spec":{"extra":null}}`, `{"spec":{}}`, ""},
		{`{"spec":{"extra":{"a":[1]}}}`, `{"spec":{"extra":{"$patch":"replace","b":2}}}`, `{"spec":{"extra":{"b":2}}}`, ""},
		{`{"spec":{"extra":{"a":[1]}}}`, `{"spec":{"extra":{"$patch":"delete"}}}`, `{"spec":{}}`, ""},
		{`{"spec":{"extra":{"a":[1]}}}`, `{"spec":{"extra":7}}`, `{"spec":{"extra":7}}`, ""},
		{`{"spec":{"extra":[1]}}`, `{"spec":{"extra":{"a":1}}}`, `{"spec":{"extra":{"a":1}}}`, ""},
		{`{"spec":{"extra":{"a":[1]}}}`, `{"spec":{"extra":{"b":2}}}`, "", "spec.extra"},
		{`{"spec":{"extra":[1]}}`, `{"spec":{"extra":[2]}}`, "", "spec.extra"},
		{`{"spec":{"containers":[{"name":"c","more":{"a":1}}]}}`, `{"spec":{"containers":[{"name":"c","more":{"a":2}}]}}`, "", "spec.containers[name=c].more"},
	} {
		got, err := smp.ApplyJSON([]byte(tc.doc), []byte(tc.patch), exampletypes.Pod{})
		requireUnknown(t, "ApplyJSON "+tc.patch+" on "+tc.doc, err, tc.path)
		if tc.path == "" && err == nil {
			assert.JSONEq(t, tc.want, string(got), tc.patch)
		}
	}
}

// TestUnknownFieldPreserved: a CRD object marked
// x-kubernetes-preserve-unknown-fields, and ObjectMeta's undeclared
// fields, take changes under any field.
func TestUnknownFieldPreserved(t *testing.T) {
	data, err := os.ReadFile("../openapischema/testdata/rollout-crd.yaml")
	require.NoError(t, err)
	sc, err := openapischema.Read(data)
	require.NoError(t, err)
	rollout, err := sc.Lookup("argoproj.io/v1alpha1", "Rollout")
	require.NoError(t, err)
	for _, tc := range [][2]string{
		{`{"spec":{"strategy":{"canary":{"trafficRouting":{"plugins":{"p":{"x":[1]}}}}}}}`, `{"spec":{"strategy":{"canary":{"trafficRouting":{"plugins":{"p":{"x":[2]}}}}}}}`},
		{`{"metadata":{"managedFields":[{"manager":"a"}]}}`, `{"metadata":{"managedFields":[{"manager":"b"}]}}`},
		{`{"status":{"x":{"y":1}}}`, `{"status":{"x":{"y":2}}}`},
	} {
		patch, err := smp.DiffJSON([]byte(tc[0]), []byte(tc[1]), rollout)
		require.NoError(t, err, tc[1])
		got, err := smp.ApplyJSON([]byte(tc[0]), patch, rollout)
		require.NoError(t, err, tc[1])
		assert.JSONEq(t, tc[1], string(got))
	}
	_, err = smp.DiffJSON([]byte(`{"spec":{"nope":{"x":[1]}}}`), []byte(`{"spec":{"nope":{"x":[2]}}}`), rollout)
	requireUnknown(t, "an undeclared field of the Rollout's spec", err, "spec.nope")
}
