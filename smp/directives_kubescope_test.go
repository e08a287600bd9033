package smp_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/typedpatch/typedpatch/smp"
)

type ksUnion struct {
	Mode  string `json:"mode,omitempty"`
	Size  int    `json:"size,omitempty"`
	Extra string `json:"extra,omitempty"`
}

type ksDoc struct {
	Args  []string          `json:"args,omitempty"`
	Hosts []string          `json:"hosts,omitempty" patchStrategy:"merge"`
	Items []ksUnion         `json:"items,omitempty"`
	Spec  *ksUnion          `json:"spec,omitempty"`
	Env   []ksElem          `json:"env,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Tags  map[string]string `json:"tags,omitempty"`
}

type ksElem struct {
	Name string   `json:"name"`
	Args []string `json:"args,omitempty"`
}

// WithKubernetesDirectiveScope takes $retainKeys on any object and
// $setElementOrder on any list of scalars, as Kubernetes does; without it
// both are DirectiveNotAllowed; $deleteFromPrimitiveList on a list that
// does not merge and $setElementOrder on a list of objects that does not
// merge stay refused. Checked through ApplyJSON, ApplyMap and Apply.
func TestKubernetesDirectiveScope(t *testing.T) {
	for _, c := range []struct {
		name, doc, patch, want string // want "" means refused either way
	}{
		{"order a replaced list", `{"args":["a","b","c"]}`, `{"$setElementOrder/args":["c","a"]}`, `{"args":["b","c","a"]}`},
		{"order with the list", `{"args":["a","b"]}`, `{"$setElementOrder/args":["c","x","a"],"args":["c","a"]}`, `{"args":["c","a"]}`},
		{"order in an element", `{"env":[{"name":"e","args":["p","q"]}]}`, `{"env":[{"name":"e","$setElementOrder/args":["q","p"]}]}`, `{"env":[{"name":"e","args":["q","p"]}]}`},
		{"retain keys of a struct", `{"spec":{"mode":"m","size":3,"extra":"x"}}`, `{"spec":{"$retainKeys":["mode","size"],"size":4}}`, `{"spec":{"mode":"m","size":4}}`},
		{"retain keys of the root", `{"args":["a"],"tags":{"k":"v"}}`, `{"$retainKeys":["tags"]}`, `{"tags":{"k":"v"}}`},
		{"delete from a replaced list", `{"args":["a","b"]}`, `{"$deleteFromPrimitiveList/args":["a"]}`, ""},
		{"order a list of objects", `{"items":[{"mode":"a"},{"mode":"b"}]}`, `{"$setElementOrder/items":[{"mode":"b"}]}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			on := smp.WithKubernetesDirectiveScope(true)
			_, err := smp.ApplyJSON([]byte(c.doc), []byte(c.patch), ksDoc{})
			var e *smp.Error
			if !errors.As(err, &e) || e.Kind != smp.ErrDirectiveNotAllowed {
				t.Errorf("without the option: %v, want DirectiveNotAllowed", err)
			}
			got, err := smp.ApplyJSON([]byte(c.doc), []byte(c.patch), ksDoc{}, on)
			if c.want == "" {
				if !errors.As(err, &e) || e.Kind != smp.ErrDirectiveNotAllowed {
					t.Errorf("ApplyJSON: %s %v, want DirectiveNotAllowed", got, err)
				}
				return
			}
			if err != nil || !sameJSON(got, c.want) {
				t.Errorf("ApplyJSON: %s %v, want %s", got, err, c.want)
			}
			var doc, patch map[string]any
			_ = json.Unmarshal([]byte(c.doc), &doc)
			_ = json.Unmarshal([]byte(c.patch), &patch)
			m, err := smp.ApplyMap(doc, patch, ksDoc{}, on)
			mj, _ := json.Marshal(m)
			if err != nil || !sameJSON(mj, c.want) {
				t.Errorf("ApplyMap: %s %v, want %s", mj, err, c.want)
			}
			var cur ksDoc
			_ = json.Unmarshal([]byte(c.doc), &cur)
			var p smp.Patch
			if err := json.Unmarshal([]byte(c.patch), &p); err != nil {
				t.Fatal(err)
			}
			typed, err := smp.Apply(cur, p, on)
			tj, _ := json.Marshal(typed)
			if err != nil || !sameJSON(tj, c.want) {
				t.Errorf("Apply: %s %v, want %s", tj, err, c.want)
			}
		})
	}
}
