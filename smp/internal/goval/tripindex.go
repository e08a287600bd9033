package goval

import (
	"hash/maphash"
)

// tripTable holds the round trips remembered of one marshaller type, by
// content (roundTrips.content), in open addressing, hashed by maphash
// with a seed of the process. A table is never changed once stored
// (roundTrips.done): add returns a new one.
type tripTable struct {
	slots []tripSlot // a power of two long, at most half full
	n     int
}

// tripSlot is one content remembered; tr.v is invalid in an empty slot.
type tripSlot struct {
	hash uint64
	key  string
	tr   trip
}

var tripSeed = maphash.MakeSeed()

// find returns the round trip remembered of content key.
func (t *tripTable) find(key []byte) (trip, bool) {
	h := maphash.Bytes(tripSeed, key)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if !s.tr.v.IsValid() {
			return trip{}, false
		}
		if s.hash == h && s.key == string(key) {
			return s.tr, true
		}
	}
}

// len is the number of contents remembered; t may be nil.
func (t *tripTable) len() int {
	if t == nil {
		return 0
	}
	return t.n
}

// add returns a table holding t's round trips and tr, of content key;
// t may be nil.
func (t *tripTable) add(key string, tr trip) *tripTable {
	size := 8
	if t != nil {
		size = len(t.slots)
		if 2*(t.n+1) > size {
			size *= 2
		}
	}
	out := &tripTable{slots: make([]tripSlot, size)}
	if t != nil {
		for _, s := range t.slots {
			if s.tr.v.IsValid() {
				out.put(s)
			}
		}
	}
	out.put(tripSlot{maphash.String(tripSeed, key), key, tr})
	return out
}

func (t *tripTable) put(s tripSlot) {
	mask := uint64(len(t.slots) - 1)
	i := s.hash & mask
	for t.slots[i].tr.v.IsValid() {
		i = (i + 1) & mask
	}
	t.slots[i] = s
	t.n++
}
