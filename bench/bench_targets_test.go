package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	appsv1 "k8s.io/api/apps/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/smp"
)

// BenchmarkTargets measures the operations of docs/benchmarks.md's
// targets table beside what any implementation must spend on them (the
// floor) and beside the libraries a Go user would pick instead. Every
// name is BenchmarkTargets/<row>/<impl>, impl one of
//
//	ours     typedpatch
//	floor    the least work any implementation does for that row
//	bare     json.Unmarshal of the inputs into map[string]any and
//	         json.Marshal of the output (the list rows)
//	k8s      Kubernetes' strategicpatch, as a user of it must call it
//	rfc7386  evanphx/json-patch v5's RFC 7386 merge patch
//	smd      structured-merge-diff v6, server-side apply's engine
//
// cmd/benchfloor runs it in interleaved passes and prints the ratios and
// which targets hold. Each row's implementations are checked against
// each other before any is timed (targets_check_test.go).
//
// With TYPEDPATCH_TARGETS=quick it neither checks the rows nor builds the
// 100,000-element lists, so that each row measures in seconds under
// valgrind (instr-bench); BenchmarkTargetsLargeLists measures those rows
// with nothing else to set up.
func BenchmarkTargets(b *testing.B) {
	sizes, check := targetListSizes, true
	if os.Getenv("TYPEDPATCH_TARGETS") == "quick" {
		sizes, check = targetListSizes[:1], false
	}
	runTargets(b, newTargetInputs(b, sizes, check).rows(sizes))
}

// BenchmarkTargetsLargeLists is BenchmarkTargets' list rows at 100,000
// elements alone, without its checks.
func BenchmarkTargetsLargeLists(b *testing.B) {
	sizes := targetListSizes[1:]
	t := &targetInputs{smdDoc: newSMDList(b), lists: map[int]*targetList{}}
	t.addLists(b, sizes)
	runTargets(b, t.listRows(sizes))
}

func runTargets(b *testing.B, rows []targetRow) {
	for _, row := range rows {
		for _, impl := range row.impls {
			b.Run(row.name+"/"+impl.name, func(b *testing.B) { benchLoop(b, impl.op) })
		}
	}
}

// targetImpl is one implementation of a row.
type targetImpl struct {
	name string
	op   func() error
}

// targetRow is one operation and its implementations.
type targetRow struct {
	name  string
	impls []targetImpl
}

// targetListSizes are the list lengths of the list rows.
var targetListSizes = []int{10000, 100000}

// k8sListLimit is the longest list Kubernetes is timed on: it matches
// merge-list elements by scanning, and takes seconds at 10,000.
const k8sListLimit = 10000

// targetInputs holds every row's inputs, built and checked once.
type targetInputs struct {
	dep *deploymentCase
	// copies pairs original, modified and current with deep copies, for
	// the equality walks of the floors.
	copies [3][2]*appsv1.Deployment
	smd    *smdDeployment
	smdDoc *smdList // structured-merge-diff on the list rows
	rfc    []byte   // RFC 7386's patch from original to modified
	// meta is Kubernetes' patch meta of a Deployment; threeWay the
	// three-way patch decoded, for the floor's marshalling.
	meta     k8s.LookupPatchMeta
	threeWay map[string]any
	lists    map[int]*targetList
}

// targetList is a merge list of n {name, value} maps, every value patched.
type targetList struct {
	n                                 int
	original, modified, patch, twoWay []byte
	rfcTwoWay                         []byte
}

// newTargetInputs builds the Deployment rows' inputs and the list rows'
// at sizes, and checks them when check is set.
func newTargetInputs(tb testing.TB, sizes []int, check bool) *targetInputs {
	dep := newDeploymentCase(tb, 10)
	t := &targetInputs{
		dep:   dep,
		smd:   newSMDDeployment(tb, dep),
		rfc:   must[[]byte](tb)(jsonpatch.CreateMergePatch(dep.ob, dep.mb)),
		meta:  must[k8s.PatchMetaFromStruct](tb)(k8s.NewPatchMetaFromStruct(&appsv1.Deployment{})),
		lists: map[int]*targetList{},
	}
	if err := json.Unmarshal(dep.threeWay, &t.threeWay); err != nil {
		tb.Fatal(err)
	}
	for i, d := range []*appsv1.Deployment{dep.original, dep.modified, dep.current} {
		t.copies[i] = [2]*appsv1.Deployment{d, d.DeepCopy()}
	}
	t.smdDoc = newSMDList(tb)
	t.addLists(tb, sizes)
	if check {
		checkTargets(tb, t)
	}
	return t
}

