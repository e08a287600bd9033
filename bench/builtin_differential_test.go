package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/builtin"
	rs "github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// differentialKinds are the kinds TestDifferentialBuiltin runs.
var differentialKinds = [][2]string{
	{"apps/v1", "Deployment"}, {"apps/v1", "StatefulSet"}, {"apps/v1", "DaemonSet"},
	{"batch/v1", "CronJob"}, {"batch/v1", "Job"}, {"v1", "Pod"}, {"v1", "Service"},
	{"networking.k8s.io/v1", "Ingress"}, {"networking.k8s.io/v1", "NetworkPolicy"},
	{"autoscaling/v2", "HorizontalPodAutoscaler"},
}

// differentialCases is the number of (original, modified, current)
// triples generated per kind.
const differentialCases = 150

// differentialCasesEnv overrides differentialCases, for longer runs.
const differentialCasesEnv = "BUILTIN_DIFF_CASES"

// Patches computed from the bundled schema, without Go types, are
// Kubernetes' own, computed with the Go types, and applying them gives
// Kubernetes' result: two-way patches, applied to the original and to a
// third document, and three-way patches with and without overwrite, on
// random objects of each kind (kindGen). Differences docs/compat.md lists
// are filtered precisely and counted.
func TestDifferentialBuiltin(t *testing.T) {
	for _, k := range registeredDifferentialKinds(t) {
		t.Run(k.GVK.Kind, func(t *testing.T) { differentialKind(t, k) })
	}
}

// registeredDifferentialKinds returns differentialKinds as registered.
func registeredDifferentialKinds(t *testing.T) []builtinKind {
	registered, _, err := builtinKinds()
	if err != nil {
		t.Fatal(err)
	}
	var out []builtinKind
	for _, ak := range differentialKinds {
		i := slices.IndexFunc(registered, func(k builtinKind) bool { return k.APIVersion() == ak[0] && k.GVK.Kind == ak[1] })
		if i < 0 {
			t.Fatalf("%s %s is not registered", ak[0], ak[1])
		}
		out = append(out, registered[i])
	}
	return out
}

// kindSchemas returns a kind's schema read from its Go type and the one
// package builtin bundles.
func kindSchemas(t *testing.T, k builtinKind) (goType, bundled *rs.Type) {
	goType, err := rs.Of(k.Go)
	if err != nil {
		t.Fatal(err)
	}
	bundled, err = builtin.Lookup(k.APIVersion(), k.GVK.Kind)
	if err != nil {
		t.Fatal(err)
	}
	return goType, bundled
}

// diffRun is one kind's run: its schemas and what it counted.
type diffRun struct {
	kind    builtinKind
	goType  *rs.Type // reflectschema's, for the generator
	bundled *rs.Type // package builtin's, for this engine
	goObj   any      // a zero *T, for Kubernetes
	meta    k8s.LookupPatchMeta
	counts  map[string]int
}

func differentialKind(t *testing.T, k builtinKind) {
	goType, bundled := kindSchemas(t, k)
	goObj := reflect.New(k.Go).Interface()
	meta, err := k8s.NewPatchMetaFromStruct(goObj)
	if err != nil {
		t.Fatal(err)
	}
	run := &diffRun{kind: k, goType: goType, bundled: bundled, goObj: goObj, meta: meta, counts: map[string]int{}}
	h := fnv.New64a()
	h.Write([]byte(k.APIVersion() + "/" + k.GVK.Kind))
	cases := differentialCases
	if n, err := strconv.Atoi(os.Getenv(differentialCasesEnv)); err == nil && n > 0 {
		cases = n
	}
	for seed := range uint64(cases) {
		g := &kindGen{r: rand.New(rand.NewPCG(seed, h.Sum64())), maxDepth: 10}
		docs := run.generate(g)
		run.counts["bytes generated"] += len(docs[0]) + len(docs[1]) + len(docs[2])
		if err := run.compare(docs, g.r.IntN(3) > 0); err != nil {
			t.Fatalf("seed %d: %v\noriginal: %s\nmodified: %s\ncurrent: %s", seed, err, docs[0], docs[1], docs[2])
		}
	}
	t.Logf("%s %s: %s", k.APIVersion(), k.GVK.Kind, formatCounts(run.counts))
	if run.counts["three-way compared"] < cases/2 {
		t.Errorf("only %d of %d three-way patches compared", run.counts["three-way compared"], cases)
	}
}

func formatCounts(c map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, c[k]))
	}
	return strings.Join(parts, ", ")
}

// genBudget bounds the optional fields of an original object.
const genBudget = 250

