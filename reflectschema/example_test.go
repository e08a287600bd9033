package reflectschema_test

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// A cut-down Kubernetes PodSpec.
type PodSpec struct {
	Volumes      []Volume          `json:"volumes,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	Containers   []Container       `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	Finalizers   []string          `json:"finalizers,omitempty" patchStrategy:"merge"`
	HostNetwork  bool              `json:"hostNetwork,omitempty"`
}

type Volume struct {
	Name         string `json:"name"`
	VolumeSource `json:",inline"`
}

type VolumeSource struct {
	HostPath *HostPathVolumeSource `json:"hostPath,omitempty"`
	EmptyDir *EmptyDirVolumeSource `json:"emptyDir,omitempty"`
}

type HostPathVolumeSource struct {
	Path string `json:"path"`
}

type EmptyDirVolumeSource struct {
	Medium string `json:"medium,omitempty"`
}

type Container struct {
	Name  string          `json:"name"`
	Args  []string        `json:"args,omitempty"`
	Ports []ContainerPort `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"containerPort" recommendedPatchMergeKey:"containerPort,protocol"`
}

type ContainerPort struct {
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol,omitempty"`
}

func ExampleOf() {
	spec, err := reflectschema.Of(reflect.TypeFor[PodSpec]())
	if err != nil {
		panic(err)
	}
	for _, f := range spec.Fields {
		fmt.Printf("%-12s %-6s strategy=%q key=%v\n", f.Name, f.Type.Kind, f.Patch.StrategyTag(), f.Patch.MergeKey)
	}

	ports := spec.Field("containers").Type.Elem.Field("ports")
	fmt.Println("ports:", ports.Patch.MergeKey, ports.Patch.RecommendedMergeKey)

	// Volume inlines VolumeSource.
	volume := spec.Field("volumes").Type.Elem
	for _, f := range volume.Fields {
		fmt.Println("volume field:", f.Name, f.GoName, f.Index)
	}
	// Output:
	// volumes      list   strategy="merge,retainKeys" key=[name]
	// containers   list   strategy="merge" key=[name]
	// nodeSelector map    strategy="" key=[]
	// finalizers   list   strategy="merge" key=[]
	// hostNetwork  scalar strategy="" key=[]
	// ports: [containerPort] [containerPort protocol]
	// volume field: name Name [0]
	// volume field: hostPath VolumeSource.HostPath [1 0]
	// volume field: emptyDir VolumeSource.EmptyDir [1 1]
}

func ExampleOpenAPI() {
	root, schemas := reflectschema.OpenAPI(must(reflectschema.For[Container]()))
	ports := schemas[root]["properties"].(map[string]any)["ports"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(ports)) {
		fmt.Printf("%s: %v\n", k, ports[k])
	}
	// Output:
	// items: map[$ref:#/components/schemas/reflectschema_test.ContainerPort]
	// type: array
	// x-kubernetes-patch-merge-key: containerPort
	// x-kubernetes-patch-strategy: merge
	// x-kubernetes-recommended-patch-merge-key: containerPort,protocol
}

func ExampleField_Extensions() {
	spec := must(reflectschema.For[PodSpec]())
	ext := spec.Field("volumes").Extensions()
	fmt.Println(ext[reflectschema.ExtPatchStrategy])
	fmt.Println(ext[reflectschema.ExtPatchMergeKey])
	fmt.Println(len(spec.Field("hostNetwork").Extensions()))
	// Output:
	// merge,retainKeys
	// name
	// 0
}

func ExampleType_Field() {
	spec := must(reflectschema.For[PodSpec]())
	fmt.Println(spec.Field("nodeSelector").GoName)
	fmt.Println(spec.Field("NodeSelector").GoName) // case-insensitive fallback
	fmt.Println(spec.Field("selector") == nil)
	// Output:
	// NodeSelector
	// NodeSelector
	// true
}

func ExampleOfValue() {
	st, err := reflectschema.OfValue(&PodSpec{})
	fmt.Println(st, err)

	_, err = reflectschema.OfValue([]string{"not", "a", "struct"})
	var e *reflectschema.Error
	fmt.Println(errors.As(err, &e), e.Rule)
	// Output:
	// reflectschema_test.PodSpec <nil>
	// true notStruct
}

// ServiceSpec merges ports by a key field that does not exist.
type ServiceSpec struct {
	Ports []ContainerPort `json:"ports" patchStrategy:"merge" patchMergeKey:"port"`
}

func ExampleError() {
	_, err := reflectschema.For[ServiceSpec]()
	var e *reflectschema.Error
	if errors.As(err, &e) {
		fmt.Println(e.Type, e.Field, e.Rule)
	}
	// Output:
	// reflectschema_test.ServiceSpec Ports mergeKey
}

// Deployment carries tags Kubernetes ignores: a merge key on a struct
// field, and on a list of strings.
type Deployment struct {
	Template PodSpec  `json:"template" patchStrategy:"merge" patchMergeKey:"name"`
	Owners   []string `json:"owners" patchStrategy:"merge" patchMergeKey:"name"`
}

func ExampleVet() {
	// Of accepts the type, ignoring the tags that have no effect.
	st := must(reflectschema.For[Deployment]())
	p := st.Field("template").Patch
	fmt.Printf("template: strategy %q, merge key %v\n", p.StrategyTag(), p.MergeKey)

	findings, err := reflectschema.Vet(reflect.TypeFor[Deployment]())
	if err != nil {
		panic(err)
	}
	for _, f := range findings {
		fmt.Println(f.Path, f.Tag)
		fmt.Println("  ", f.Reason)
	}
	// Output:
	// template: strategy "", merge key []
	// template patchStrategy:"merge"
	//    merge has no effect: objects merge by default
	// template patchMergeKey:"name"
	//    merge keys identify list elements; this is a struct field
	// owners patchMergeKey:"name"
	//    merge keys identify objects; the elements are scalars (string)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
