package property_test

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/property"
)

// shape returns the deepest nesting of lists and objects in v and its
// longest list.
func shape(v any) (depth, longest int) {
	switch v := v.(type) {
	case []any:
		longest = len(v)
		for _, e := range v {
			d, l := shape(e)
			depth, longest = max(depth, d), max(longest, l)
		}
		return depth + 1, longest
	case map[string]any:
		for _, e := range v {
			d, l := shape(e)
			depth, longest = max(depth, d), max(longest, l)
		}
		return depth + 1, longest
	}
	return 0, 0
}

// drawShapes draws n Pods with opts and returns the deepest nesting and
// the longest list among them.
func drawShapes(t *testing.T, n int, opts ...property.Option) (depth, longest int) {
	gen := property.Generate[exampletypes.Pod](opts...)
	for i := range n {
		pod := gen.Example(i)
		data, err := json.Marshal(pod)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		d, l := shape(v)
		depth, longest = max(depth, d), max(longest, l)
	}
	return depth, longest
}

// TestGenerateBounds: MaxLen bounds every generated list, and MaxDepth
// bounds nesting, below the default depth.
func TestGenerateBounds(t *testing.T) {
	defDepth, defLongest := drawShapes(t, 200)
	_, longest := drawShapes(t, 200, property.MaxLen(1))
	shallow, _ := drawShapes(t, 200, property.MaxDepth(2))
	t.Logf("default: depth %d, longest list %d; MaxLen(1): longest %d; MaxDepth(2): depth %d", defDepth, defLongest, longest, shallow)
	if longest > 1 || defLongest <= 1 {
		t.Errorf("longest list: %d with MaxLen(1), %d by default; want at most 1, and more by default", longest, defLongest)
	}
	if shallow > 3 || shallow >= defDepth { // an empty list or map may sit one level below the bound
		t.Errorf("deepest nesting: %d with MaxDepth(2), %d by default; want at most 3, and less than the default", shallow, defDepth)
	}
}

// TestPropertyCaseAndTest runs one property through rapid directly
// (Case) and as a subtest (Test), serially, on the JSON API only.
func TestPropertyCaseAndTest(t *testing.T) {
	props := property.Properties[exampletypes.Pod](property.Only(property.RoundTrip), property.JSONOnly(), property.Serial(), property.Checks(20))
	if len(props) != 1 || props[0].Name != property.RoundTrip {
		t.Fatalf("Only(RoundTrip) gave %d properties", len(props))
	}
	rapid.Check(t, props[0].Case)
	t.Run(props[0].Name, props[0].Test)
}
