package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/typedpatch/typedpatch/smp"
)

type rrSelector struct {
	Labels map[string]string `json:"labels,omitempty"`
}

type rrElem struct {
	Name string      `json:"name"`
	Sel  *rrSelector `json:"sel,omitempty" patchStrategy:"replace"`
}

type rrDoc struct {
	Sel   *rrSelector       `json:"sel,omitempty" patchStrategy:"replace"`
	Tags  []string          `json:"tags,omitempty" patchStrategy:"replace"`
	Elems []rrElem          `json:"elems,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Data  map[string]string `json:"data,omitempty"`
}

// WithRepeatedReplaceFields writes a replace-strategy object whenever both
// documents hold it, as Kubernetes does, through the JSON, map and typed
// differs, two-way and three-way; lists and other fields stay minimal, and
// without the option nothing unchanged is written.
func TestRepeatedReplaceFields(t *testing.T) {
	on := smp.WithRepeatedReplaceFields(true)
	doc := rrDoc{Sel: &rrSelector{Labels: map[string]string{"a": "1"}}, Tags: []string{"x"},
		Elems: []rrElem{{Name: "e", Sel: &rrSelector{Labels: map[string]string{"b": "2"}}}, {Name: "f"}}, Data: map[string]string{"k": "v"}}
	changed := doc
	changed.Data = map[string]string{"k": "w"}
	js := func(v any) []byte { b, _ := json.Marshal(v); return b }
	all := `{"$setElementOrder/elems":[{"name":"e"},{"name":"f"}],"elems":[{"name":"e","sel":{"labels":{"b":"2"}}}],"sel":{"labels":{"a":"1"}}}`
	withData := `{"$setElementOrder/elems":[{"name":"e"},{"name":"f"}],"data":{"k":"w"},"elems":[{"name":"e","sel":{"labels":{"b":"2"}}}],"sel":{"labels":{"a":"1"}}}`
	for _, c := range []struct {
		name       string
		got        func(...smp.Option) ([]byte, error)
		want, none string
	}{
		{"DiffJSON unchanged", func(o ...smp.Option) ([]byte, error) { return smp.DiffJSON(js(doc), js(doc), rrDoc{}, o...) }, all, `{}`},
		{"DiffJSON changed", func(o ...smp.Option) ([]byte, error) { return smp.DiffJSON(js(doc), js(changed), rrDoc{}, o...) }, withData, `{"data":{"k":"w"}}`},
		{"Diff typed", func(o ...smp.Option) ([]byte, error) {
			p, err := smp.Diff(doc, changed, o...)
			if err != nil {
				return nil, err
			}
			return p.MarshalJSON()
		}, withData, `{"data":{"k":"w"}}`},
		{"ThreeWayJSON", func(o ...smp.Option) ([]byte, error) {
			return smp.ThreeWayJSON(js(doc), js(doc), js(doc), rrDoc{}, o...)
		}, all, `{}`},
		{"ThreeWay typed", func(o ...smp.Option) ([]byte, error) {
			p, err := smp.ThreeWay(doc, changed, doc, o...)
			if err != nil {
				return nil, err
			}
			return p.MarshalJSON()
		}, withData, `{"data":{"k":"w"}}`},
	} {
		for _, opt := range []bool{true, false} {
			var opts []smp.Option
			want := c.none
			if opt {
				opts, want = []smp.Option{on}, c.want
			}
			got, err := c.got(opts...)
			if err != nil || !sameJSON(got, want) {
				t.Errorf("%s, option %v: %s %v, want %s", c.name, opt, got, err, want)
			}
		}
	}
}

func sameJSON(a []byte, b string) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
