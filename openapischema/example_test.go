package openapischema_test

import (
	"fmt"

	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/smp"
)

// A CustomResourceDefinition's list-type map becomes a merge list keyed by
// its list-map keys: the live object's extra port, with the same number
// and another protocol, survives the patch.
func Example() {
	crd := []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gameservers.example.com}
spec:
  group: example.com
  names: {kind: GameServer, plural: gameservers}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [port, protocol]
                  properties:
                    port: {type: integer, format: int32}
                    protocol: {type: string}
                    name: {type: string}
`)
	schemas, err := openapischema.Read(crd)
	if err != nil {
		panic(err)
	}
	gs, err := schemas.Lookup("example.com/v1", "GameServer")
	if err != nil {
		panic(err)
	}

	original := []byte(`{"spec":{"ports":[{"port":7777,"protocol":"UDP","name":"game"}]}}`)
	modified := []byte(`{"spec":{"ports":[{"port":7777,"protocol":"UDP","name":"game-udp"}]}}`)
	live := []byte(`{"spec":{"ports":[{"port":7777,"protocol":"UDP","name":"game"},{"port":7777,"protocol":"TCP","name":"game-tcp"}]}}`)

	patch, err := smp.DiffJSON(original, modified, gs)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(patch))
	merged, err := smp.ApplyJSON(live, patch, gs)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(merged))

	_, err = smp.ApplyJSON(live, []byte(`{"spec":{"ports":[{"port":"7777","protocol":"UDP"}]}}`), gs)
	fmt.Println(err)
	// Output:
	// {"spec":{"$setElementOrder/ports":[{"port":7777,"protocol":"UDP"}],"ports":[{"name":"game-udp","port":7777,"protocol":"UDP"}]}}
	// {"spec":{"ports":[{"name":"game-udp","port":7777,"protocol":"UDP"},{"port":7777,"protocol":"TCP","name":"game-tcp"}]}}
	// spec.ports[port=7777,protocol=UDP].port: expected an integer for int32, found a string
}
