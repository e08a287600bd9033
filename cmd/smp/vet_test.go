package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// vetItem carries the tags Kubernetes' own test type does on a pointer to
// a struct, and a merge key on a list of strings: neither has an effect.
type vetItem struct {
	Name  string    `json:"name"`
	Ptr   *vetItem  `json:"ptr,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Names []string  `json:"names,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Items []vetItem `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

func TestPrintFindings(t *testing.T) {
	findings, err := reflectschema.Vet(reflect.TypeFor[vetItem]())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	printFindings(&b, "vetItem", findings)
	want := `ptr (main.vetItem.Ptr): patchStrategy:"merge": merge has no effect: objects merge by default
ptr (main.vetItem.Ptr): patchMergeKey:"name": merge keys identify list elements; this is a struct field
names (main.vetItem.Names): patchMergeKey:"name": merge keys identify objects; the elements are scalars (string)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	b.Reset()
	printFindings(&b, "Pod", nil)
	if got := b.String(); got != "no findings: every patch tag of Pod has an effect\n" {
		t.Errorf("without findings: got %q", got)
	}
}

// TestVetEveryType runs vet on every type --type names: each is accepted,
// and the example types carry no tag without effect.
func TestVetEveryType(t *testing.T) {
	for _, name := range typeNames() {
		stdout, stderr, exit := runInProcess([]string{"vet", "--type", name}, "")
		if exit != exitOK || stderr != "" {
			t.Errorf("smp vet --type %s: exit status %d, stderr %q", name, exit, stderr)
		}
		if want := "no findings: every patch tag of " + name + " has an effect\n"; stdout != want {
			t.Errorf("smp vet --type %s printed %q, want %q", name, stdout, want)
		}
	}
}
