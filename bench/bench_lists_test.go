package bench

import (
	"fmt"
	"strconv"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/smp"
)

// Long lists: how each engine grows with the list length N. Kubernetes
// matches merge-list elements by scanning (O(N²)); at N = 10000 one call
// takes seconds, so its largest cases run once even at the default
// -benchtime. Select sizes with -bench 'MapList/apply/n=1000$' (the $
// keeps n=10000 out).

// benchListSizes are the list lengths measured.
var benchListSizes = []int{10, 100, 1000, 10000}

// multiKeySize is the list length of the multi-field key benchmarks.
const multiKeySize = 1000

type kv struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// mapListDoc holds a merge list keyed by name.
type mapListDoc struct {
	Items []kv `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

// primitiveListDoc holds a merge list of strings (a set).
type primitiveListDoc struct {
	Items []string `json:"items,omitempty" patchStrategy:"merge"`
}

type listener struct {
	Port     int32  `json:"port"`
	Protocol string `json:"protocol"`
	Name     string `json:"name,omitempty"`
}

// multiKeyDoc holds a list keyed by (port, protocol).
type multiKeyDoc struct {
	Listeners []listener `json:"listeners,omitempty" patchStrategy:"merge" patchMergeKey:"port,protocol"`
}

// recommendedKeyDoc holds a list keyed by port by default and by (port,
// protocol) under $patchMergeKey, as corev1.ContainerPort could be.
type recommendedKeyDoc struct {
	Ports []listener `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"port" recommendedPatchMergeKey:"port,protocol"`
}

func mapList(n int, value string) *mapListDoc {
	d := &mapListDoc{Items: make([]kv, n)}
	for i := range d.Items {
		d.Items[i] = kv{Name: "key-" + strconv.Itoa(i), Value: value + strconv.Itoa(i)}
	}
	return d
}

// BenchmarkMapList measures a merge list of N {name, value} objects:
//
//	apply       a patch that changes every element's value
//	twoway      the diff of two lists whose every value differs
//	applyorder  the twoway patch applied: every value and the full
//	            $setElementOrder list
//
// Besides ours, k8s and bare, apply and twoway have an rfc7386 row:
// evanphx/json-patch v5's MergePatch of the same patch (which replaces
// the list whole, to the same result) and CreateMergePatch of the same
// documents (a patch of the whole modified list). RFC 7386 has no
// element order to apply, so applyorder has none.
func BenchmarkMapList(b *testing.B) {
	schema := &mapListDoc{}
	for _, n := range benchListSizes {
		original := marshal(b, mapList(n, "old-"))
		modified := marshal(b, mapList(n, "new-"))
		// The patch of apply lists every element, in order, without
		// $setElementOrder.
		patch := marshal(b, mapList(n, "new-"))
		twoWay := must[[]byte](b)(smp.DiffJSON(original, modified, schema))
		if n <= 1000 { // Kubernetes takes seconds beyond.
			sameJSON(b, "two-way", twoWay, must[[]byte](b)(k8s.CreateTwoWayMergePatch(original, modified, schema)))
			sameJSON(b, "apply", must[[]byte](b)(smp.ApplyJSON(original, patch, schema)),
				must[[]byte](b)(k8s.StrategicMergePatch(original, patch, schema)))
			sameJSON(b, "apply with order", must[[]byte](b)(smp.ApplyJSON(original, twoWay, schema)),
				must[[]byte](b)(k8s.StrategicMergePatch(original, twoWay, schema)))
		}
		checkRFC7386List(b, original, modified, patch)
		size := fmt.Sprintf("n=%d", n)

		b.Run("apply/"+size+"/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.ApplyJSON(original, patch, schema) })
		})
		b.Run("apply/"+size+"/rfc7386", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return jsonpatch.MergePatch(original, patch) })
		})
		b.Run("apply/"+size+"/k8s", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return k8s.StrategicMergePatch(original, patch, schema) })
		})
		b.Run("apply/"+size+"/bare", func(b *testing.B) {
			benchBare(b, [][]byte{original, patch}, modified)
		})

		b.Run("twoway/"+size+"/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.DiffJSON(original, modified, schema) })
		})
		b.Run("twoway/"+size+"/k8s", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return k8s.CreateTwoWayMergePatch(original, modified, schema) })
		})
		b.Run("twoway/"+size+"/rfc7386", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return jsonpatch.CreateMergePatch(original, modified) })
		})
		b.Run("twoway/"+size+"/bare", func(b *testing.B) {
			benchBare(b, [][]byte{original, modified}, twoWay)
		})

		b.Run("applyorder/"+size+"/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.ApplyJSON(original, twoWay, schema) })
		})
		b.Run("applyorder/"+size+"/k8s", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return k8s.StrategicMergePatch(original, twoWay, schema) })
		})
		b.Run("applyorder/"+size+"/bare", func(b *testing.B) {
			benchBare(b, [][]byte{original, twoWay}, modified)
		})
	}
}

// checkRFC7386List fails the benchmark unless RFC 7386's rows of
// BenchmarkMapList do their work: MergePatch of the patch gives what
// ApplyJSON gives, and CreateMergePatch's patch turns original into
// modified.
func checkRFC7386List(tb testing.TB, original, modified, patch []byte) {
	tb.Helper()
	schema := &mapListDoc{}
	sameJSON(tb, "RFC 7386 apply", must[[]byte](tb)(jsonpatch.MergePatch(original, patch)),
		must[[]byte](tb)(smp.ApplyJSON(original, patch, schema)))
	rfcTwoWay := must[[]byte](tb)(jsonpatch.CreateMergePatch(original, modified))
	sameJSON(tb, "RFC 7386 two-way applied", must[[]byte](tb)(jsonpatch.MergePatch(original, rfcTwoWay)), modified)
}

// BenchmarkPrimitiveList measures a merge list of N strings:
//
//	apply   a $deleteFromPrimitiveList of every other element (N/2)
//	twoway  the diff that removes every other element
func BenchmarkPrimitiveList(b *testing.B) {
	schema := &primitiveListDoc{}
	for _, n := range benchListSizes {
		all := &primitiveListDoc{}
		half := &primitiveListDoc{}
		var deleted []string
		for i := range n {
			s := "item-" + strconv.Itoa(i)
			all.Items = append(all.Items, s)
			if i%2 == 1 {
				deleted = append(deleted, s)
			} else {
				half.Items = append(half.Items, s)
			}
		}
		original, modified := marshal(b, all), marshal(b, half)
		patch := marshal(b, map[string][]string{"$deleteFromPrimitiveList/items": deleted})
		twoWay := must[[]byte](b)(smp.DiffJSON(original, modified, schema))
		if n <= 1000 {
			sameJSON(b, "two-way", twoWay, must[[]byte](b)(k8s.CreateTwoWayMergePatch(original, modified, schema)))
			sameJSON(b, "apply", must[[]byte](b)(smp.ApplyJSON(original, patch, schema)),
				must[[]byte](b)(k8s.StrategicMergePatch(original, patch, schema)))
		}
		size := fmt.Sprintf("n=%d", n)

		b.Run("apply/"+size+"/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.ApplyJSON(original, patch, schema) })
		})
		b.Run("apply/"+size+"/k8s", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return k8s.StrategicMergePatch(original, patch, schema) })
		})
		b.Run("apply/"+size+"/bare", func(b *testing.B) {
			benchBare(b, [][]byte{original, patch}, modified)
		})

		b.Run("twoway/"+size+"/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.DiffJSON(original, modified, schema) })
		})
		b.Run("twoway/"+size+"/k8s", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return k8s.CreateTwoWayMergePatch(original, modified, schema) })
		})
		b.Run("twoway/"+size+"/bare", func(b *testing.B) {
			benchBare(b, [][]byte{original, modified}, twoWay)
		})
	}
}

// BenchmarkMultiKey measures lists keyed by several fields, which
// Kubernetes does not support; ours is compared with the bare baseline
// only. Ports 1000..1499 each appear with TCP and UDP, so the default key
// of the recommended style is shared by two elements.
//
//	apply   the twoway patch applied
//	twoway  the diff of two lists whose every name differs
func BenchmarkMultiKey(b *testing.B) {
	build := func(name string) []listener {
		ls := make([]listener, multiKeySize)
		for i := range ls {
			proto := "TCP"
			if i%2 == 1 {
				proto = "UDP"
			}
			ls[i] = listener{Port: int32(1000 + i/2), Protocol: proto, Name: name + strconv.Itoa(i)}
		}
		return ls
	}
	for _, style := range []struct {
		name   string
		schema any
		doc    func([]listener) any
	}{
		{"key=port+protocol", &multiKeyDoc{}, func(ls []listener) any { return &multiKeyDoc{Listeners: ls} }},
		{"key=recommended", &recommendedKeyDoc{}, func(ls []listener) any { return &recommendedKeyDoc{Ports: ls} }},
	} {
		original := marshal(b, style.doc(build("old-")))
		modified := marshal(b, style.doc(build("new-")))
		twoWay := must[[]byte](b)(smp.DiffJSON(original, modified, style.schema))
		applied := must[[]byte](b)(smp.ApplyJSON(original, twoWay, style.schema))
		sameJSON(b, "round trip", applied, modified)
		prefix := fmt.Sprintf("%s/%%s/n=%d/", style.name, multiKeySize)
		schema := style.schema

		b.Run(fmt.Sprintf(prefix, "apply")+"ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.ApplyJSON(original, twoWay, schema) })
		})
		b.Run(fmt.Sprintf(prefix, "apply")+"bare", func(b *testing.B) {
			benchBare(b, [][]byte{original, twoWay}, modified)
		})
		b.Run(fmt.Sprintf(prefix, "twoway")+"ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.DiffJSON(original, modified, schema) })
		})
		b.Run(fmt.Sprintf(prefix, "twoway")+"bare", func(b *testing.B) {
			benchBare(b, [][]byte{original, modified}, twoWay)
		})
	}
}
