package goval

import (
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/smallmap"
)

// A small map keyed by strings is compared here in its own memory,
// without ranging over it (which draws a random start) or hashing a key
// to look it up. The runtime keeps a map of up to eight entries in one
// group: a control word, a byte per slot whose high bit is clear when the
// slot is full, then eight slots of a key and its value, laid out as a
// struct of the two. Larger maps are tables of groups and go the general
// way. The layout is the runtime's own: package smallmap reads it, where
// its check holds (smallmap.Readable).

// sameKeyString compares two strings, in line when their headers are
// the same.
func sameKeyString(a, b *string) bool {
	return *(*[2]uintptr)(unsafe.Pointer(a)) == *(*[2]uintptr)(unsafe.Pointer(b)) || *a == *b
}

// pairKey returns the key of gb's slot (of those in fullB) that is the
// key ka of ga's slot i, or nil. Maps filled in one order hold a key in
// the same slot: that slot is tried first, in line.
func pairKey(ka *string, gb smallmap.Group, i uintptr, fullB uint64) *string {
	if kb := gb.Key(i); fullB>>(8*i+7)&1 != 0 && sameKeyString(ka, kb) {
		return kb
	}
	for m := fullB &^ (0x80 << (8 * i)); m != 0; m &= m - 1 {
		if kb := gb.Key(smallmap.SlotAt(m)); sameKeyString(ka, kb) {
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
func smallMapsEq(s *Scratch, ga, gb smallmap.Group, e *viewElem, depth int) bool {
	fullB := gb.Full()
	for m := ga.Full(); m != 0; m &= m - 1 {
		i := smallmap.SlotAt(m)
		ka, kb := ga.Key(i), gb.Key(i)
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
func smallStringsEq(ga, gb smallmap.Group) bool {
	fullB := gb.Full()
	for m := ga.Full(); m != 0; m &= m - 1 {
		i := smallmap.SlotAt(m)
		ka, kb := ga.Key(i), gb.Key(i)
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
