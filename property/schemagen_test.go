package property

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// TestSchemaDocuments checks the JSON generator's promises on the
// Rollout CRD: every document (original, modified, current) is one the
// JSON API accepts with the schema, merge lists carry their keys once,
// map values are never null; and the draws reach what the CRD suites are
// for: two ports of one number with other protocols, a container's env
// and volume mounts, an atomic list, and the preserve-unknown-fields
// subtrees.
func TestSchemaDocuments(t *testing.T) {
	st := crdSchema(t, "rollout-crd.yaml", "argoproj.io/v1alpha1", "Rollout")
	s, err := newSchemaSuite(newConfig(nil), st)
	require.NoError(t, err)
	reached := map[string]int{}
	runChecks(t, 1000, func(rt *rapid.T) {
		tr := s.drawJSON(rt, s.unique, true)
		for _, d := range []doc{tr.o, tr.m, tr.c} {
			if _, err := smp.ApplyJSON(d.b, []byte("{}"), st); err != nil {
				rt.Fatalf("the JSON API rejects %s: %v", d.b, err)
			}
			checkDocument(rt, mustDecode(d.b), s.root, reached)
		}
	})
	for _, want := range []string{
		"spec.template.spec.containers[].ports: a port number twice",
		"spec.template.spec.containers[].env", "spec.template.spec.containers[].volumeMounts",
		"spec.template.spec.tolerations", "status", "spec.strategy.canary.trafficRouting.plugins",
	} {
		assert.Positive(t, reached[want], "no document reaches %s", want)
		t.Logf("%5d documents reach %s", reached[want], want)
	}
}

// checkDocument fails t where a document breaks the generator's promises,
// and counts in reached the non-empty lists and objects it holds.
func checkDocument(t *rapid.T, doc any, root node, reached map[string]int) {
	for p, e := range indexDoc(doc, root) {
		shape := shapeOf(p)
		switch e.kind {
		case entKeyed:
			seen, ports := map[string]bool{}, map[string]bool{}
			for _, el := range e.v.([]any) {
				id := elementID(e.n.fullKey(), el)
				if seen[id] {
					t.Fatalf("%s: merge key repeated: %v", p, e.v)
				}
				seen[id] = true
				for _, k := range e.n.defaultKey() {
					if _, ok := el.(map[string]any)[k]; !ok {
						t.Fatalf("%s: an element lacks its merge key %s: %v", p, k, e.v)
					}
				}
				if port := scalarText(el.(map[string]any)["containerPort"]); ports[port] && shape == "spec.template.spec.containers[].ports" {
					reached[shape+": a port number twice"]++
				} else {
					ports[port] = true
				}
			}
		case entObject:
			if e.n.kind() == reflectschema.Map {
				for k, v := range e.v.(map[string]any) {
					if v == nil || strings.HasPrefix(k, "$") {
						t.Fatalf("%s: map entry %q: %v", p, k, v)
					}
				}
			}
		}
		if !isEmpty(e.v) {
			reached[shape]++
		}
	}
}

// shapeOf is a path without its keys and map keys below untyped values:
// spec.template.spec.containers[].ports.
func shapeOf(p string) string {
	var b strings.Builder
	depth := 0
	for _, r := range p {
		switch {
		case r == '[':
			if depth == 0 {
				b.WriteString("[]")
			}
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSchemaMutateCopies checks that the edits leave the value they edit.
func TestSchemaMutateCopies(t *testing.T) {
	st := crdSchema(t, "certificate-crd.yaml", "cert-manager.io/v1", "Certificate")
	g := newGenerator(newConfig(nil), st, false, "")
	rapid.Check(t, func(rt *rapid.T) {
		o := g.jvalue(rt, site{n: node{t: st}})
		before, _ := json.Marshal(o)
		g.withRole("modified: ").jmutate(rt, site{n: node{t: st}}, o)
		after, _ := json.Marshal(o)
		if string(before) != string(after) {
			rt.Fatalf("the edits changed their original:\n%s\n%s", before, after)
		}
	})
}

// TestGenerateJSONOptions checks Override and Omit on a schema.
func TestGenerateJSONOptions(t *testing.T) {
	st := crdSchema(t, "rollout-crd.yaml", "argoproj.io/v1alpha1", "Rollout")
	gen := GenerateJSON(st,
		Override("spec.replicas", rapid.Int32Range(7, 9)),
		Override("spec.template.spec.containers[*].image", rapid.Just("pinned")),
		Omit("status", "metadata"))
	replicas := 0
	rapid.Check(t, func(rt *rapid.T) {
		var r struct {
			Metadata, Status any
			Spec             struct {
				Replicas *int
				Template struct {
					Spec struct {
						Containers []struct{ Image *string }
					}
				}
			}
		}
		b := gen.Draw(rt, "rollout")
		require.NoError(rt, json.Unmarshal(b, &r))
		if r.Metadata != nil || r.Status != nil {
			rt.Fatalf("omitted paths were drawn: %s", b)
		}
		if r.Spec.Replicas != nil {
			replicas++
			if *r.Spec.Replicas < 7 || *r.Spec.Replicas > 9 {
				rt.Fatalf("replicas %d", *r.Spec.Replicas)
			}
		}
		for _, c := range r.Spec.Template.Spec.Containers {
			if c.Image != nil && *c.Image != "pinned" {
				rt.Fatalf("image %q", *c.Image)
			}
		}
	})
	assert.Positive(t, replicas, "spec.replicas is never drawn")
}

// TestSchemaRejected checks that the suite refuses schemas it cannot run
// on, with an error rather than a panic.
func TestSchemaRejected(t *testing.T) {
	_, err := SchemaProperties(nil)
	assert.ErrorContains(t, err, "nil")
	_, err = SchemaProperties(&reflectschema.Type{Kind: reflectschema.List, Elem: &reflectschema.Type{Kind: reflectschema.Scalar}})
	assert.ErrorContains(t, err, "not an object with fields")
	_, err = SchemaProperties(&reflectschema.Type{Kind: reflectschema.Map})
	assert.Error(t, err, "a map without an element type")
	assert.Panics(t, func() { GenerateJSON(&reflectschema.Type{Kind: reflectschema.Scalar}) })
	ps, err := SchemaProperties(crdSchema(t, "certificate-crd.yaml", "cert-manager.io/v1", "Certificate"), Only(RoundTrip, Order))
	require.NoError(t, err)
	assert.Equal(t, []string{RoundTrip, Order}, []string{ps[0].Name, ps[1].Name})
}
