package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// TestPlannedIdentity checks the rule a list plan predicts an element's
// identity by (listPlan.mergedField) against the identity of the element
// mergeObject actually makes, over random live elements (maps, raw
// objects, scalars, null) and sequences of patch elements that set key
// fields to scalars, numbers in other spellings, null, objects (one
// deleting itself) and lists, with and without $retainKeys, merged into
// the element or into nothing.
func TestPlannedIdentity(t *testing.T) {
	// An element the schema says nothing about: its fields take any
	// value, objects and lists merging as plain JSON.
	es := slot{}
	a := &Applier{Cfg: &Config{Directives: format.DirectivesAll, Limits: jsonval.DefaultLimits().Bounded(), KubeDirectiveScope: true}}
	values := []any{"a", "b", json.Number("80"), json.Number("8e1"), json.Number("81"), true, nil,
		map[string]any{"k": "v"}, map[string]any{format.KeyPatch: format.PatchDelete}, []any{"l"}}
	fields := []string{"name", "port", "x"}
	sets := []format.KeySet{{Fields: []string{"name"}}, {Fields: []string{"name", "port"}, Directive: true}, {Fields: []string{"port"}, Directive: true}}
	r := rand.New(rand.NewPCG(1, 2))
	elem := func(directives bool) map[string]any {
		m := map[string]any{}
		for _, f := range fields {
			if r.IntN(3) > 0 {
				m[f] = values[r.IntN(len(values))]
			}
		}
		if directives && r.IntN(4) == 0 {
			var keep []any
			for _, f := range fields {
				if r.IntN(2) == 0 {
					keep = append(keep, f)
				}
			}
			m[format.KeyRetainKeys] = keep
		}
		return m
	}
	checked := 0
	for i := range 20000 {
		var live any
		switch r.IntN(5) {
		case 0:
			live = "not an object"
		case 1:
			live = nil
		case 2:
			b, _ := json.Marshal(elem(false))
			live = jsonval.Raw(b)
		default:
			live = elem(false)
		}
		m := ListPlan{Applier: a, Items: jsonItems{live}, LiveLen: 1, Elems: make([]PatchElem, 3)}
		cur := live
		ok := true
		for j := range 1 + r.IntN(3) {
			pe := &m.Elems[j]
			pe.Body = elem(true)
			fresh := r.IntN(4) == 0
			om := asMap(cur)
			if fresh {
				om = nil
			}
			v, _, err := a.MergeObject(om, pe.Body, es, false, nil)
			if err != nil {
				ok = false // not a patch the applier takes
				break
			}
			m.Plan(0, pe, fresh)
			cur = v
		}
		if !ok {
			continue
		}
		checked++
		for _, ks := range sets {
			if got, want := m.KeyID(0, ks), format.IDOf(ks, cur); got != want {
				t.Fatalf("case %d, key %v: planned identity %q, merged %q\nlive %v\nsteps %v\nmerged %v",
					i, ks.Fields, got, want, show(live), describeSteps(&m), cur)
			}
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d of 20000 cases were patches the applier takes", checked)
	}
}

func asMap(v any) map[string]any {
	if r, ok := v.(jsonval.Raw); ok {
		v = jsonval.Expand(r)
	}
	m, _ := v.(map[string]any)
	return m
}

// show prints a raw value as its text.
func show(v any) any {
	if r, ok := v.(jsonval.Raw); ok {
		return string(r)
	}
	return v
}

func describeSteps(m *ListPlan) string {
	s := ""
	for _, o := range m.Ops {
		s += fmt.Sprintf("%v fresh=%v; ", o.Elem.Body, o.Fresh)
	}
	return s
}
