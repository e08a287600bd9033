package openapischema_test

import (
	"errors"
	"os"
	"testing"

	"github.com/typedpatch/typedpatch/openapischema"
	rs "github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// FuzzRead feeds schema documents and JSON documents: Read never panics
// and fails only with an *Error; every schema it reads drives DiffJSON,
// ApplyJSON and ThreeWayJSON without a panic, failing only with an
// *smp.Error. The seeds are large: run it with -fuzzminimizetime 2s, or
// minimizing an interesting input takes most of the time.
var fuzzSeeds = []string{"rollout-crd.yaml", "httproute-crd.yaml", "certificate-crd.yaml", "openapi-v2.json", "openapi-v3.yaml"}

func FuzzRead(f *testing.F) {
	for _, file := range fuzzSeeds {
		data, err := os.ReadFile("testdata/" + file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, []byte(`{"spec":{"a":[{"name":"x","v":1}]}}`), []byte(`{"spec":{"a":[{"name":"y"}],"b":null}}`))
	}
	f.Add([]byte(`{"swagger":"2.0","definitions":{"a":{"type":"object","x-kubernetes-group-version-kind":[{"group":"","version":"v1","kind":"A"}],"properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"$ref":"#/definitions/a"}},"k":{"type":"string"}}}}}`),
		[]byte(`{"l":[{"k":"1","l":[{"k":"2"}]}]}`), []byte(`{"l":[{"k":"1","l":[{"k":"3"}]},{"k":"4"}]}`))
	f.Add([]byte("openapi: 3.0.0\ncomponents: {schemas: {a: {x-kubernetes-group-version-kind: [{version: v1, kind: A}], properties: {s: {type: array, x-kubernetes-list-type: set, items: {type: integer, format: int32}}}}}}"),
		[]byte(`{"s":[1,2]}`), []byte(`{"s":[2,3]}`))
	f.Fuzz(func(t *testing.T, schema, a, b []byte) {
		s, err := openapischema.Read(schema)
		if err != nil {
			var e *openapischema.Error
			if !errors.As(err, &e) {
				t.Fatalf("Read: %T %v", err, err)
			}
			return
		}
		var types []*rs.Type
		for _, g := range s.Kinds() {
			st, err := s.Lookup(g.APIVersion(), g.Kind)
			if err != nil {
				t.Fatalf("%s %s is listed by Kinds: %v", g.APIVersion(), g.Kind, err)
			}
			types = append(types, st)
		}
		for _, name := range s.Definitions() {
			types = append(types, s.Definition(name))
		}
		for _, st := range types[:min(len(types), 4)] {
			p, err := smp.DiffJSON(a, b, st)
			checkErr(t, err)
			if err == nil {
				_, err = smp.ApplyJSON(a, p, st)
				checkErr(t, err)
			}
			_, err = smp.ApplyJSON(a, b, st)
			checkErr(t, err)
			_, err = smp.ThreeWayJSON(a, b, a, st)
			checkErr(t, err)
		}
	})
}

func checkErr(t *testing.T, err error) {
	t.Helper()
	var e *smp.Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("%T %v", err, err)
	}
}
