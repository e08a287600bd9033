package strategicpatch

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type rsItem struct {
	Name  string            `json:"name,omitempty"`
	Args  []string          `json:"args,omitempty"`
	Items []rsItem          `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Set   []int             `json:"set,omitempty" patchStrategy:"merge"`
	Sub   *rsItem           `json:"sub,omitempty"`
	Tags  map[string]string `json:"tags,omitempty"`
	Objs  map[string]rsItem `json:"objs,omitempty"`
	Any   interface{}       `json:"any,omitempty"`
	Raw   json.RawMessage   `json:"raw,omitempty"`
}

// rawSafe is sound: where it accepts every document, the walk through
// Kubernetes' lookups and the $setElementOrder check find nothing; and it
// accepts the plain documents most patches are made of.
func TestRawSafeIsSound(t *testing.T) {
	docs := []string{
		`{}`, `null`, `{"name":"a","args":["x","y"],"tags":{"k":"v"}}`,
		`{"items":[{"name":"a","set":[1,2]},{"name":"b","sub":{"name":"c"}}]}`,
		`{"items":[{"name":"a"},{"$patch":"delete","name":"b"}],"$setElementOrder/items":[{"name":"a"}]}`,
		`{"$setElementOrder/set":[2,1],"$deleteFromPrimitiveList/set":[3],"set":[2]}`,
		`{"$retainKeys":["name"],"name":"x","sub":{"$patch":"replace","name":"y"}}`,
		`{"items":[{"set":[1]}]}`, `{"items":[{}]}`, `{"extra":{"a":1}}`, `{"extra":[1]}`, `{"extra":1}`,
		`{"objs":{"a":{"name":"x"}}}`, `{"any":{"a":1}}`, `{"raw":{"a":1}}`, `{"raw":[1]}`, `{"raw":"s"}`,
		`{"args":[["x"]]}`, `{"items":null}`, `{"args":null}`, `{"set":null,"$setElementOrder/set":[1]}`,
		`{"na\u006de":"a"}`, `{"name":"a\"b\\c"}`, `{"sub":` + strings.Repeat(`{"sub":`, 300) + `{}` + strings.Repeat(`}`, 301),
		`{"name":`, `{"name":"a",}`, `[1]`, `{"items":[1]}`, `{"tags":{"k":{"x":1}}}`,
	}
	typed, ok := typedSchema(reflect.TypeOf(rsItem{}))
	if !ok {
		t.Fatal("no typed schema")
	}
	lookup := PatchMetaFromStruct{T: reflect.TypeOf(rsItem{})}
	safe := 0
	for _, a := range docs {
		for _, b := range docs {
			for _, strict := range []bool{false, true} {
				if !rawSafe([]byte(a), typed, strict) || !rawSafe([]byte(b), typed, strict) {
					continue
				}
				safe++
				var ma, mb map[string]interface{}
				if json.Unmarshal([]byte(a), &ma) != nil || json.Unmarshal([]byte(b), &mb) != nil {
					continue // the engine reports malformed input
				}
				if err := checkWalk(lookup, []map[string]interface{}{ma, mb}); err != nil {
					t.Errorf("rawSafe accepts %s and %s, but the walk fails: %v", a, b, err)
				}
				if strict {
					if err := checkOrderLists(ma, mb, typed, nil); err != nil {
						t.Errorf("rawSafe (strict) accepts %s and %s, but the order check fails: %v", a, b, err)
					}
				}
			}
		}
	}
	for _, d := range docs[:7] {
		if !rawSafe([]byte(d), typed, false) {
			t.Errorf("rawSafe refuses the plain document %s", d)
		}
	}
	if safe == 0 {
		t.Fatal("nothing was accepted")
	}
}