// generate returns an original object and two edits of it, as JSON.
func (r *diffRun) generate(g *kindGen) [3][]byte {
	g.budget = genBudget
	o := g.value(r.kind.Go, r.goType, rs.PatchMeta{}, 0)
	obj := o.Addr().Interface().(runtime.Object)
	var docs [3][]byte
	for i := range docs {
		x := obj.DeepCopyObject()
		docs[i] = r.marshal(x)
		// An edit is tried again when it changed nothing, once.
		for try := 0; i > 0 && try < 2 && bytes.Equal(docs[i], docs[0]); try++ {
			g.budget = genBudget / 5 // for the values an edit adds
			g.mutate(reflect.ValueOf(x).Elem(), r.goType, rs.PatchMeta{}, 0)
			docs[i] = r.marshal(x)
		}
	}
	return docs
}

// marshal writes an object as JSON, with its kind and a name.
func (r *diffRun) marshal(x runtime.Object) []byte {
	x.GetObjectKind().SetGroupVersionKind(r.kind.GVK)
	x.(metav1.Object).SetName("obj")
	b, err := json.Marshal(x)
	if err != nil {
		panic(err)
	}
	return b
}

func decodeJSON(data []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	err := dec.Decode(&v)
	return v, err
}

// sameJSON compares two JSON documents as values; what differs only by a
// difference docs/compat.md lists is counted under its heading.
func (r *diffRun) sameJSON(what string, theirs, ours []byte) error {
	tv, err1 := decodeJSON(theirs)
	ov, err2 := decodeJSON(ours)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("%s: undecodable: %v %v", what, err1, err2)
	}
	if cmp.Equal(tv, ov) {
		r.counts[what+" equal"]++
		return nil
	}
	if ov = sortedOrderQuirk(tv, ov); cmp.Equal(tv, ov) {
		r.counts[what+" equal but for \"reordering a set\""]++
		return nil
	}
	return fmt.Errorf("%s differs (-k8s +ours):\n%s\nk8s:  %s\nours: %s", what, cmp.Diff(tv, ov), theirs, ours)
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// samePatch compares Kubernetes' patch with ours as sameJSON does. Where
// one holds a $setElementOrder of a list of scalars the other lacks
// (docs/compat.md, "reordering a set": Kubernetes writes one for an
// unchanged list that is not sorted, with the merge-list elements and
// $retainKeys around it), the patches are equal if Kubernetes, applying
// each to base, gives the same document.
func (r *diffRun) samePatch(what string, theirs, ours, base []byte) error {
	err := r.sameJSON(what, theirs, ours)
	if err == nil {
		return nil
	}
	tv, _ := decodeJSON(theirs)
	ov, _ := decodeJSON(ours)
	if slices.Equal(scalarOrders(tv, nil), scalarOrders(ov, nil)) {
		return err
	}
	clean := withoutNulls(base)
	kr, kerr := k8s.StrategicMergePatch(clean, theirs, r.goObj)
	or, oerr := k8s.StrategicMergePatch(clean, ours, r.goObj)
	if kerr != nil || oerr != nil {
		return err
	}
	krv, _ := decodeJSON(kr)
	orv, _ := decodeJSON(or)
	if !cmp.Equal(krv, orv) {
		return err
	}
	r.counts[what+" equivalent but for \"reordering a set\""]++
	return nil
}

func bothOrNeither(what string, kerr, oerr error) error {
	if (kerr == nil) != (oerr == nil) {
		return fmt.Errorf("%s errors differ: k8s %v, ours %v", what, kerr, oerr)
	}
	return nil
}

// compare runs both implementations on one triple.
func (r *diffRun) compare(docs [3][]byte, overwrite bool) error {
	o, m, c := docs[0], docs[1], docs[2]
	kp, kerr := k8s.CreateTwoWayMergePatch(o, m, r.goObj)
	op, oerr := smp.DiffJSON(o, m, r.bundled)
	if err := bothOrNeither("two-way", kerr, oerr); err != nil || kerr != nil {
		return firstErr(err, fmt.Errorf("two-way: both failed: %v", kerr))
	}
	if err := r.samePatch("two-way", kp, op, o); err != nil {
		return err
	}
	for _, target := range []struct {
		name string
		doc  []byte
	}{{"apply", o}, {"apply on current", c}} {
		if err := r.compareApply(target.name, target.doc, kp); err != nil {
			return err
		}
	}
	return r.compareThreeWay(o, m, c, overwrite)
}

