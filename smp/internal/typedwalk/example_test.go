package typedwalk_test

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
	"github.com/typedpatch/typedpatch/smp/internal/typedwalk"
)

type port struct {
	Name string `json:"name"`
	Port int    `json:"port"`
}

type service struct {
	Ports []port `json:"ports" patchStrategy:"merge" patchMergeKey:"name"`
}

func config() *engine.Config {
	return &engine.Config{Directives: format.DirectivesAll, Limits: jsonval.DefaultLimits().Bounded()}
}

// Diff walks two Go values and writes only what changed, naming the
// changed element of a merge list by its key; Apply merges it back.
func ExampleDiff() {
	root, err := goval.RootFor(reflect.TypeFor[service]())
	if err != nil {
		panic(err)
	}
	o := service{Ports: []port{{"http", 80}, {"metrics", 9090}}}
	m := service{Ports: []port{{"http", 8080}, {"metrics", 9090}}}
	p, err := typedwalk.Diff(root, reflect.ValueOf(o), reflect.ValueOf(m), config())
	b, _ := json.Marshal(p)
	fmt.Println(string(b), err)

	out, err := typedwalk.Apply(root, reflect.ValueOf(o), p, config())
	fmt.Println(out.Elem().Interface(), err)
	// Output:
	// {"$setElementOrder/ports":[{"name":"http"},{"name":"metrics"}],"ports":[{"name":"http","port":8080}]} <nil>
	// {[{http 8080} {metrics 9090}]} <nil>
}
