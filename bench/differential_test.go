package bench

import (
	"bytes"
	"encoding/json"
	"flag"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

func decode(t *rapid.T, data []byte) any {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return v
}

func TestDifferentialDeployment(t *testing.T) {
	var compared, skipped int
	defer func() {
		t.Logf("three-way: %d compared, %d skipped (kubernetes#48164, the parallel-list lookup error, or a Kubernetes panic)", compared, skipped)
		if compared < skipped {
			t.Errorf("the generator rarely reaches three-way comparisons: %d compared, %d skipped", compared, skipped)
		}
	}()
	checkN(t, 600, func(t *rapid.T) {
		o := genDeployment(t, "original")
		m := genDeployment(t, "modified")
		c := genDeployment(t, "current")
		ob, mb, cb := mustJSON(t, o), mustJSON(t, m), mustJSON(t, c)
		schema := &appsv1.Deployment{}

		kp, kerr := k8s.CreateTwoWayMergePatch(ob, mb, schema)
		op, oerr := smp.DiffJSON(ob, mb, schema)
		if (kerr == nil) != (oerr == nil) {
			t.Fatalf("two-way errors differ: k8s %v, ours %v", kerr, oerr)
		}
		if kerr == nil {
			kd := decode(t, kp)
			od := sortedOrderQuirk(kd, decode(t, op))
			if d := cmp.Diff(kd, od); d != "" {
				t.Fatalf("two-way patch differs (-k8s +ours):\n%s\nk8s: %s\nours: %s", d, kp, op)
			}
			kr, kerr := k8s.StrategicMergePatch(ob, kp, schema)
			or, oerr := smp.ApplyJSON(ob, kp, schema)
			if (kerr == nil) != (oerr == nil) {
				t.Fatalf("apply errors differ: k8s %v, ours %v", kerr, oerr)
			}
			if kerr == nil {
				if d := cmp.Diff(decode(t, kr), decode(t, or)); d != "" {
					t.Fatalf("apply differs (-k8s +ours):\n%s\npatch: %s", d, kp)
				}
			}
			// The patch applied to current: ordering with server-only items.
			// Kubernetes fails on a null live list that $setElementOrder
			// names (docs/compat.md); it agrees once the nulls are dropped.
			kr, kerr = k8s.StrategicMergePatch(dropNulls(t, cb), kp, schema)
			or, oerr = smp.ApplyJSON(cb, kp, schema)
			if (kerr == nil) != (oerr == nil) {
				t.Fatalf("apply on current errors differ: k8s %v, ours %v", kerr, oerr)
			}
			if kerr == nil {
				if d := cmp.Diff(decode(t, dropNulls(t, kr)), decode(t, dropNulls(t, or))); d != "" {
					t.Fatalf("apply on current differs (-k8s +ours):\n%s\npatch: %s\ncurrent: %s", d, kp, cb)
				}
			}
		}
		overwrite := rapid.Bool().Draw(t, "overwrite")
		if nilEmptyApplies(decode(t, ob), decode(t, mb), decode(t, cb)) {
			// kubernetes#48164: this project narrows the deletion of a
			// collection another writer added to (docs/compat.md);
			// smp/threeway_test.go checks that behaviour.
			skipped++
			return
		}
		kp, kerr, kpanic := k8sThreeWay(ob, mb, cb, k8sMeta(t), overwrite)
		op, oerr = smp.ThreeWayJSON(ob, mb, cb, schema, smp.WithOverwrite(overwrite))
		if kpanic != nil {
			// Kubernetes' conflict check indexes past the end of a list of
			// scalars it has deduplicated (docs/compat.md); this engine
			// answered without panicking, which is all there is to compare.
			skipped++
			return
		}
		if kerr != nil && strings.Contains(kerr.Error(), `for the json field "$deleteFromPrimitiveList/`) {
			// Kubernetes fails to look up the directive as a field when both
			// sides delete from one primitive list (docs/compat.md); this
			// project compares the rest.
			skipped++
			return
		}
		if (kerr == nil) != (oerr == nil) || mergepatch.IsConflict(kerr) != smp.IsConflict(oerr) {
			t.Fatalf("three-way errors differ: k8s %v, ours %v\noriginal: %s\nmodified: %s\ncurrent: %s\nk8s patch: %s", kerr, oerr, ob, mb, cb, kp)
		}
		compared++
		if kerr == nil {
			kd := decode(t, kp)
			od := sortedOrderQuirk(kd, decode(t, op))
			if d := cmp.Diff(kd, od); d != "" && !sameOnCurrent(kp, mustJSON(t, od), cb, schema) {
				t.Fatalf("three-way patch differs (-k8s +ours):\n%s\nk8s: %s\nours: %s", d, kp, op)
			}
		}
	})
}

func k8sMeta(t *rapid.T) k8s.LookupPatchMeta {
	m, err := k8s.NewPatchMetaFromStruct(&appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustJSON(t *rapid.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dropNulls removes null fields from a JSON object, recursively, and the
// directives Kubernetes leaves in objects and lists it adds without merging
// (docs/compat.md): directive keys, and list elements holding $patch.
func dropNulls(t *rapid.T, data []byte) []byte {
	var strip func(v any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if e == nil || strings.HasPrefix(k, "$") {
					delete(v, k)
				} else {
					v[k] = strip(e)
				}
			}
		case []any:
			out := v[:0]
			for _, e := range v {
				if m, ok := e.(map[string]any); ok && m["$patch"] != nil {
					continue
				}
				out = append(out, strip(e))
			}
			return out
		}
		return v
	}
	return mustJSON(t, strip(decode(t, data)))
}

// nilEmptyApplies reports whether a three-way patch of these documents
// meets kubernetes#48164: the modified document drops an object whose
// current value holds entries the original lacked, or an empty original
// collection that current filled.
func nilEmptyApplies(o, m, c any) bool {
	om, _ := o.(map[string]any)
	mm, _ := m.(map[string]any)
	cm, _ := c.(map[string]any)
	for k, ov := range om {
		mv, inM := mm[k]
		cv := cm[k]
		if (!inM || mv == nil) && cv != nil {
			if vacuous(ov) && !vacuous(cv) {
				return true
			}
			ovm, ok1 := ov.(map[string]any)
			cvm, ok2 := cv.(map[string]any)
			if ok1 && ok2 {
				for ck, e := range cvm {
					if _, had := ovm[ck]; !had && e != nil {
						return true
					}
				}
			}
			continue
		}
		if nilEmptyApplies(ov, mv, cv) {
			return true
		}
	}
	return false
}

func vacuous(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			if e != nil && !vacuous(e) {
				return false
			}
		}
		return true
	case []any:
		return len(v) == 0
	}
	return false
}

