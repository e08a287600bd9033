package builtin_test

import (
	"fmt"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/smp"
)

// A Deployment patched by its bundled schema: containers merge by name,
// with no Go type and no Kubernetes module.
func ExampleLookup() {
	schema, err := builtin.Lookup("apps/v1", "Deployment")
	if err != nil {
		panic(err)
	}
	original := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"web:1"},{"name":"log","image":"log:1"}]}}}}`)
	patch, err := smp.DiffJSON(original,
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"web:2"},{"name":"log","image":"log:1"}]}}}}`), schema)

	if err != nil {
		panic(err)
	}
	fmt.Println(string(patch))

	// A live object holds a sidecar an admission webhook injected: it stays.
	live := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"web:1"},{"name":"log","image":"log:1"},{"name":"proxy","image":"proxy:1"}]}}}}`)
	out, err := smp.ApplyJSON(live, patch, schema)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))

	_, err = builtin.Lookup("example.com/v1", "Widget")
	fmt.Println(err)
	// Output:
	// {"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"log"}],"containers":[{"image":"web:2","name":"web"}]}}}}
	// {"spec":{"template":{"spec":{"containers":[{"image":"web:2","name":"web"},{"name":"log","image":"log:1"},{"name":"proxy","image":"proxy:1"}]}}}}
	// builtin: openapischema: apiVersion "example.com/v1" kind "Widget": unknown kind; no kind in that apiVersion; the schemas define 174 kinds in 60 apiVersions
}

func ExampleKinds() {
	n := 0
	for _, k := range builtin.Kinds() {
		if k.Group == "batch" {
			fmt.Println(k.APIVersion(), k.Kind)
		}
		n++
	}
	fmt.Println(n, "kinds")
	// Output:
	// batch/v1 CronJob
	// batch/v1 Job
	// batch/v1beta1 CronJob
	// 174 kinds
}

// Objects of a namespaced kind written without metadata.namespace go to
// the namespace of the request, as kubectl's -n or "default".
func ExampleNamespaced() {
	for _, k := range [][2]string{{"apps/v1", "Deployment"}, {"rbac.authorization.k8s.io/v1", "ClusterRole"}, {"example.com/v1", "Widget"}} {
		namespaced, ok := builtin.Namespaced(k[0], k[1])
		fmt.Println(k[1], namespaced, ok)
	}
	// Output:
	// Deployment true true
	// ClusterRole false true
	// Widget false false
}

// The bundled document read whole: a type reached from a kind, by its
// definition name, patched on its own.
func ExampleSchemas() {
	s, err := builtin.Schemas()
	if err != nil {
		panic(err)
	}
	spec := s.Definition("v1.PodSpec")
	patch, err := smp.DiffJSON(
		[]byte(`{"volumes":[{"name":"data","emptyDir":{}},{"name":"tmp","emptyDir":{}}]}`),
		[]byte(`{"volumes":[{"name":"data","emptyDir":{}}]}`), spec)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(patch))
	fmt.Println(s.Definition("v1.NoSuchThing") == nil)
	// Output:
	// {"$setElementOrder/volumes":[{"name":"data"}],"volumes":[{"$patch":"delete","name":"tmp"}]}
	// true
}
