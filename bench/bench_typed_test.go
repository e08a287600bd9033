package bench

import (
	"encoding/json"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/smp"
)

// The typed API on the Deployments of bench_deployment_test.go, against
// what a Kubernetes user holding typed objects must do: marshal the
// structs, call the JSON functions, and unmarshal the result.
//
//	typed        ours returns a Patch (Diff, ThreeWay) or takes one (Apply)
//	typed-bytes  the same ending or starting at wire bytes, as Kubernetes
//	             does: Patch.MarshalJSON after Diff and ThreeWay,
//	             ParsePatch before Apply
//
// The bare rows of bench_deployment_test.go (…/<op>/bare) serve both.

// k8sTypedTwoWay is what a Kubernetes user does to diff two objects.
func k8sTypedTwoWay(o, m *appsv1.Deployment) ([]byte, error) {
	ob, mb, err := marshalPair(o, m)
	if err != nil {
		return nil, err
	}
	return k8s.CreateTwoWayMergePatch(ob, mb, o)
}

// marshalPair marshals two objects.
func marshalPair(a, b any) ([]byte, []byte, error) {
	ab, err := json.Marshal(a)
	if err != nil {
		return nil, nil, err
	}
	bb, err := json.Marshal(b)
	return ab, bb, err
}

// k8sTypedApply is what a Kubernetes user does to patch an object.
func k8sTypedApply(live *appsv1.Deployment, patch []byte) (*appsv1.Deployment, error) {
	return applyViaJSON(live, func(lb []byte) ([]byte, error) { return k8s.StrategicMergePatch(lb, patch, live) })
}

// applyViaJSON patches an object as a user of a JSON patch library must:
// marshal it, patch the bytes, unmarshal the result into a new object.
func applyViaJSON(live *appsv1.Deployment, patch func([]byte) ([]byte, error)) (*appsv1.Deployment, error) {
	lb, err := json.Marshal(live)
	if err != nil {
		return nil, err
	}
	res, err := patch(lb)
	if err != nil {
		return nil, err
	}
	out := &appsv1.Deployment{}
	if err := json.Unmarshal(res, out); err != nil {
		return nil, err
	}
	return out, nil
}

// k8sTypedThreeWay is what a Kubernetes user does for kubectl apply.
func k8sTypedThreeWay(o, m, c *appsv1.Deployment, meta k8s.LookupPatchMeta) ([]byte, error) {
	var docs [3][]byte
	for i, d := range [3]*appsv1.Deployment{o, m, c} {
		b, err := json.Marshal(d)
		if err != nil {
			return nil, err
		}
		docs[i] = b
	}
	return k8s.CreateThreeWayMergePatch(docs[0], docs[1], docs[2], meta, true)
}

func init() { benchDeploymentTyped = deploymentTyped }

// deploymentTyped runs the typed benchmarks of one Deployment case, under
// BenchmarkDeployment so that benchtable finds the bare rows
// (BenchmarkDeployment/containers=N/<op>/bare).
func deploymentTyped(b *testing.B, c *deploymentCase, prefix string) {
	meta := must[k8s.PatchMetaFromStruct](b)(k8s.NewPatchMetaFromStruct(&appsv1.Deployment{}))
	overwrite := smp.WithOverwrite(true)

	// The typed results must be the JSON API's.
	twoWay := must[smp.Patch](b)(smp.Diff(c.original, c.modified))
	sameJSON(b, "typed two-way", must[[]byte](b)(twoWay.MarshalJSON()), c.twoWay)
	threeWay := must[smp.Patch](b)(smp.ThreeWay(c.original, c.modified, c.current, overwrite))
	sameJSON(b, "typed three-way", must[[]byte](b)(threeWay.MarshalJSON()), c.threeWay)
	applied := must[*appsv1.Deployment](b)(smp.Apply(c.current, twoWay))
	want := &appsv1.Deployment{}
	if err := json.Unmarshal(c.applied, want); err != nil {
		b.Fatal(err)
	}
	if !reflect.DeepEqual(applied, want) {
		b.Fatalf("typed apply differs from the JSON API's:\n%s\n%s", marshal(b, applied), c.applied)
	}
	if !reflect.DeepEqual(applied, must[*appsv1.Deployment](b)(k8sTypedApply(c.current, c.twoWay))) {
		b.Fatal("typed apply differs from Kubernetes'")
	}

	// run measures op as the benchmark prefix/name.
	run := func(name string, op func() error) {
		b.Run(prefix+"/"+name, func(b *testing.B) { benchLoop(b, op) })
	}

	run("twoway/typed/ours", func() error {
		_, err := smp.Diff(c.original, c.modified)
		return err
	})
	run("twoway/typed-bytes/ours", func() error {
		p, err := smp.Diff(c.original, c.modified)
		if err != nil {
			return err
		}
		_, err = p.MarshalJSON()
		return err
	})
	for _, api := range []string{"typed", "typed-bytes"} {
		run("twoway/"+api+"/k8s", func() error {
			_, err := k8sTypedTwoWay(c.original, c.modified)
			return err
		})
	}

	run("apply/typed/ours", func() error {
		_, err := smp.Apply(c.current, twoWay)
		return err
	})
	run("apply/typed-bytes/ours", func() error {
		p, err := smp.ParsePatch(c.twoWay)
		if err != nil {
			return err
		}
		_, err = smp.Apply(c.current, p)
		return err
	})
	for _, api := range []string{"typed", "typed-bytes"} {
		run("apply/"+api+"/k8s", func() error {
			_, err := k8sTypedApply(c.current, c.twoWay)
			return err
		})
	}

	run("threeway/typed/ours", func() error {
		_, err := smp.ThreeWay(c.original, c.modified, c.current, overwrite)
		return err
	})
	run("threeway/typed-bytes/ours", func() error {
		p, err := smp.ThreeWay(c.original, c.modified, c.current, overwrite)
		if err != nil {
			return err
		}
		_, err = p.MarshalJSON()
		return err
	})
	for _, api := range []string{"typed", "typed-bytes"} {
		run("threeway/"+api+"/k8s", func() error {
			_, err := k8sTypedThreeWay(c.original, c.modified, c.current, meta)
			return err
		})
	}
}
