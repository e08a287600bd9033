package bench

import (
	"reflect"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"

	"github.com/typedpatch/typedpatch/smp"
)

// checkTargets checks, before BenchmarkTargets times anything, that every
// implementation of a row does its work: ours gives Kubernetes' results
// (newDeploymentCase compares the JSON APIs), and each peer gives what
// its own format promises.
func checkTargets(tb testing.TB, t *targetInputs) {
	tb.Helper()
	checkTargetsTyped(tb, t)
	for _, l := range t.lists {
		checkTargetList(tb, l, t.smdDoc)
	}
}

// checkTargetsTyped checks the Deployment rows.
func checkTargetsTyped(tb testing.TB, t *targetInputs) {
	c := t.dep
	p := must[smp.Patch](tb)(smp.ParsePatch(c.twoWay))
	applied := must[*appsv1.Deployment](tb)(smp.Apply(c.current, p))
	if !reflect.DeepEqual(applied, must[*appsv1.Deployment](tb)(k8sTypedApply(c.current, c.twoWay))) {
		tb.Fatal("typed apply differs from Kubernetes'")
	}
	before, inPlace := c.current.DeepCopy(), *c.current
	// cmp compares resource.Quantity by its Equal method: Apply makes
	// the live object's quantities anew through their JSON, which fills
	// their cached text, where ApplyInPlace keeps them as they are.
	if err := smp.ApplyInPlace(&inPlace, p); err != nil || !cmp.Equal(&inPlace, applied) {
		tb.Fatalf("typed apply in place differs from Apply (%v):\n%s", err, cmp.Diff(applied, &inPlace))
	}
	if !reflect.DeepEqual(before, c.current) {
		tb.Fatal("ApplyInPlace changed the live object it was given a shallow copy of")
	}
	d := must[smp.Patch](tb)(smp.Diff(c.original, c.modified))
	sameJSON(tb, "typed two-way", must[[]byte](tb)(d.MarshalJSON()), c.twoWay)
	tw := must[smp.Patch](tb)(smp.ThreeWay(c.original, c.modified, c.current, smp.WithOverwrite(true)))
	sameJSON(tb, "typed three-way", must[[]byte](tb)(tw.MarshalJSON()), c.threeWay)

	// RFC 7386: its patch turns original into modified.
	if !reflect.DeepEqual(must[*appsv1.Deployment](tb)(rfcTypedApply(c.original, t.rfc)), c.modified) {
		tb.Fatal("RFC 7386's patch does not turn original into modified")
	}
	sameJSON(tb, "RFC 7386 typed diff", must[[]byte](tb)(rfcTypedDiff(c.original, c.modified)), t.rfc)

	// structured-merge-diff: Merge keeps every value of the config;
	// Compare sees the change; server-side apply gives kubectl apply's
	// object.
	merged := must[*appsv1.Deployment](tb)(t.smd.merge(c.current, c.modified))
	if !reflect.DeepEqual(must[*appsv1.Deployment](tb)(t.smd.merge(merged, c.modified)), merged) {
		tb.Fatal("structured-merge-diff's Merge did not keep the config's values")
	}
	if must[*smdComparison](tb)(t.smd.compare(c.original, c.modified)).IsSame() {
		tb.Fatal("structured-merge-diff's Compare sees no change")
	}
	ssa := must[*appsv1.Deployment](tb)(t.smd.apply(c.modified))
	kubectl := must[*appsv1.Deployment](tb)(k8sTypedApply(c.current, c.threeWay))
	if !reflect.DeepEqual(ssa, kubectl) {
		tb.Fatalf("server-side apply differs from kubectl apply:\n%s\n%s", marshal(tb, ssa), marshal(tb, kubectl))
	}
}

// checkTargetList checks the list rows of one size.
func checkTargetList(tb testing.TB, l *targetList, smdDoc *smdList) {
	schema := &mapListDoc{}
	sameJSON(tb, "list apply", must[[]byte](tb)(smp.ApplyJSON(l.original, l.patch, schema)), l.modified)
	sameJSON(tb, "list two-way applied", must[[]byte](tb)(smp.ApplyJSON(l.original, l.twoWay, schema)), l.modified)
	if l.n > k8sListLimit {
		return // the peers are checked on the shorter list, made the same way
	}
	sameJSON(tb, "RFC 7386 apply", must[[]byte](tb)(jsonpatch.MergePatch(l.original, l.patch)), l.modified)
	sameJSON(tb, "RFC 7386 two-way applied", must[[]byte](tb)(jsonpatch.MergePatch(l.original, l.rfcTwoWay)), l.modified)
	sameJSON(tb, "structured-merge-diff merge", must[[]byte](tb)(smdDoc.merge(l.original, l.patch)), l.modified)
	cmp := must[*smdComparison](tb)(smdDoc.compare(l.original, l.modified))
	if cmp.Modified.Size() != l.n {
		tb.Fatalf("structured-merge-diff's Compare finds %d changed fields, want %d", cmp.Modified.Size(), l.n)
	}
}
