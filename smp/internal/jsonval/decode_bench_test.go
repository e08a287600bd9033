package jsonval

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkDecode compares DecodeLimited (the one-pass decoder, limits
// included) with encoding/json's decode and the limits walk it replaces,
// on a merge list of n {name, value} objects.
func BenchmarkDecode(b *testing.B) {
	for _, n := range []int{10, 10000} {
		var sb strings.Builder
		sb.WriteString(`{"items":[`)
		for i := range n {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"name":"item-%d","value":"new-%d","weight":%d}`, i, i, i)
		}
		sb.WriteString(`]}`)
		data := []byte(sb.String())
		l := DefaultLimits()
		for _, impl := range []struct {
			name string
			f    func() error
		}{
			{"ours", func() error { _, err := DecodeLimited(data, "doc", l); return err }},
			{"encoding-json", func() error { _, err := slowDecode(data, l); return err }},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, impl.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := impl.f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEncode compares AppendJSON with encoding/json on the decoded
// merge list of BenchmarkDecode.
func BenchmarkEncode(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"items":[`)
	for i := range 10000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"item-%d","value":"new-%d","weight":%d}`, i, i, i)
	}
	sb.WriteString(`]}`)
	v, err := DecodeLimited([]byte(sb.String()), "doc", DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	for _, impl := range []struct {
		name string
		f    func() error
	}{
		{"ours", func() error { _, err := AppendJSON(nil, v); return err }},
		{"encoding-json", func() error { _, err := json.Marshal(v); return err }},
	} {
		b.Run("n=10000/"+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := impl.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