// addLists builds the list rows' inputs at sizes.
func (t *targetInputs) addLists(tb testing.TB, sizes []int) {
	for _, n := range sizes {
		l := &targetList{
			n:        n,
			original: marshal(tb, mapList(n, "old-")),
			modified: marshal(tb, mapList(n, "new-")),
		}
		// The patch lists every element with its new value, in order:
		// the modified document itself.
		l.patch = l.modified
		l.twoWay = must[[]byte](tb)(smp.DiffJSON(l.original, l.modified, &mapListDoc{}))
		l.rfcTwoWay = must[[]byte](tb)(jsonpatch.CreateMergePatch(l.original, l.modified))
		t.lists[n] = l
	}
}

// rows lists every row with its implementations, the list rows at sizes.
func (t *targetInputs) rows(sizes []int) []targetRow {
	return append([]targetRow{t.typedApply(), t.typedDiff(), t.typedThreeWay(), t.jsonApply()}, t.listRows(sizes)...)
}

// listRows lists the list rows at sizes.
func (t *targetInputs) listRows(sizes []int) []targetRow {
	var rows []targetRow
	for _, n := range sizes {
		rows = append(rows, t.listApply(t.lists[n]), t.listTwoWay(t.lists[n]))
	}
	return rows
}

// typedApply: ParsePatch + Apply on the live Deployment; floor: the
// generated DeepCopy of the live object and the patch's parse.
func (t *targetInputs) typedApply() targetRow {
	c := t.dep
	return targetRow{name: "typed-apply", impls: []targetImpl{
		{"ours", func() error {
			p, err := smp.ParsePatch(c.twoWay)
			if err != nil {
				return err
			}
			_, err = smp.Apply(c.current, p)
			return err
		}},
		{"floor", func() error {
			_ = c.current.DeepCopy()
			_, err := smp.ParsePatch(c.twoWay)
			return err
		}},
		{"inplace", func() error {
			// On a shallow copy: ApplyInPlace changes nothing the live
			// object reaches.
			d := *c.current
			p, err := smp.ParsePatch(c.twoWay)
			if err != nil {
				return err
			}
			return smp.ApplyInPlace(&d, p)
		}},
		{"k8s", func() error {
			_, err := k8sTypedApply(c.current, c.twoWay)
			return err
		}},
		{"rfc7386", func() error {
			_, err := rfcTypedApply(c.current, t.rfc)
			return err
		}},
		{"smd", func() error {
			_, err := t.smd.merge(c.current, c.modified)
			return err
		}},
	}}
}

// typedDiff: Diff + MarshalJSON; floor: one reflect.DeepEqual walk of a
// whole Deployment (two equal ones: DeepEqual stops at a difference).
func (t *targetInputs) typedDiff() targetRow {
	c := t.dep
	return targetRow{name: "typed-diff", impls: []targetImpl{
		{"ours", func() error {
			p, err := smp.Diff(c.original, c.modified)
			if err != nil {
				return err
			}
			_, err = p.MarshalJSON()
			return err
		}},
		{"floor", func() error { return equalWalks(t.copies[:1]) }},
		{"k8s", func() error {
			_, err := k8sTypedTwoWay(c.original, c.modified)
			return err
		}},
		{"rfc7386", func() error {
			_, err := rfcTypedDiff(c.original, c.modified)
			return err
		}},
		{"smd", func() error {
			_, err := t.smd.compare(c.original, c.modified)
			return err
		}},
	}}
}

// typedThreeWay: ThreeWay + MarshalJSON, as kubectl apply; floor: two
// whole equality walks (of modified and of current, each against an equal
// copy) and the patch's marshalling.
func (t *targetInputs) typedThreeWay() targetRow {
	c := t.dep
	overwrite := smp.WithOverwrite(true)
	return targetRow{name: "typed-threeway", impls: []targetImpl{
		{"ours", func() error {
			p, err := smp.ThreeWay(c.original, c.modified, c.current, overwrite)
			if err != nil {
				return err
			}
			_, err = p.MarshalJSON()
			return err
		}},
		{"floor", func() error {
			if err := equalWalks(t.copies[1:]); err != nil {
				return err
			}
			_, err := json.Marshal(t.threeWay)
			return err
		}},
		{"k8s", func() error {
			_, err := k8sTypedThreeWay(c.original, c.modified, c.current, t.meta)
			return err
		}},
		{"smd", func() error {
			_, err := t.smd.apply(c.modified)
			return err
		}},
	}}
}