// compareApply applies Kubernetes' patch with both. Kubernetes fails on a
// null live list $setElementOrder names (docs/compat.md, "null live list
// with setelementorder"), so both apply to the document without its
// nulls, and the results are compared exactly, unless Kubernetes' holds
// directives or nulls ("directives in added values"): then both without
// them. This engine's result on the document with its nulls is compared
// without nulls too.
func (r *diffRun) compareApply(what string, doc, patch []byte) error {
	clean := withoutNulls(doc)
	kr, kerr := k8s.StrategicMergePatch(clean, patch, r.goObj)
	or, oerr := smp.ApplyJSON(clean, patch, r.bundled)
	if err := bothOrNeither(what, kerr, oerr); err != nil || kerr != nil {
		return firstErr(err, fmt.Errorf("%s: both failed: %v", what, kerr))
	}
	if bytes.Equal(kr, withoutNulls(kr)) {
		if err := r.sameJSON(what, kr, or); err != nil {
			return err
		}
	} else {
		r.counts[what+": Kubernetes kept directives or nulls (\"directives in added values\")"]++
		if err := r.sameJSON(what, withoutNulls(kr), withoutNulls(or)); err != nil {
			return err
		}
	}
	or, oerr = smp.ApplyJSON(doc, patch, r.bundled)
	if oerr != nil {
		return fmt.Errorf("%s to the document with nulls: %v", what, oerr)
	}
	return r.sameJSON(what+" with nulls", withoutNulls(kr), withoutNulls(or))
}

func withoutNulls(doc []byte) []byte {
	v, err := decodeJSON(doc)
	if err != nil {
		return doc
	}
	b, err := json.Marshal(stripDirectivesAndNulls(v))
	if err != nil {
		return doc
	}
	return b
}

func (r *diffRun) compareThreeWay(o, m, c []byte, overwrite bool) error {
	ov, _ := decodeJSON(o)
	mv, _ := decodeJSON(m)
	cv, _ := decodeJSON(c)
	if droppedWhileExtended(ov, mv, cv, r.bundled) {
		r.counts["three-way skipped: kubernetes#48164"]++
		return nil
	}
	kp, kerr, kpanic := k8sThreeWay(o, m, c, r.meta, overwrite)
	op, oerr := smp.ThreeWayJSON(o, m, c, r.bundled, smp.WithOverwrite(overwrite))
	switch {
	case kpanic != nil:
		r.counts["three-way skipped: Kubernetes panicked"]++
		return nil
	case kerr != nil && strings.Contains(kerr.Error(), `for the json field "$deleteFromPrimitiveList/`):
		r.counts["three-way skipped: conflicts on $deleteFromPrimitiveList"]++
		return nil
	case mergepatch.IsConflict(kerr) && oerr == nil && (vacuousDropped(ov, mv, cv) || vacuousAdded(ov, cv)):
		// kubernetes#48164 (docs/compat.md, "nil and empty collections are
		// alike"): current dropped an empty collection the original had, or
		// added one where it had none, and Kubernetes sees a conflict where
		// this project sees no change. The patch is then Kubernetes' patch
		// with overwrite.
		r.counts["three-way: Kubernetes' conflict on an emptied collection (kubernetes#48164)"]++
		if kp, kerr, _ = k8sThreeWay(o, m, c, r.meta, true); kerr != nil {
			return fmt.Errorf("three-way with overwrite: k8s %v", kerr)
		}
		return r.samePatch("three-way", kp, op, c)
	}
	if err := bothOrNeither("three-way", kerr, oerr); err != nil {
		return err
	}
	if mergepatch.IsConflict(kerr) != smp.IsConflict(oerr) {
		return fmt.Errorf("three-way: conflicts differ: k8s %v, ours %v", kerr, oerr)
	}
	if kerr != nil {
		r.counts["three-way both conflict"]++
		return nil
	}
	r.counts["three-way compared"]++
	err := r.samePatch("three-way", kp, op, c)
	if err != nil {
		return r.threeWayExplained(err, [3][]byte{o, m, c}, op, overwrite)
	}
	return nil
}

// threeWayExplained returns nil, counting it, when a three-way patch that
// differs from Kubernetes' (err) is explained by a Kubernetes quirk;
// otherwise err.
func (r *diffRun) threeWayExplained(err error, docs [3][]byte, ours []byte, overwrite bool) error {
	if kp, kerr, _ := k8sThreeWay(docs[0], docs[1], docs[2], r.meta, overwrite); kerr == nil && sameOnCurrent(kp, ours, docs[2], r.goObj) {
		r.counts["three-way: Kubernetes' directives inside elements current lacks"]++
		return nil
	}
	if !overwrite {
		// Kubernetes' conflict check deduplicates and sorts lists of
		// scalars in place, inside its own patch (docs/compat.md, "Kubernetes'
		// conflict check can panic"): without the check, its patch is ours.
		kpo, kerr, _ := k8sThreeWay(docs[0], docs[1], docs[2], r.meta, true)
		if kerr == nil && r.samePatch("three-way without the check", kpo, ours, docs[2]) == nil {
			r.counts["three-way: Kubernetes' conflict check reordered its patch"]++
			return nil
		}
	}
	return err
}
