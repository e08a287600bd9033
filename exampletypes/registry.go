package exampletypes

import (
	"reflect"
	"slices"
)

// registry maps a type's Go name to the type: the top-level objects, the
// parts of them worth patching on their own, and the seed types.
var registry = index(
	reflect.TypeFor[Pod](),
	reflect.TypeFor[PodSpec](),
	reflect.TypeFor[PodStatus](),
	reflect.TypeFor[Container](),
	reflect.TypeFor[ContainerStatus](),
	reflect.TypeFor[ContainerState](),
	reflect.TypeFor[Volume](),
	reflect.TypeFor[Probe](),
	reflect.TypeFor[ObjectMeta](),
	reflect.TypeFor[Service](),
	reflect.TypeFor[ServiceSpec](),
	reflect.TypeFor[Deployment](),
	reflect.TypeFor[DeploymentSpec](),
	reflect.TypeFor[DeploymentStrategy](),
	reflect.TypeFor[ConfigMap](),
	reflect.TypeFor[Gateway](),
	reflect.TypeFor[GatewaySpec](),
	reflect.TypeFor[SeedRecommended](),
	reflect.TypeFor[SeedRecommendedBaz](),
	reflect.TypeFor[SeedMultiKey](),
	reflect.TypeFor[SeedUnion](),
	reflect.TypeFor[SeedDiscriminatedUnion](),
	reflect.TypeFor[SeedOrderedList](),
	reflect.TypeFor[SeedOrderedSet](),
	reflect.TypeFor[SeedMergeKeyList](),
)

// index keys types by name; a name registered twice panics.
func index(types ...reflect.Type) map[string]reflect.Type {
	byName := make(map[string]reflect.Type, len(types))
	for _, t := range types {
		name := t.Name()
		if _, dup := byName[name]; dup {
			panic("exampletypes: type " + name + " registered twice")
		}
		byName[name] = t
	}
	return byName
}

// Lookup returns a pointer to a new zero value of the registered type with
// that name, such as *Pod for "Pod".
func Lookup(name string) (any, bool) {
	t, ok := registry[name]
	if !ok {
		return nil, false
	}
	return reflect.New(t).Interface(), true
}

// TypeOf returns the registered type with that name; it is a struct type,
// not a pointer.
func TypeOf(name string) (reflect.Type, bool) {
	t, ok := registry[name]
	return t, ok
}

// Names returns the registered names, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