// sortedOrderQuirk removes, from whichever patch has it, a
// $setElementOrder of a list of scalars the other patch lacks: Kubernetes
// sorts the old list in place before comparing, so it writes the order
// when the new list differs from the sorted old one, this project when it
// differs from the old one (docs/compat.md, "reordering a set"). It returns
// ours; k8sPatch is changed in place.
func sortedOrderQuirk(k8sPatch, ours any) any {
	dropOneSided(k8sPatch, ours)
	return ours
}

func dropOneSided(a, b any) {
	am, _ := a.(map[string]any)
	bm, _ := b.(map[string]any)
	if am == nil && bm == nil {
		al, ok1 := a.([]any)
		bl, ok2 := b.([]any)
		if ok1 && ok2 && len(al) == len(bl) {
			for i := range al {
				dropOneSided(al[i], bl[i])
			}
		}
		return
	}
	keys := map[string]bool{}
	for k := range am {
		keys[k] = true
	}
	for k := range bm {
		keys[k] = true
	}
	for k := range keys {
		av, inA := am[k]
		bv, inB := bm[k]
		if strings.HasPrefix(k, "$setElementOrder/") {
			if inA != inB && (isScalarList(av) || isScalarList(bv)) {
				delete(am, k)
				delete(bm, k)
			}
			continue
		}
		dropOneSided(av, bv)
		for _, m := range []map[string]any{am, bm} {
			if sub, ok := m[k].(map[string]any); ok && len(sub) == 0 && (!inA || !inB) {
				delete(m, k)
			}
		}
	}
}

func isScalarList(v any) bool {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return false
	}
	_, obj := l[0].(map[string]any)
	return !obj
}

// checkN runs at least n cases of prop: rapid runs -rapid.checks (100 by
// default) per call, so it is called as often as needed, unless the flag
// was set on the command line.
func checkN(t *testing.T, n int, prop func(*rapid.T)) {
	per := 100
	if f := flag.Lookup("rapid.checks"); f != nil {
		if v, err := strconv.Atoi(f.Value.String()); err == nil && v > 0 {
			per = v
		}
	}
	calls := 1
	if !flagSet("rapid.checks") && !flagSet("rapid.seed") && !flagSet("rapid.failfile") {
		calls = (n + per - 1) / per
	}
	for range calls {
		rapid.Check(t, prop)
		if t.Failed() {
			return
		}
	}
}

func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// k8sThreeWay calls Kubernetes' CreateThreeWayMergePatch, turning a panic
// into a value.
func k8sThreeWay(o, m, c []byte, meta k8s.LookupPatchMeta, overwrite bool) (patch []byte, err error, panicked any) {
	defer func() { panicked = recover() }()
	patch, err = k8s.CreateThreeWayMergePatch(o, m, c, meta, overwrite)
	return patch, err, nil
}
