package jsonval_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// TestBoxes: each boxed value is what a conversion to any makes, of its
// own type, and stays so while more are boxed beside it (lists over
// three blocks).
func TestBoxes(t *testing.T) {
	var b jsonval.Boxes
	var got, want []any
	for i := range 40 {
		s := fmt.Sprint("v", i)
		switch i % 3 {
		case 0:
			got, want = append(got, b.String(s)), append(want, s)
		case 1:
			got, want = append(got, b.Number(s)), append(want, json.Number(s))
		default:
			l := []any{s, i}
			got, want = append(got, b.List(l)), append(want, l)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("boxed %v, want %v", got, want)
	}
	var nb *jsonval.Boxes
	if v := nb.Number("1"); v != any(json.Number("1")) {
		t.Errorf("nil Boxes: %#v", v)
	}
}
