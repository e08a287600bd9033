package jsonval

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestDecodeFastSlabBlocks: documents whose strings, numbers and lists
// fill many blocks, lists longer than a block included, decode as
// encoding/json decodes them.
func TestDecodeFastSlabBlocks(t *testing.T) {
	for _, n := range []int{1, 7, 9, 40, 300, 3000} {
		var sb strings.Builder
		sb.WriteString(`{"items":[`)
		for i := range n {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"name":"item-%d","n":%d,"l":[%s],"e":[]}`, i, i, strings.Repeat(`"x",`, i%50)+`-1.5`)
		}
		fmt.Fprintf(&sb, `],"long":[%s"end"]}`, strings.Repeat(`1,"s",`, n))
		checkDecode(t, []byte(sb.String()), Limits{})
	}
}

// TestDecodeFastListsDoNotShareCapacity: appending to a decoded list
// copies it rather than writing over its neighbour in the block.
func TestDecodeFastListsDoNotShareCapacity(t *testing.T) {
	m, ok := decodeFast([]byte(`{"l":[["x"],["y"]],"n":["a","b"]}`), Limits{})
	if !ok {
		t.Fatal("declined")
	}
	l := m["l"].([]any)
	_ = append(l[0].([]any), "over")
	_ = append(l, "over")
	want := map[string]any{"l": []any{[]any{"x"}, []any{"y"}}, "n": []any{"a", "b"}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("after appending to a list: %#v", m)
	}
}

// TestDecodeFastAllocations: the strings, numbers and lists of a document
// share a few blocks instead of an allocation each.
func TestDecodeFastAllocations(t *testing.T) {
	data := []byte(`{"l":[` + strings.Repeat(`["s",1],`, 50) + `"end"]}`)
	allocs := testing.AllocsPerRun(10, func() {
		if _, ok := decodeFast(data, Limits{}); !ok {
			t.Fatal("declined")
		}
	})
	// Without the blocks: 151 lists (their elements and headers), 101
	// strings, 50 numbers.
	if allocs > 20 {
		t.Fatalf("%v allocations", allocs)
	}
}

// TestDecodeFastValuesSurviveGC: a value boxed in a slab keeps its block
// alive through collections, with nothing else referring to the block.
func TestDecodeFastValuesSurviveGC(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"l":[`)
	for i := range 2000 {
		fmt.Fprintf(&sb, `["s-%d",%d],`, i, i)
	}
	sb.WriteString(`"end"]}`)
	m, ok := decodeFast([]byte(sb.String()), Limits{})
	if !ok {
		t.Fatal("declined")
	}
	kept := m["l"].([]any)[1234].([]any)
	m = nil
	for range 3 {
		runtime.GC()
		garbage := make([][]string, 1000)
		for i := range garbage {
			garbage[i] = make([]string, 16)
			for j := range garbage[i] {
				garbage[i][j] = "garbage"
			}
		}
		runtime.KeepAlive(garbage)
	}
	if want := []any{"s-1234", json.Number("1234")}; !reflect.DeepEqual(kept, want) {
		t.Fatalf("after collections: %#v", kept)
	}
}
