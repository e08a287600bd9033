package property

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// crdSchema reads a kind's schema from a document of openapischema's
// testdata.
func crdSchema(t testing.TB, file, apiVersion, kind string) *reflectschema.Type {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "openapischema", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := openapischema.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Lookup(apiVersion, kind)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return st
}

// The suite on CustomResourceDefinitions, with no Go type: an Argo
// Rollout (a pod template whose containers, env and volume mounts are
// list-type maps, ports keyed by containerPort and protocol, atomic lists
// and maps, int-or-string values, a preserve-unknown-fields subtree) and a
// cert-manager Certificate (sets of DNS names and usages, an atomic list,
// conditions keyed by type).
func TestSchemaRollout(t *testing.T) {
	CheckSchema(t, crdSchema(t, "rollout-crd.yaml", "argoproj.io/v1alpha1", "Rollout"))
}

func TestSchemaCertificate(t *testing.T) {
	CheckSchema(t, crdSchema(t, "certificate-crd.yaml", "cert-manager.io/v1", "Certificate"))
}

// TestSchemaHTTPRoute: a Gateway API HTTPRoute, whose parent refs,
// hostnames and rules are lists without a list type (replaced whole), a
// match's headers a list-type map keyed by name, and the status's
// conditions a list-type map keyed by type.
func TestSchemaHTTPRoute(t *testing.T) {
	CheckSchema(t, crdSchema(t, "httproute-crd.yaml", "gateway.networking.k8s.io/v1", "HTTPRoute"))
}

// TestModelObjectAndList pins the model's nil ≡ empty on untyped JSON: an
// empty object and an empty list are different values, so current
// changing a value to {} and modified to [] is a conflict (found by the
// Rollout suite at 10,000 cases, in its preserve-unknown-fields status).
func TestModelObjectAndList(t *testing.T) {
	root := node{t: crdSchema(t, "rollout-crd.yaml", "argoproj.io/v1alpha1", "Rollout")}
	doc := func(s string) any { return mustDecode([]byte(s)) }
	md := newThreeWayModel(doc(`{"status":{"b":""}}`), doc(`{"status":{"b":[]}}`), doc(`{"status":{"b":{}}}`), root, false)
	assert.Equal(t, []string{"status.b"}, md.overwritten())
	md = newThreeWayModel(doc(`{"status":{"b":""}}`), doc(`{"status":{"b":[]}}`), doc(`{"status":{}}`), root, false)
	assert.Empty(t, md.overwritten(), "[] where current deleted the value is no change (nil ≡ empty)")
	md = newThreeWayModel(doc(`{"status":{"b":[]}}`), doc(`{"status":{"b":[]}}`), doc(`{"status":{"b":{}}}`), root, false)
	assert.Empty(t, md.overwritten(), "current reshaping an empty collection changed nothing (nil ≡ empty)")
	// A value replacing an object: what current held below it goes.
	md = newThreeWayModel(doc(`{}`), doc(`{"status":{"a":""}}`), doc(`{"status":{"a":{"a":""}}}`), root, false)
	exp := md.want("status.a.a", nil)
	assert.False(t, exp.present, exp.rule)
	assert.Equal(t, []string{"status.a", "status.a.a"}, md.overwritten())
	assert.True(t, same(nil, []any{}))
	assert.True(t, same(map[string]any{}, nil))
	assert.False(t, same(map[string]any{}, []any{}))
}

// TestSupersetUnionDeletion: on a union (a Deployment's strategy, read
// from OpenAPI v2), the current three-way patch deletes the member
// $retainKeys clears whole; so does the older differ, the member being a
// struct (docs/compat.md). SkewSuperset finds the union deletion, and
// requires the current patch to include the older one.
func TestSupersetUnionDeletion(t *testing.T) {
	st := crdSchema(t, "openapi-v2.json", "apps/v1", "Deployment")
	root := node{t: st}
	o := []byte(`{"spec":{"strategy":{"rollingUpdate":{"maxUnavailable":1}}}}`)
	m := []byte(`{"spec":{"strategy":{"type":"Recreate"}}}`)
	c := []byte(`{"spec":{"strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":1}}}}`)
	pn, err := smp.ThreeWayJSON(o, m, c, st, smp.WithOverwrite(true))
	require.NoError(t, err)
	po, err := smp.ThreeWayJSON(o, m, c, st, smp.WithOverwrite(true), smp.WithDirectives(smp.DirectivesLegacy))
	require.NoError(t, err)
	stripped, _ := strip(mustDecode(pn), smp.DirectivesLegacy, root, nil)
	assert.Empty(t, contains(mustDecode(po), stripped, root, "", nil), "the current patch includes the older one")
	// The member is a struct, which both delete whole: stripped of its
	// directives, the current patch is the older one, with no exception.
	assert.Empty(t, contains(stripped, mustDecode(po), root, "", nil), "the patches differ: %s %s", pn, po)
	skip := map[string]bool{}
	unionDeletions(mustDecode(pn), root, "", skip)
	assert.Equal(t, map[string]bool{"spec.strategy.rollingUpdate": true}, skip)
}

