package smallmap

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// TestReadableOnKnownReleases: on the releases Readable tries, the check
// holds, so that the tests below read groups rather than pass vacuously.
func TestReadableOnKnownReleases(t *testing.T) {
	v := runtime.Version()
	for _, p := range []string{"go1.24", "go1.25", "go1.26"} {
		if strings.HasPrefix(v, p) && !Readable() {
			t.Fatalf("%s: small maps do not read as groups", v)
		}
	}
}

// TestGroupHoldsWhatRangeGives: a map of up to eight entries, filled and
// emptied in any order, reads as a group holding exactly the entries
// ranging gives; a larger one does not read as a group.
func TestGroupHoldsWhatRangeGives(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfNDistinct(rapid.String(), 0, 12, rapid.ID).Draw(t, "keys")
		m := map[string]any{}
		for i, k := range keys {
			m[k] = i
		}
		for _, k := range rapid.SliceOfN(rapid.SampledFrom(append(keys, "absent")), 0, 4).Draw(t, "deleted") {
			delete(m, k)
		}
		if !Readable() {
			return
		}
		g, ok := Of(unsafe.Pointer(&m), 16)
		if !ok {
			if len(keys) <= 8 && len(m) > 0 {
				t.Fatalf("a map of %d entries (of at most 8 put) does not read as a group", len(m))
			}
			return
		}
		if len(keys) > 8 {
			t.Fatalf("a map that held %d entries reads as a group", len(keys))
		}
		got := map[string]any{}
		for f := g.Full(); f != 0; f &= f - 1 {
			i := SlotAt(f)
			got[*g.Key(i)] = *(*any)(g.Val(i))
		}
		if len(got) != len(m) {
			t.Fatalf("group holds %d entries, the map %d", len(got), len(m))
		}
		for k, v := range m {
			if gv, ok := got[k]; !ok || gv != v {
				t.Fatalf("key %q: group holds %v (%v), the map %v", k, gv, ok, v)
			}
		}
	})
}
