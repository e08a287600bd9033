package property

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

func TestPatterns(t *testing.T) {
	root := (*gpath)(nil)
	p := root.field("spec").field("containers").at(1).field("name")
	assert.Equal(t, "spec.containers[1].name", p.String())
	assert.Equal(t, "metadata.labels[app]", root.field("metadata").field("labels").key("app").String())
	for pat, want := range map[string]bool{
		"spec.containers[1].name": true, "spec.containers[*].name": true, "spec.containers[0].name": false,
		"spec.containers.name": false, "spec.containers[*]": false, "spec": false,
	} {
		assert.Equal(t, want, mustPattern(pat).matches(p.segments()), pat)
	}
	for _, bad := range []string{"", ".a", "a..b", "a[1"} {
		_, err := parsePattern(bad)
		assert.Error(t, err, bad)
	}
}

// TestGeneratedDocuments checks the generator's promises on the fixtures.
func TestGeneratedDocuments(t *testing.T) {
	st, err := reflectschema.Of(reflect.TypeFor[exampletypes.Pod]())
	require.NoError(t, err)
	root := node{t: st}
	rapid.Check(t, func(t *rapid.T) {
		pod := Generate[exampletypes.Pod]().Draw(t, "pod")
		b, err := json.Marshal(pod)
		require.NoError(t, err)
		doc := mustDecode(b)
		for p, e := range indexDoc(doc, root) {
			switch {
			case e.kind == entKeyed:
				seen := map[string]bool{}
				for _, el := range e.v.([]any) {
					id := elementID(e.n.fullKey(), el)
					if seen[id] {
						t.Fatalf("%s: merge key repeated: %s", p, b)
					}
					seen[id] = true
					for _, k := range e.n.defaultKey() {
						if _, ok := el.(map[string]any)[k]; !ok {
							t.Fatalf("%s: element without its merge key %s: %s", p, k, b)
						}
					}
				}
			case e.kind == entObject && e.n.isUnion():
				members := 0
				for k, v := range e.v.(map[string]any) {
					if v != nil && k != "name" {
						members++
					}
				}
				if members > 1 {
					t.Fatalf("%s: union with %d members: %s", p, members, b)
				}
			case e.kind == entObject && e.n.kind() == reflectschema.Map:
				for k, v := range e.v.(map[string]any) {
					if v == nil || strings.HasPrefix(k, "$") {
						t.Fatalf("%s: map entry %q: %v", p, k, v)
					}
				}
			}
		}
	})
}

func TestOverrides(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := Generate[exampletypes.Deployment](
			Override("spec.replicas", rapid.Int32Range(7, 9)),
			Override("spec.template.spec.containers[*].image", rapid.Just("pinned")),
			OverrideType(rapid.Just(exampletypes.FromString("typed"))),
			Omit("status", "metadata"),
		).Draw(t, "deployment")
		if d.Spec.Replicas != nil && (*d.Spec.Replicas < 7 || *d.Spec.Replicas > 9) {
			t.Fatalf("replicas %d", *d.Spec.Replicas)
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			if c.Image != "pinned" {
				t.Fatalf("image %q", c.Image)
			}
		}
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil && ru.MaxSurge.StrVal != "typed" {
			t.Fatalf("maxSurge %v", ru.MaxSurge)
		}
		if !reflect.DeepEqual(d.Status, exampletypes.DeploymentStatus{}) || !reflect.DeepEqual(d.ObjectMeta, exampletypes.ObjectMeta{}) {
			t.Fatalf("omitted paths were drawn: %+v %+v", d.Status, d.ObjectMeta)
		}
	})
	assert.Panics(t, func() {
		Generate[exampletypes.Deployment](Override("spec.replicas", rapid.Just("five"))).Example(0)
	}, "a string does not fit *int32")
}

// TestMutateLeavesOriginal checks that Mutate copies.
func TestMutateLeavesOriginal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := Generate[exampletypes.Pod]().Draw(t, "original")
		before, _ := json.Marshal(o)
		Mutate(o).Draw(t, "modified")
		after, _ := json.Marshal(o)
		if string(before) != string(after) {
			t.Fatalf("Mutate changed its original:\n%s\n%s", before, after)
		}
	})
}

func TestAtomicPool(t *testing.T) {
	pool := atomicPool(reflect.TypeFor[exampletypes.Quantity]())
	require.NotEmpty(t, pool)
	assert.Equal(t, `"0"`, string(pool[0]), "the zero value comes first")
	for _, v := range pool {
		var q exampletypes.Quantity
		require.NoError(t, json.Unmarshal(v, &q), "%s", v)
	}
	assert.Empty(t, atomicPool(reflect.TypeFor[rejectsAll]()))
}

// rejectsAll is a self-marshalling type that accepts no JSON.
type rejectsAll struct{}

func (rejectsAll) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }
func (*rejectsAll) UnmarshalJSON([]byte) error  { return assert.AnError }