// TestSupersetRetainKeysOrder: current added a union member to a volume
// the configuration left alone, so the current three-way patch clears it
// with $retainKeys, an element with nothing else, and orders the list;
// the older differ, without $retainKeys, writes nothing. SkewSuperset
// takes the order as the only extra.
func TestSupersetRetainKeysOrder(t *testing.T) {
	st, err := builtin.Lookup("v1", "Pod")
	require.NoError(t, err)
	root := node{t: st}
	o := []byte(`{"spec":{"volumes":[{"name":"c","secret":{"secretName":"c"}}]}}`)
	c := []byte(`{"spec":{"volumes":[{"name":"c","hostPath":{"path":"a"},"secret":{"secretName":"c"}}]}}`)
	d := smp.DirectivesSetElementOrder
	pn, err := smp.ThreeWayJSON(o, o, c, st, smp.WithOverwrite(true))
	require.NoError(t, err)
	require.JSONEq(t, `{"spec":{"$setElementOrder/volumes":[{"name":"c"}],"volumes":[{"$retainKeys":["name","secret"],"name":"c"}]}}`, string(pn))
	po, err := smp.ThreeWayJSON(o, o, c, st, smp.WithOverwrite(true), smp.WithDirectives(d))
	require.NoError(t, err)
	require.JSONEq(t, `{}`, string(po))
	stripped, _ := strip(mustDecode(pn), d, root, nil)
	assert.Empty(t, contains(mustDecode(po), stripped, root, "", nil), "the current patch includes the older one")
	require.Equal(t, []string{`spec.$setElementOrder/volumes: absent, want [{"name":"c"}]`},
		contains(stripped, mustDecode(po), root, "", nil))
	skip := map[string]bool{}
	retainKeysOrders(mustDecode(pn), d, root, "", skip)
	assert.Equal(t, map[string]bool{"spec.$setElementOrder/volumes": true}, skip)
	assert.Empty(t, contains(stripped, mustDecode(po), root, "", skip))

	// An element that changes more than its union keeps what it changes.
	m := []byte(`{"spec":{"volumes":[{"name":"c","secret":{"secretName":"d"}}]}}`)
	pn, err = smp.ThreeWayJSON(o, m, c, st, smp.WithOverwrite(true))
	require.NoError(t, err)
	skip = map[string]bool{}
	retainKeysOrders(mustDecode(pn), d, root, "", skip)
	assert.Empty(t, skip, "%s", pn)
}

// TestModelNullConflicts pins the model's conflicts where a document holds
// null, as a Go pointer or slice without omitempty renders (an eviction
// responder's priority, a CephFS volume's monitors), and on a replace
// object (a PodDisruptionBudget's selector), each beside the engine's
// conflict paths. Kubernetes' own are bench/'s business.
func TestModelNullConflicts(t *testing.T) {
	pod, err := builtin.Lookup("v1", "Pod")
	require.NoError(t, err)
	pdb, err := builtin.Lookup("policy/v1", "PodDisruptionBudget")
	require.NoError(t, err)
	for _, c := range []struct {
		name    string
		schema  *reflectschema.Type
		o, m, c string
		want    []string
	}{
		{"an element current added holds null where modified sets a value", pod,
			`{"spec":{"evictionResponders":[{"name":"b","priority":null}]}}`,
			`{"spec":{"evictionResponders":[{"name":"a","priority":1}]}}`,
			`{"spec":{"evictionResponders":[{"name":"a","priority":null}]}}`,
			[]string{"spec.evictionResponders[name=a].priority"}},
		{"an object current added holds null where modified sets an empty list", pod,
			`{"spec":{"volumes":[{"name":"c"}]}}`,
			`{"spec":{"volumes":[{"name":"c","cephfs":{"monitors":[],"path":"a"}}]}}`,
			`{"spec":{"volumes":[{"name":"c","cephfs":{"monitors":null,"path":"a"}}]}}`,
			[]string{"spec.volumes[name=c].cephfs.monitors"}},
		{"a field null in current and absent in original", pod,
			`{"spec":{"hostname":"x"}}`, `{"spec":{"hostname":"x","priority":1}}`, `{"spec":{"hostname":"x","priority":null}}`,
			[]string{"spec.priority"}},
		{"a field null in original and absent in current", pod,
			`{"spec":{"hostname":"x","priority":null}}`, `{"spec":{"hostname":"x","priority":1}}`, `{"spec":{"hostname":"x"}}`,
			[]string{"spec.priority"}},
		{"an object of nulls only is empty (nil ≡ empty)", pod,
			`{"spec":{}}`, `{"spec":{"priority":1}}`, `{"spec":{"priority":null}}`, nil},
		{"the same null in both", pod,
			`{"spec":{"evictionResponders":[{"name":"a","priority":null}]}}`,
			`{"spec":{"evictionResponders":[{"name":"a","priority":1}]}}`,
			`{"spec":{"evictionResponders":[{"name":"a","priority":null}]}}`, nil},
		{"a replace object never conflicts", pdb,
			`{"spec":{}}`,
			`{"spec":{"selector":{"matchLabels":{"a":"y"}}}}`,
			`{"spec":{"selector":{"matchLabels":{"a":"x"}}}}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			md := newThreeWayModel(mustDecode([]byte(c.o)), mustDecode([]byte(c.m)), mustDecode([]byte(c.c)), node{t: c.schema}, false)
			assert.Equal(t, c.want, md.overwritten(), "the model")
			_, err := smp.ThreeWayJSON([]byte(c.o), []byte(c.m), []byte(c.c), c.schema)
			var got []string
			if se := (*smp.Error)(nil); errors.As(err, &se) && smp.IsConflict(err) {
				for _, p := range se.Conflicts {
					got = append(got, p.String())
				}
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, c.want, got, "the engine")
		})
	}
}
