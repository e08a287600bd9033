package typedwalk_test

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/typedwalk"
)

// TestEqualAndEmpty checks, on a populated sample of every fixtures type,
// that Diff of a value with its copy is empty and that Apply of the empty
// patch returns an equal value in a new root.
func TestEqualAndEmpty(t *testing.T) {
	for _, name := range exampletypes.Names() {
		a, _ := fixtures.Sample(name)
		b, _ := fixtures.Sample(name)
		typ := reflect.TypeOf(a).Elem()
		root, err := goval.RootFor(typ)
		if err != nil {
			t.Fatal(err)
		}
		av, bv := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
		p, err := typedwalk.Diff(root, av, bv, config())
		if err != nil || len(p) != 0 {
			t.Fatalf("%s: Diff of equal values = %v, %v; want an empty patch", name, p, err)
		}
		out, err := typedwalk.Apply(root, av, map[string]any{}, config())
		if err != nil {
			t.Fatalf("%s: Apply of the empty patch: %v", name, err)
		}
		if diff := cmp.Diff(av.Interface(), out.Elem().Interface()); diff != "" {
			t.Fatalf("%s: Apply of the empty patch changed the value (-want +got):\n%s", name, diff)
		}
		if out.Pointer() == reflect.ValueOf(a).Pointer() {
			t.Fatalf("%s: Apply returned the original", name)
		}
	}
}
