package jsonval

import (
	"encoding/binary"
	"math/bits"
)

// Strings are scanned eight bytes at a time: each mask below sets the high
// bit of the bytes of a little-endian word that end a run of plain string
// bytes. Bits above the first such byte may be set too (a borrow carries
// into the next byte), never below it, so the lowest set bit is exact.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// quoteOrEscape marks the bytes of x that are '"' or '\\'.
func quoteOrEscape(x uint64) uint64 {
	q, b := x^(ones*'"'), x^(ones*'\\')
	return ((q-ones)&^q | (b-ones)&^b) & highs
}

// stringStop marks the bytes of x that are '"', '\\', a control
// character or not ASCII: what a string's validation must look at.
func stringStop(x uint64) uint64 {
	return quoteOrEscape(x) | ((x-ones*0x20)|x)&highs
}

// toQuoteOrEscape returns the index of the first '"' or '\\' at or after
// i, reading whole words; with fewer than eight bytes left it returns the
// index of the first unread one.
func toQuoteOrEscape(r []byte, i int) int {
	for ; i+8 <= len(r); i += 8 {
		if m := quoteOrEscape(binary.LittleEndian.Uint64(r[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	return i
}

// toStringStop is toQuoteOrEscape for the bytes stringStop marks.
func toStringStop(r []byte, i int) int {
	for ; i+8 <= len(r); i += 8 {
		if m := stringStop(binary.LittleEndian.Uint64(r[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	return i
}
