package exampletypes_test

import (
	"encoding/json"
	"fmt"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// A Deployment whose container gains a port: the struct tags make
// containers a list merged by name and ports one merged by containerPort,
// so the patch carries the new port only, and the lists' order.
func Example() {
	original := exampletypes.Deployment{Spec: exampletypes.DeploymentSpec{Template: exampletypes.PodTemplateSpec{
		Spec: exampletypes.PodSpec{Containers: []exampletypes.Container{{
			Name:  "web",
			Image: "nginx:1.27",
			Ports: []exampletypes.ContainerPort{{ContainerPort: 80, Protocol: "TCP"}},
		}}},
	}}}
	modified := original
	modified.Spec.Template.Spec.Containers = []exampletypes.Container{{
		Name:  "web",
		Image: "nginx:1.27",
		Ports: []exampletypes.ContainerPort{{ContainerPort: 80, Protocol: "TCP"}, {ContainerPort: 443, Protocol: "TCP"}},
	}}
	patch, err := smp.Diff(original, modified)
	if err != nil {
		panic(err)
	}
	fmt.Println(patch)
	// Output:
	// {"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"$setElementOrder/ports":[{"containerPort":80},{"containerPort":443}],"name":"web","ports":[{"containerPort":443,"protocol":"TCP"}]}]}}}}
}

func ExampleLookup() {
	v, ok := exampletypes.Lookup("Service")
	if !ok {
		panic("not registered")
	}
	svc := v.(*exampletypes.Service)
	svc.Spec.Ports = []exampletypes.ServicePort{{Port: 53, Protocol: "UDP", TargetPort: exampletypes.FromString("dns")}}
	data, err := json.Marshal(svc.Spec)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(data))

	typ, _ := exampletypes.TypeOf("ServiceSpec")
	field, _ := typ.FieldByName("Ports")
	fmt.Println(field.Tag.Get("patchMergeKey"), field.Tag.Get("recommendedPatchMergeKey"))
	// Output:
	// {"ports":[{"protocol":"UDP","port":53,"targetPort":"dns"}]}
	// port port,protocol
}
