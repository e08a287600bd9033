package smallmap

import (
	"math/bits"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// header is the start of the runtime's map.
type header struct {
	used   uint64 // entries, as len reports them
	seed   uintptr
	group  unsafe.Pointer // of a small map: its one group
	dirLen int            // 0 for a small map
}

// Group is the one group of a small map whose values are of one size.
type Group struct {
	p      unsafe.Pointer
	stride uintptr // a slot's bytes: the key's 16 and the value's
}

// Of returns the group of the map at m, a *map[string]V whose values V
// are valSize bytes, a multiple of eight, and 8-byte aligned; ok is
// false for a nil or empty map that has none and for a map of more than
// eight entries. Only where Readable holds.
func Of(m unsafe.Pointer, valSize uintptr) (g Group, ok bool) {
	h := *(**header)(m)
	if h == nil || h.dirLen != 0 || h.group == nil {
		return Group{}, false
	}
	return Group{h.group, 16 + valSize}, true
}

// Pair is Of of two maps of one type at a and b, ok only when both are
// small and of one length. Only where Readable holds.
func Pair(a, b unsafe.Pointer, valSize uintptr) (ga, gb Group, ok bool) {
	ha, hb := *(**header)(a), *(**header)(b)
	if ha == nil || hb == nil || ha.dirLen|hb.dirLen != 0 || ha.group == nil || hb.group == nil || ha.used != hb.used {
		return Group{}, Group{}, false
	}
	return Group{ha.group, 16 + valSize}, Group{hb.group, 16 + valSize}, true
}

// Full has the high bit of each full slot's control byte set: slots
// SlotAt reads from the lowest.
func (g Group) Full() uint64 { return ^*(*uint64)(g.p) & 0x8080808080808080 }

// SlotAt is the slot of the lowest bit of a Full mask.
func SlotAt(full uint64) uintptr { return uintptr(bits.TrailingZeros64(full)) / 8 & 7 }

// Key is slot i's key.
func (g Group) Key(i uintptr) *string { return (*string)(unsafe.Add(g.p, 8+i*g.stride)) }

// Val is slot i's value.
func (g Group) Val(i uintptr) unsafe.Pointer { return unsafe.Add(g.p, 8+i*g.stride+16) }

// Readable reports whether small maps read as groups hold the entries
// put in them, for values of one, two, seven and sixteen words, filled
// in several orders and after deletions; and whether a map past a
// group's eight entries reads as not small. Only the Go releases whose
// maps are laid out so are tried; the check compares words and follows
// no pointer read from a group, so that another layout (a map kept in
// buckets) answers false.
var Readable = sync.OnceValue(func() bool {
	v := runtime.Version()
	if !strings.HasPrefix(v, "go1.24") && !strings.HasPrefix(v, "go1.25") && !strings.HasPrefix(v, "go1.26") {
		return false
	}
	return readsAsGroup[[1]uint64]() && readsAsGroup[[2]uint64]() &&
		readsAsGroup[[7]uint64]() && readsAsGroup[[16]uint64]()
})

// readsAsGroup checks the layout of small maps of values W (Readable).
func readsAsGroup[W comparable]() bool {
	for n := range 11 {
		for _, order := range []int{1, 3, 7} {
			m, put := map[string]W{}, map[string]W{}
			for i := range n {
				var w W
				for k := range unsafe.Sizeof(w) / 8 {
					*(*uint64)(unsafe.Add(unsafe.Pointer(&w), 8*k)) = uint64(1000*n + 10*i + int(k) + 1)
				}
				k := "key" + strconv.Itoa(i*order%(n+1)) + "-" + strconv.Itoa(i)
				m[k], put[k] = w, w
			}
			if !groupHolds(m, put) {
				return false
			}
			for k := range m { // two deleted: a small map reuses their slots
				if len(m)+2 > n {
					delete(m, k)
					delete(put, k)
				}
			}
			m["again"], put["again"] = *new(W), *new(W)
			if !groupHolds(m, put) {
				return false
			}
		}
	}
	return true
}

// groupHolds reports whether m, read as a group when its header says it
// is one, holds the entries of put, which holds the same keys (the same
// strings) and values; and that a map past a group's eight entries does
// not read as one. Keys are compared by their headers: the map holds the
// strings put in it.
func groupHolds[W comparable](m, put map[string]W) bool {
	h := *(**header)(unsafe.Pointer(&m))
	if h.used != uint64(len(m)) || (len(m) > 8 && h.dirLen == 0) {
		return false
	}
	if h.dirLen != 0 {
		return true
	}
	if h.group == nil {
		return len(m) == 0
	}
	var w W
	g := Group{h.group, 16 + unsafe.Sizeof(w)}
	seen := 0
	for f := g.Full(); f != 0; f &= f - 1 {
		i := SlotAt(f)
		found := false
		for k, v := range put {
			if *(*[2]uintptr)(unsafe.Pointer(&k)) == *(*[2]uintptr)(unsafe.Pointer(g.Key(i))) {
				found = v == *(*W)(g.Val(i))
				break
			}
		}
		if !found {
			return false
		}
		seen++
	}
	return seen == len(m)
}
