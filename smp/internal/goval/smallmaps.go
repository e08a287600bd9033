package goval

import (
	"math/bits"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// A small map keyed by strings is compared here in its own memory,
// without ranging over it (which draws a random start) or hashing a key
// to look it up. The runtime keeps a map of up to eight entries in one
// group: a control word, a byte per slot whose high bit is clear when the
// slot is full, then eight slots of a key and its value, laid out as a
// struct of the two. Larger maps are tables of groups and go the general
// way. The layout is the runtime's own, so it is checked once, against
// what ranging over maps of several value sizes gives (smallMapsRead),
// and not used unless it holds.

// mapHeader is the start of the runtime's map.
type mapHeader struct {
	used   uint64 // entries, as len reports them
	seed   uintptr
	group  unsafe.Pointer // of a small map: its one group
	dirLen int            // 0 for a small map
}

// group is a small map[string]V's group, whose slots are stride bytes
// apart: a key, then its value.
type group struct {
	p      unsafe.Pointer
	stride uintptr
}

// full has the high bit of the control byte of each full slot set.
func (g group) full() uint64 { return ^*(*uint64)(g.p) & 0x8080808080808080 }

// key is slot i's key.
func (g group) key(i uintptr) *string { return (*string)(unsafe.Add(g.p, 8+i*g.stride)) }

// val is slot i's value.
func (g group) val(i uintptr) unsafe.Pointer { return unsafe.Add(g.p, 8+16+i*g.stride) }

// slotAt is the slot whose control byte's high bit is the lowest bit
// set in m.
func slotAt(m uint64) uintptr { return uintptr(bits.TrailingZeros64(m) / 8) }

// smallGroups returns the groups of the two maps at a and b, of values of
// size vsize, when both are small and of one length, and whether they
// are. The layout must be known (smallMapsRead).
func smallGroups(a, b unsafe.Pointer, vsize uintptr) (ga, gb group, ok bool) {
	ha, hb := *(**mapHeader)(a), *(**mapHeader)(b)
	if ha == nil || hb == nil || ha.dirLen|hb.dirLen != 0 || ha.group == nil || hb.group == nil || ha.used != hb.used {
		return group{}, group{}, false
	}
	return group{ha.group, 16 + vsize}, group{hb.group, 16 + vsize}, true
}

// sameKeyString compares two strings, in line when their headers are
// the same.
func sameKeyString(a, b *string) bool {
	return *(*[2]uintptr)(unsafe.Pointer(a)) == *(*[2]uintptr)(unsafe.Pointer(b)) || *a == *b
}

// pairKey returns the key of gb's slot (of those in fullB) that is the
// key ka of ga's slot i, or nil. Maps filled in one order hold a key in
// the same slot: that slot is tried first, in line.
func pairKey(ka *string, gb group, i uintptr, fullB uint64) *string {
	if kb := gb.key(i); fullB>>(8*i+7)&1 != 0 && sameKeyString(ka, kb) {
		return kb
	}
	for m := fullB &^ (0x80 << (8 * i)); m != 0; m &= m - 1 {
		if kb := gb.key(slotAt(m)); sameKeyString(ka, kb) {
			return kb
		}
	}
	return nil
}

// valOf is the value of the slot whose key is at k.
func valOf(k *string) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(k), 16) }

// smallMapsEq compares two small maps of one type, of equal length, in
// place: values of size e.size are compared where they are (the maps
// hold them) by e.
func smallMapsEq(s *Scratch, ga, gb group, e *viewElem, depth int) bool {
	fullB := gb.full()
	for m := ga.full(); m != 0; m &= m - 1 {
		i := slotAt(m)
		ka, kb := ga.key(i), gb.key(i)
		if fullB>>(8*i+7)&1 == 0 || !sameKeyString(ka, kb) { // pairKey's first try, in line
			if kb = pairKey(ka, gb, i, fullB); kb == nil {
				return false
			}
		}
		va, vb := valOf(ka), valOf(kb)
		if !(e.words && sameWords(va, vb, e.size)) && !e.eq(s, va, vb, depth+1) {
			return false
		}
	}
	return true
}

// sameWords reports whether the n bytes (whole words) at a and b are
// equal, in line: a call to the runtime's comparison costs more for the
// few words of a map's value.
func sameWords(a, b unsafe.Pointer, n uintptr) bool {
	var d uint64
	i := uintptr(0)
	for ; i+32 <= n; i += 32 {
		pa, pb := unsafe.Add(a, i), unsafe.Add(b, i)
		d |= (*(*uint64)(pa) ^ *(*uint64)(pb)) | (*(*uint64)(unsafe.Add(pa, 8)) ^ *(*uint64)(unsafe.Add(pb, 8))) |
			(*(*uint64)(unsafe.Add(pa, 16)) ^ *(*uint64)(unsafe.Add(pb, 16))) | (*(*uint64)(unsafe.Add(pa, 24)) ^ *(*uint64)(unsafe.Add(pb, 24)))
	}
	for ; i < n; i += 8 {
		d |= *(*uint64)(unsafe.Add(a, i)) ^ *(*uint64)(unsafe.Add(b, i))
	}
	return d == 0
}

// smallStringsEq compares two small map[string]string in place.
func smallStringsEq(ga, gb group) bool {
	fullB := gb.full()
	for m := ga.full(); m != 0; m &= m - 1 {
		i := slotAt(m)
		ka, kb := ga.key(i), gb.key(i)
		if fullB>>(8*i+7)&1 == 0 || !sameKeyString(ka, kb) {
			if kb = pairKey(ka, gb, i, fullB); kb == nil {
				return false
			}
		}
		if !sameKeyString((*string)(valOf(ka)), (*string)(valOf(kb))) {
			return false
		}
	}
	return true
}

// smallMapsRead reports whether small maps read as groups hold the
// entries put in them, for values of one, two, seven and sixteen words,
// filled in several orders and after deletions; and whether a map past a
// group's eight entries reads as not small. The Go releases whose maps
// are laid out so are the only ones tried; the check compares words and
// follows no pointer read from a group, so that another layout (of a
// map kept in buckets) answers false.
var smallMapsRead = sync.OnceValue(func() bool {
	v := runtime.Version()
	if !strings.HasPrefix(v, "go1.24") && !strings.HasPrefix(v, "go1.25") && !strings.HasPrefix(v, "go1.26") {
		return false
	}
	return readsAsGroup[[1]uint64]() && readsAsGroup[[2]uint64]() &&
		readsAsGroup[[7]uint64]() && readsAsGroup[[16]uint64]()
})

// readsAsGroup checks the layout of small maps of values W (see
// smallMapsRead).
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
	h := *(**mapHeader)(unsafe.Pointer(&m))
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
	g := group{h.group, 16 + unsafe.Sizeof(w)}
	seen := 0
	for f := g.full(); f != 0; f &= f - 1 {
		i := slotAt(f)
		found := false
		for k, v := range put {
			if *(*[2]uintptr)(unsafe.Pointer(&k)) == *(*[2]uintptr)(unsafe.Pointer(g.key(i))) {
				found = v == *(*W)(g.val(i))
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