func TestStripAndContains(t *testing.T) {
	st, err := reflectschema.Of(reflect.TypeFor[exampletypes.SeedRecommended]())
	require.NoError(t, err)
	root := node{t: st}
	newPatch := mustDecode([]byte(`{"$setElementOrder/list":[{"$patchMergeKey":["foo","bar"],"foo":"a","bar":"x"}],
		"list":[{"$patchMergeKey":["foo","bar"],"foo":"a","bar":"x","other":1}]}`))
	legacy, _ := strip(newPatch, smp.DirectivesLegacy, root, nil)
	assert.Equal(t, mustDecode([]byte(`{"list":[{"foo":"a","bar":"x","other":1}]}`)), legacy)
	old := mustDecode([]byte(`{"list":[{"foo":"a","other":1}]}`))
	assert.Empty(t, contains(old, legacy, root, "", nil))
	assert.NotEmpty(t, contains(mustDecode([]byte(`{"list":[{"foo":"a","other":2}]}`)), legacy, root, "", nil))

	// Only order changed: nothing is left of the patch.
	orderOnly := mustDecode([]byte(`{"$setElementOrder/list":[{"$patchMergeKey":["foo","bar"],"foo":"b"},{"$patchMergeKey":["foo","bar"],"foo":"a"}]}`))
	out, _ := strip(orderOnly, smp.DirectivesLegacy, root, nil)
	assert.Nil(t, out)
}

// TestThreeWayModel pins the model's rules on small documents.
func TestThreeWayModel(t *testing.T) {
	st, err := reflectschema.Of(reflect.TypeFor[exampletypes.ConfigMap]())
	require.NoError(t, err)
	root := node{t: st}
	doc := func(s string) any { return mustDecode([]byte(s)) }
	o := doc(`{"data":{"a":"1","b":"2"},"metadata":{"name":"n","labels":{"x":"1"}}}`)
	m := doc(`{"data":{"a":"1","b":"3"},"metadata":{"name":"n"}}`)
	c := doc(`{"data":{"a":"9","b":"2","c":"4"},"metadata":{"name":"n","labels":{"x":"1","y":"2"}}}`)
	md := newThreeWayModel(o, m, c, root, false)
	want := func(p string) expectation { return md.want(p, nil) }
	assert.Equal(t, "3", want("data.b").v, "modified sets it")
	assert.Equal(t, "1", want("data.a").v, "modified sets it back")
	assert.Equal(t, "4", want("data.c").v, "current's")
	assert.False(t, want("metadata.labels.x").present, "removed")
	assert.Equal(t, "2", want("metadata.labels.y").v, "narrowed: current's entry of a map is kept")
	assert.Equal(t, []string{"data.a"}, md.overwritten())

	// A struct modified drops goes whole, with what current added.
	md = newThreeWayModel(o, doc(`{"data":{"a":"1","b":"3"}}`), c, root, false)
	assert.False(t, md.want("metadata.labels.y", nil).present, "deleted with its struct")
	assert.False(t, md.want("metadata.name", nil).present, "deleted with its struct")
}

// Inner and Outer check that edits never write through an embedded
// pointer shared with the original.
type Inner struct {
	A string   `json:"a,omitempty"`
	L []string `json:"l,omitempty" patchStrategy:"merge"`
}

type Outer struct {
	*Inner
	B string `json:"b,omitempty"`
}

func TestMutateEmbeddedPointer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := Generate[Outer]().Draw(t, "original")
		before, _ := json.Marshal(o)
		Mutate(o).Draw(t, "modified")
		after, _ := json.Marshal(o)
		if string(before) != string(after) {
			t.Fatalf("Mutate changed its original:\n%s\n%s", before, after)
		}
	})
}

// TestEmbeddedPointerProperties runs properties on a type with an
// embedded pointer (the engine's duplicate handling is the fixtures
// tests' business).
func TestEmbeddedPointerProperties(t *testing.T) {
	Check[Outer](t, Checks(200), Only(RoundTrip, ThreeWay, Order))
}

// quantity marshals itself, its zero value as "0", as Kubernetes'
// resource.Quantity does.
type quantity struct{ s string }

func (q quantity) MarshalJSON() ([]byte, error) {
	if q.s == "" {
		return []byte(`"0"`), nil
	}
	return json.Marshal(q.s)
}

func (q *quantity) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &q.s) }

// fieldRef has a struct field under omitempty, which encoding/json writes
// regardless, as a resource field selector's divisor.
type fieldRef struct {
	Name    string   `json:"name,omitempty"`
	Divisor quantity `json:"divisor,omitempty"`
}

type withRef struct {
	Ref *fieldRef `json:"ref,omitempty"`
}

// TestThreeWayModelTypedZero: modified keeps an object but drops a field
// of it, so the patch deletes that field; in a typed result a deleted
// struct field under omitempty is its zero, encoded. (An object that
// modified drops whole is deleted whole, what current added with it.)
func TestThreeWayModelTypedZero(t *testing.T) {
	st, err := reflectschema.Of(reflect.TypeFor[withRef]())
	require.NoError(t, err)
	o := withRef{Ref: &fieldRef{Divisor: quantity{"80"}}}
	m := withRef{Ref: &fieldRef{Name: "b"}}
	c := withRef{Ref: &fieldRef{Name: "a", Divisor: quantity{"80"}}}
	p, err := smp.ThreeWay(o, m, c, smp.WithOverwrite(true))
	require.NoError(t, err)
	r, err := smp.Apply(c, p)
	require.NoError(t, err)
	rb, err := json.Marshal(r)
	require.NoError(t, err)
	require.JSONEq(t, `{"ref":{"name":"b","divisor":"0"}}`, string(rb))
	doc := func(v any) any {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return mustDecode(b)
	}
	md := newThreeWayModel(doc(o), doc(m), doc(c), node{t: st}, false)
	assert.Empty(t, md.check(indexDoc(doc(r), node{t: st})))
}
