package smp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// hugeExponentDoc is issue #14's document: a set of finalizers that are
// numbers such as 1e99999, about size bytes of them.
func hugeExponentDoc(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"metadata":{"finalizers":[`)
	for i := 1; b.Len() < size; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%de99999", i)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

// longFractionDoc holds one set element with digits fraction digits.
func longFractionDoc(digits int) []byte {
	return []byte(`{"metadata":{"finalizers":[0.` + strings.Repeat("7", digits) + `]}}`)
}

// BenchmarkHugeNumbers applies a patch to, and diffs, the documents of
// issue #14. Run with -benchtime=1x to see one operation's cost.
func BenchmarkHugeNumbers(b *testing.B) {
	patch := []byte(`{"metadata":{"finalizers":["x"]}}`)
	docs := []struct {
		name string
		doc  []byte
	}{
		{"exponents-9KB", hugeExponentDoc(9 << 10)},
		{"fraction-1M", longFractionDoc(1 << 20)},
	}
	for _, d := range docs {
		b.Run(d.name+"/apply", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := smp.ApplyJSON(d.doc, patch, &exampletypes.ConfigMap{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		modified := []byte(strings.Replace(string(d.doc), "[", `["x",`, 1))
		b.Run(d.name+"/diff", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := smp.DiffJSON(d.doc, modified, &exampletypes.ConfigMap{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNumberLength applies a patch to a set of two numbers of n
// digits: cost per byte stays flat as n grows tenfold.
func BenchmarkNumberLength(b *testing.B) {
	patch := []byte(`{"metadata":{"finalizers":["x"]}}`)
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		ds := strings.Repeat("9", n)
		docs := map[string]string{
			"exponent": "1e" + ds + ",2e-" + ds,
			"fraction": "0." + ds + ",1." + ds,
			"integer":  "1" + ds + ",-" + ds,
		}
		for _, name := range []string{"exponent", "fraction", "integer"} {
			doc := []byte(`{"metadata":{"finalizers":[` + docs[name] + `]}}`)
			b.Run(fmt.Sprintf("%s-%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := smp.ApplyJSON(doc, patch, &exampletypes.ConfigMap{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
