package smp_test

import (
	"strconv"
	"testing"

	"github.com/typedpatch/typedpatch/smp"
)

type largeItem struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

type largeDoc struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
	Items  []largeItem       `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

// BenchmarkApplyInPlaceLarge applies a one-field patch to an object with
// a map of 100,000 entries and a merge list of 100,000 elements: in
// place, the cost is the patch's; Apply copies the object.
func BenchmarkApplyInPlaceLarge(b *testing.B) {
	const n = 100_000
	doc := largeDoc{Name: "a", Labels: make(map[string]string, n), Items: make([]largeItem, n)}
	for i := range n {
		k := strconv.Itoa(i)
		doc.Labels["k"+k] = k
		doc.Items[i] = largeItem{Name: "n" + k, Value: k}
	}
	patch, err := smp.ParsePatch([]byte(`{"name":"b"}`))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("inplace", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d := doc
			if err := smp.ApplyInPlace(&d, patch); err != nil || d.Name != "b" {
				b.Fatal(err)
			}
		}
	})
	b.Run("apply", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := smp.Apply(doc, patch); err != nil {
				b.Fatal(err)
			}
		}
	})
}
