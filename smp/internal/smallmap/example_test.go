package smallmap_test

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/smallmap"
)

// A map of up to eight entries read in its group: its keys, without
// ranging over it; ranged over where the layout is not known.
func ExampleOf() {
	m := map[string]any{"name": "nginx", "image": "nginx:1.27"}
	var keys []string
	if g, ok := group(m); ok {
		for f := g.Full(); f != 0; f &= f - 1 {
			keys = append(keys, *g.Key(smallmap.SlotAt(f)))
		}
	} else {
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	fmt.Println(keys)
	// Output: [image name]
}

func group(m map[string]any) (smallmap.Group, bool) {
	if !smallmap.Readable() {
		return smallmap.Group{}, false
	}
	return smallmap.Of(unsafe.Pointer(&m), unsafe.Sizeof(any(nil)))
}
