package engine

import (
	"hash/maphash"
	"math/bits"
	"slices"
)

// hasDuplicates reports whether an identity occurs twice in ids. Short
// lists are scanned; longer ones go into an open-addressing table of
// hashes and positions, where two identities are compared only when their
// hashes are equal: unlike a map from identity, it holds no string and
// its memory is one flat array, so a list of 100,000 is checked in a few
// cache misses per element.
func hasDuplicates(ids []string) bool {
	if len(ids) <= smallIDs {
		for i, id := range ids {
			if slices.Contains(ids[:i], id) {
				return true
			}
		}
		return false
	}
	// At most half full: probes stay short.
	table := make([]idSlot, 1<<bits.Len(uint(2*len(ids)-1)))
	mask := uint64(len(table) - 1)
	for i, id := range ids {
		h := maphash.String(idSeed, id)
		j := h & mask
		for table[j].pos != 0 {
			if table[j].hash == h && ids[table[j].pos-1] == id {
				return true
			}
			j = (j + 1) & mask
		}
		table[j] = idSlot{hash: h, pos: i + 1}
	}
	return false
}

// idSlot is one entry of hasDuplicates' table: an identity's hash and its
// position plus one (0: empty).
type idSlot struct {
	hash uint64
	pos  int
}

// idSeed seeds the identities' hashes, randomly per process, so that no
// input can choose identities whose hashes collide.
var idSeed = maphash.MakeSeed()
