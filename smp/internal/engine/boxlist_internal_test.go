package engine

import (
	"reflect"
	"testing"
)

// TestBoxList: each boxed list is the list given, and stays so while
// more are boxed beside it.
func TestBoxList(t *testing.T) {
	var d Differ
	var got, want []any
	for i := range 3*listsPerBlock + 1 {
		l := []any{i, "x"}
		got, want = append(got, d.boxList(l)), append(want, l)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("boxed %v, want %v", got, want)
	}
}
