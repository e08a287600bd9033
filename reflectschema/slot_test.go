package reflectschema_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/typedpatch/typedpatch/reflectschema"
)

type posVolume struct {
	Name     string            `json:"name"`
	HostPath *string           `json:"hostPath,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
}

type posPod struct {
	Volumes []posVolume `json:"volumes,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	Tags    []string    `json:"tags,omitempty" patchStrategy:"merge"`
	Args    []string    `json:"args,omitempty"`
	Extra   any         `json:"extra,omitempty"`
	Port    int         `json:"port,string,omitempty"`
}

func ExampleSlot() {
	t, _ := reflectschema.Of(reflect.TypeFor[posPod]())
	vol := reflectschema.Slot{Type: t}.Child("volumes")
	fmt.Println(vol.Kind(), vol.IsMergeList(), vol.IsObjectList(), vol.Patch.MergeKey)
	el := vol.Elem()
	fmt.Println(el.Kind(), el.Patch.RetainKeys, el.Child("labels").Child("any").Kind())
	fmt.Println(reflectschema.Slot{Type: t}.Child("nope").Undeclared)
	// Output:
	// list true true [name]
	// struct true scalar
	// true
}

func TestSlot(t *testing.T) {
	root, err := reflectschema.Of(reflect.TypeFor[posPod]())
	if err != nil {
		t.Fatal(err)
	}
	p := reflectschema.Slot{Type: root}
	for _, tc := range []struct {
		name                       string
		got                        reflectschema.Slot
		kind                       reflectschema.Kind
		mergeList, objects, undecl bool
	}{
		{"set", p.Child("tags"), reflectschema.List, true, false, false},
		{"atomic list", p.Child("args"), reflectschema.List, false, false, false},
		{"untyped", p.Child("extra"), reflectschema.Untyped, false, false, false},
		{"under untyped", p.Child("extra").Child("a"), reflectschema.Untyped, false, false, false},
		{"element of a list that does not merge", p.Child("args").Elem(), reflectschema.Scalar, false, false, false},
		{"undeclared", p.Child("x"), reflectschema.Untyped, false, false, true},
		{"under undeclared", p.Child("x").Child("y"), reflectschema.Untyped, false, false, false},
	} {
		g := tc.got
		if g.Kind() != tc.kind || g.IsMergeList() != tc.mergeList || g.IsObjectList() != tc.objects || g.Undeclared != tc.undecl {
			t.Errorf("%s: kind %v, merge list %v, objects %v, undeclared %v", tc.name, g.Kind(), g.IsMergeList(), g.IsObjectList(), g.Undeclared)
		}
	}
	if !p.Child("port").Quoted {
		t.Error(`port: want Quoted for json ",string"`)
	}
	if p.Child("args").Elem().Patch.RetainKeys || !p.Child("volumes").Elem().Patch.RetainKeys {
		t.Error("only a merge list with retainKeys gives its elements retainKeys")
	}
	open := &reflectschema.Type{Kind: reflectschema.Struct, PreserveUnknown: true}
	if (reflectschema.Slot{Type: open}).Child("x").Undeclared {
		t.Error("a struct that preserves unknown fields has no undeclared field")
	}
}