// jsonApply: ApplyJSON on the live Deployment's bytes; floor: validating
// both inputs and copying the result.
func (t *targetInputs) jsonApply() targetRow {
	c := t.dep
	schema := &appsv1.Deployment{}
	return targetRow{name: "json-apply", impls: []targetImpl{
		{"ours", func() error {
			_, err := smp.ApplyJSON(c.cb, c.twoWay, schema)
			return err
		}},
		{"floor", func() error { return validCopy(c.applied, c.cb, c.twoWay) }},
		{"k8s", func() error {
			_, err := k8s.StrategicMergePatch(c.cb, c.twoWay, schema)
			return err
		}},
		{"rfc7386", func() error {
			_, err := jsonpatch.MergePatch(c.cb, t.rfc)
			return err
		}},
	}}
}

// listApply: ApplyJSON of a patch changing every value.
func (t *targetInputs) listApply(l *targetList) targetRow {
	schema := &mapListDoc{}
	impls := []targetImpl{
		{"ours", func() error {
			_, err := smp.ApplyJSON(l.original, l.patch, schema)
			return err
		}},
		{"floor", func() error { return validCopy(l.modified, l.original, l.patch) }},
		{"bare", bareOp(l.modified, l.original, l.patch)},
		{"rfc7386", func() error {
			_, err := jsonpatch.MergePatch(l.original, l.patch)
			return err
		}},
		{"smd", func() error {
			_, err := t.smdDoc.merge(l.original, l.patch)
			return err
		}},
	}
	if l.n <= k8sListLimit {
		impls = append(impls, targetImpl{"k8s", func() error {
			_, err := k8s.StrategicMergePatch(l.original, l.patch, schema)
			return err
		}})
	}
	return targetRow{name: fmt.Sprintf("maplist-apply/n=%d", l.n), impls: impls}
}

// listTwoWay: DiffJSON of two lists whose every value differs.
func (t *targetInputs) listTwoWay(l *targetList) targetRow {
	schema := &mapListDoc{}
	impls := []targetImpl{
		{"ours", func() error {
			_, err := smp.DiffJSON(l.original, l.modified, schema)
			return err
		}},
		{"floor", func() error { return validCopy(l.twoWay, l.original, l.modified) }},
		{"bare", bareOp(l.twoWay, l.original, l.modified)},
		{"rfc7386", func() error {
			_, err := jsonpatch.CreateMergePatch(l.original, l.modified)
			return err
		}},
		{"smd", func() error {
			_, err := t.smdDoc.compare(l.original, l.modified)
			return err
		}},
	}
	if l.n <= k8sListLimit {
		impls = append(impls, targetImpl{"k8s", func() error {
			_, err := k8s.CreateTwoWayMergePatch(l.original, l.modified, schema)
			return err
		}})
	}
	return targetRow{name: fmt.Sprintf("maplist-twoway/n=%d", l.n), impls: impls}
}

// equalWalks walks each pair with reflect.DeepEqual, to its end: the
// pairs are equal.
func equalWalks(pairs [][2]*appsv1.Deployment) error {
	for _, p := range pairs {
		if !reflect.DeepEqual(p[0], p[1]) {
			return fmt.Errorf("a copy differs")
		}
	}
	return nil
}

// validCopy is the floor of an operation from bytes to bytes: check that
// every input is JSON, and write the output (a copy of the expected one).
func validCopy(output []byte, inputs ...[]byte) error {
	for _, in := range inputs {
		if !json.Valid(in) {
			return fmt.Errorf("invalid input")
		}
	}
	_ = append([]byte(nil), output...)
	return nil
}

// rfcTypedApply is what a user of RFC 7386 does to patch an object.
func rfcTypedApply(live *appsv1.Deployment, patch []byte) (*appsv1.Deployment, error) {
	return applyViaJSON(live, func(lb []byte) ([]byte, error) { return jsonpatch.MergePatch(lb, patch) })
}

// rfcTypedDiff is what a user of RFC 7386 does to diff two objects.
func rfcTypedDiff(o, m *appsv1.Deployment) ([]byte, error) {
	ob, mb, err := marshalPair(o, m)
	if err != nil {
		return nil, err
	}
	return jsonpatch.CreateMergePatch(ob, mb)
}
