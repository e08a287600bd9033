package smp_test

import (
	"encoding/json"
	"fmt"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// typedExampleDeployment is a small Deployment with one container.
func typedExampleDeployment() *exampletypes.Deployment {
	replicas := int32(2)
	return &exampletypes.Deployment{
		TypeMeta:   exampletypes.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: exampletypes.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
		Spec: exampletypes.DeploymentSpec{
			Replicas: &replicas,
			Template: exampletypes.PodTemplateSpec{Spec: exampletypes.PodSpec{Containers: []exampletypes.Container{{
				Name:  "nginx",
				Image: "nginx:1.27",
				Env:   []exampletypes.EnvVar{{Name: "MODE", Value: "production"}, {Name: "DEBUG", Value: "false"}},
			}}}},
		},
	}
}

func printTypedJSON(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(string(data))
}

// Diff finds the patch between two values of a type, here a new image
// and one environment variable fewer.
func ExampleDiff() {
	original := typedExampleDeployment()
	modified := typedExampleDeployment()
	modified.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	modified.Spec.Template.Spec.Containers[0].Env = modified.Spec.Template.Spec.Containers[0].Env[:1]

	patch, err := smp.Diff(original, modified)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	printTypedJSON(patch)
	// Output:
	// {"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],"containers":[{"$setElementOrder/env":[{"name":"MODE"}],"env":[{"$patch":"delete","name":"DEBUG"}],"image":"nginx:1.28","name":"nginx"}]}}}}
}

// Apply patches a value and returns a new one; the value patched is left
// as it was.
func ExampleApply() {
	current := typedExampleDeployment()
	patch, err := smp.ParsePatch([]byte(`{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"DEBUG","$patch":"delete"},{"name":"LOG","value":"json"}]}]}}}}`))
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	updated, err := smp.Apply(current, patch)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(*current.Spec.Replicas, *updated.Spec.Replicas)
	printTypedJSON(updated.Spec.Template.Spec.Containers[0].Env)
	// Output:
	// 2 3
	// [{"name":"LOG","value":"json"},{"name":"MODE","value":"production"}]
}

// ThreeWay computes what kubectl apply sends: the change from the last
// applied configuration to the new one, keeping what others changed on
// the live object (here a label). A change others made to a field the
// patch changes too is a conflict.
func ExampleThreeWay() {
	lastApplied := typedExampleDeployment()
	modified := typedExampleDeployment()
	*modified.Spec.Replicas = 4
	live := typedExampleDeployment()
	live.Labels["team"] = "shop"

	patch, err := smp.ThreeWay(lastApplied, modified, live)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	printTypedJSON(patch)

	*live.Spec.Replicas = 5 // someone else scaled it meanwhile
	_, err = smp.ThreeWay(lastApplied, modified, live)
	fmt.Println(smp.IsConflict(err), err)
	// Output:
	// {"spec":{"replicas":4}}
	// true spec.replicas: conflict: current changed it since original, and the patch changes it differently
}

// ParsePatch reads a patch in the wire format, for Apply; a Patch writes
// itself back with encoding/json.
func ExampleParsePatch() {
	patch, err := smp.ParsePatch([]byte(`{"metadata":{"labels":{"tier":"web","app":null}}}`))
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(patch.IsEmpty(), patch)

	_, err = smp.ParsePatch([]byte(`["not", "an", "object"]`))
	fmt.Println(smp.KindOf(err))
	// Output:
	// false {"metadata":{"labels":{"app":null,"tier":"web"}}}
	// NotObject
}

// ApplyInPlace changes a value the caller owns, at the cost of what the
// patch reaches; a patch that fails leaves it as it was.
func ExampleApplyInPlace() {
	d := typedExampleDeployment()
	patch, err := smp.ParsePatch([]byte(`{"spec":{"replicas":5,"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}}`))
	if err != nil {
		panic(err)
	}
	if err := smp.ApplyInPlace(&d, patch); err != nil {
		panic(err)
	}
	fmt.Println(*d.Spec.Replicas, d.Spec.Template.Spec.Containers[0].Image)

	bad, _ := smp.ParsePatch([]byte(`{"spec":{"replicas":1,"template":{"spec":{"containers":"nginx"}}}}`))
	err = smp.ApplyInPlace(&d, bad)
	fmt.Println(*d.Spec.Replicas, err != nil)
	// Output:
	// 5 nginx:1.27
	// 5 true
}
