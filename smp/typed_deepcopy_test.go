package smp_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/typedpatch/typedpatch/smp"
)

// dcDoc has a DeepCopyInto, as Kubernetes' types do; plainDoc is the same
// struct without it.
type dcDoc struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
	Items  []dcItem          `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Tags   []string          `json:"tags"`
	Ptr    *dcItem           `json:"ptr,omitempty"`
}

type plainDoc dcDoc

type dcItem struct {
	Name  string            `json:"name"`
	Value string            `json:"value,omitempty"`
	Env   map[string]string `json:"env,omitempty"`
}

func (in *dcDoc) DeepCopyInto(out *dcDoc) {
	*out = *in
	if in.Labels != nil {
		out.Labels = make(map[string]string, len(in.Labels))
		for k, v := range in.Labels {
			out.Labels[k] = v
		}
	}
	if in.Items != nil {
		out.Items = make([]dcItem, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
	if in.Tags != nil {
		out.Tags = append(make([]string, 0, len(in.Tags)), in.Tags...)
	}
	if in.Ptr != nil {
		out.Ptr = new(dcItem)
		in.Ptr.DeepCopyInto(out.Ptr)
	}
}

func (in *dcItem) DeepCopyInto(out *dcItem) {
	*out = *in
	if in.Env != nil {
		out.Env = make(map[string]string, len(in.Env))
		for k, v := range in.Env {
			out.Env[k] = v
		}
	}
}

// TestApplyWithDeepCopyInto: Apply of a type with DeepCopyInto, which
// copies through it, gives what Apply gives for the same struct without
// one (copied through JSON's rules): strings that are not UTF-8, empty
// slices and maps under omitempty, merges by key and orders included;
// the result shares nothing with the value or the patch.
func TestApplyWithDeepCopyInto(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	patches := []string{
		`{}`,
		`{"name":"new"}`,
		`{"labels":{"app":null,"tier":"x"}}`,
		`{"items":[{"name":"a","value":"v2"}]}`,
		`{"items":[{"name":"z","env":{"K":"V"}}]}`,
		`{"$setElementOrder/items":[{"name":"b"},{"name":"a"}],"items":[{"name":"a","value":"w"}]}`,
		`{"items":[{"$patch":"delete","name":"b"}]}`,
		`{"ptr":{"value":"p"}}`,
		`{"ptr":null,"tags":["t"]}`,
		`{"items":[{"name":"a","env":{"\u00e9":"x"}}]}`,
	}
	var merged int
	for range 3000 {
		cur := randDCDoc(r)
		before := new(dcDoc)
		cur.DeepCopyInto(before)
		p := typedMustParse(t, patches[r.IntN(len(patches))])
		text := p.String()
		got, err := smp.Apply(cur, p)
		want, werr := smp.Apply(plainDoc(*cur), p)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%+v with %s: error %v, without DeepCopyInto %v", cur, text, err, werr)
		}
		if err != nil {
			continue
		}
		merged++
		if !reflect.DeepEqual(plainDoc(*got), want) {
			t.Fatalf("%+v with %s:\n%+v\nwithout DeepCopyInto\n%+v", cur, text, got, want)
		}
		scribble(got)
		if !reflect.DeepEqual(cur, before) {
			t.Fatalf("changing the result changed the value: %+v, was %+v", cur, before)
		}
		if p.String() != text {
			t.Fatalf("the patch changed: %s, was %s", p.String(), text)
		}
	}
	if merged < 2000 {
		t.Fatalf("only %d applies succeeded", merged)
	}
}

// scribble changes every string, map and slice element d reaches.
func scribble(d *dcDoc) {
	d.Name += "!"
	for k := range d.Labels {
		d.Labels[k] = "changed"
	}
	for i := range d.Tags {
		d.Tags[i] = "changed"
	}
	if d.Ptr != nil {
		d.Ptr.Value = "changed"
		for k := range d.Ptr.Env {
			d.Ptr.Env[k] = "changed"
		}
	}
	for i := range d.Items {
		d.Items[i].Value = "changed"
		for k := range d.Items[i].Env {
			d.Items[i].Env[k] = "changed"
		}
	}
}

func randDCDoc(r *rand.Rand) *dcDoc {
	str := func() string { return []string{"", "a", "b", "caf\xe9", "\xff", "web"}[r.IntN(6)] }
	smap := func() map[string]string {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return map[string]string{}
		}
		return map[string]string{"app": str(), str(): "v"}
	}
	d := &dcDoc{Name: str(), Labels: smap()}
	switch r.IntN(3) {
	case 1:
		d.Tags = []string{}
	case 2:
		d.Tags = []string{str(), str()}
	}
	switch r.IntN(3) {
	case 1:
		d.Items = []dcItem{}
	case 2:
		for _, name := range []string{"a", "b", "c"}[:1+r.IntN(3)] {
			d.Items = append(d.Items, dcItem{Name: name, Value: str(), Env: smap()})
		}
	}
	if r.IntN(2) == 0 {
		d.Ptr = &dcItem{Name: str(), Value: str(), Env: smap()}
	}
	return d
}
