package jsonval

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"
)

// maxScanNesting is encoding/json's nesting limit: deeper documents are
// left to the decoding path, which reports them as json.Valid would.
const maxScanNesting = 10000

// ScanRaw checks an original document for ApplyJSON's raw path: valid JSON
// and UTF-8 whose top level is an object, within the depth and list-length
// limits, in one pass over the bytes, and records where its containers of
// SkipMin bytes or more end (rawends.go). ok false means the document must
// take the decoding path, which reports what is wrong with it.
func ScanRaw(data []byte, l Limits) (doc Raw, ends rawEnds, ok bool) {
	if data, ok = trimObject(data); !ok {
		return nil, rawEnds{}, false
	}
	maxDepth := scanDepth(l)
	st := startScan(&ends)
	i, top, key := 0, 0, 0
	var escaped bool
value:
	if i >= len(data) {
		return nil, rawEnds{}, false
	}
	if data[i] == '"' { // the common value, scanned without the switch
		if i, _ = scanString(data, i); i < 0 {
			return nil, rawEnds{}, false
		}
		goto next
	}
	if c := data[i]; c == '{' || c == '[' {
		if len(st.open) == maxDepth {
			return nil, rawEnds{}, false
		}
		open := i
		if i = SkipSpace(data, i+1); i < len(data) && data[i] == c+2 { // '}' or ']'
			i++
			goto next
		}
		st.push(c == '[', len(ends.tape))
		ends.tape = append(ends.tape, span{start: cap(data) - open})
		if c == '[' {
			goto value
		}
		goto member
	}
	if i = scanScalar(data, i); i < 0 {
		return nil, rawEnds{}, false
	}
next: // after a value: a separator, the end of its container, or the end
	if i = SkipSpace(data, i); len(st.open) == 0 {
		ends.keep(st)
		return Raw(data), ends, i == len(data)
	}
	if i >= len(data) {
		return nil, rawEnds{}, false
	}
	top = len(st.open) - 1
	switch data[i] {
	case ',':
		i = SkipSpace(data, i+1)
		if st.open[top].count < 0 {
			goto member
		}
		if st.open[top].count++; l.MaxListLength > 0 && st.open[top].count > l.MaxListLength {
			return nil, rawEnds{}, false
		}
		goto value
	case '}', ']':
		if (data[i] == '}') == (st.open[top].count < 0) {
			ends.close(st.pop(), cap(data)-(i+1))
			i++
			goto next
		}
	}
	return nil, rawEnds{}, false // another byte, or the other container's end
member: // an object member's key and colon, then its value
	if i >= len(data) || data[i] != '"' {
		return nil, rawEnds{}, false
	}
	key = i
	if i, escaped = scanString(data, i); i < 0 {
		return nil, rawEnds{}, false
	}
	st.keys.add(data, key, i, escaped)
	if i = SkipSpace(data, i); i >= len(data) || data[i] != ':' {
		return nil, rawEnds{}, false
	}
	i = SkipSpace(data, i+1)
	goto value
}

// scanDepth is the deepest nesting ScanRaw takes within l.
func scanDepth(l Limits) int {
	if l.MaxDepth > 0 {
		return min(maxScanNesting, l.MaxDepth+1)
	}
	return maxScanNesting
}

// scanStacks are ScanRaw's stacks: the open containers, and the keys of
// their objects.
type scanStacks struct {
	open []openContainer
	keys keySets
}

// openContainer is a container ScanRaw is in: count is -1 for an object,
// or the number of elements of an array so far; entry is its tape entry.
type openContainer struct{ count, entry int }

// push opens a container, an array or an object, of tape entry entry.
func (st *scanStacks) push(array bool, entry int) {
	count := -1
	if array {
		count = 1
	}
	st.open = append(st.open, openContainer{count, entry})
	st.keys.open()
}

// pop closes the innermost container and returns its tape entry.
func (st *scanStacks) pop() int {
	top := len(st.open) - 1
	entry := st.open[top].entry
	st.open = st.open[:top]
	st.keys.close()
	return entry
}

// trimObject drops the whitespace around a document and reports whether
// what is left starts an object.
func trimObject(data []byte) ([]byte, bool) {
	start := SkipSpace(data, 0)
	end := len(data)
	for end > start && isSpace(data[end-1]) {
		end--
	}
	data = data[start:end]
	return data, len(data) > 0 && data[0] == '{'
}

// scanScalar validates the scalar other than a string (ScanRaw scans
// those itself) starting at i and returns the index after it, or -1.
func scanScalar(data []byte, i int) int {
	switch c := data[i]; {
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(data, i)
	case c == 't':
		return scanLiteral(data, i, "true")
	case c == 'f':
		return scanLiteral(data, i, "false")
	case c == 'n':
		return scanLiteral(data, i, "null")
	}
	return -1
}

// maxTrackedKeys is the most keys of one object ScanRaw compares for
// repeats; a larger object leaves the document's keys not known unique,
// so that the check stays linear.
const maxTrackedKeys = 64

// keySets tracks the keys of the open containers' objects, to tell
// whether any object holds a key twice.
type keySets struct {
	hashes []uint64 // the keys met so far in the open objects
	starts []int    // for each open container but the innermost, where its keys start
	level  int      // where the innermost container's keys start
	unique bool     // no repeat found (or suspected) yet
}

// open starts a container's keys.
func (k *keySets) open() {
	if k.unique {
		k.starts = append(k.starts, k.level)
		k.level = len(k.hashes)
	}
}

// close ends the innermost container's keys.
func (k *keySets) close() {
	if k.unique {
		top := len(k.starts) - 1
		k.hashes, k.level, k.starts = k.hashes[:k.level], k.starts[top], k.starts[:top]
	}
}

// add records the key data[start:end] (a raw JSON string, escaped when it
// holds an escape) of the innermost object by its hash (keyHash). A key
// with an escape, an object of too many keys, or two keys of one hash
// end the tracking: the keys are then not known unique.
func (k *keySets) add(data []byte, start, end int, escaped bool) {
	if !k.unique {
		return
	}
	h := keyHash(data, start, end)
	level := k.hashes[k.level:]
	if escaped || len(level) >= maxTrackedKeys || slices.Contains(level, h) {
		k.unique = false
		return
	}
	k.hashes = append(k.hashes, h)
}

// keyHash condenses the raw key data[start:end] for keySets: its length
// and its first and last eight bytes (all of a shorter one, read as one
// word where the data goes on). Distinct keys rarely share it, and when
// they do the document only loses the early stop.
func keyHash(data []byte, start, end int) uint64 {
	k := data[start:end]
	h := uint64(len(k))
	if len(k) < 8 {
		var w uint64
		if start+8 <= len(data) {
			w = binary.LittleEndian.Uint64(data[start:]) & (1<<(8*len(k)) - 1)
		} else {
			for j, c := range k {
				w |= uint64(c) << (8 * j)
			}
		}
		return h<<56 | w
	}
	h ^= binary.LittleEndian.Uint64(k) * 0x9e3779b97f4a7c15
	return h ^ bits.RotateLeft64(binary.LittleEndian.Uint64(k[len(k)-8:]), 31)
}

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

// scanString validates the string starting at i: escapes, no control
// characters, valid UTF-8. It returns the index after it, or -1, and
// whether it holds an escape.
func scanString(r []byte, i int) (end int, escaped bool) {
	for i++; ; {
		if i = toStringStop(r, i); i >= len(r) {
			return -1, false
		}
		c := r[i]
		switch {
		case c == '"':
			return i + 1, escaped
		case c == '\\':
			escaped = true
			if i+1 >= len(r) {
				return -1, false
			}
			switch r[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(r) {
					return -1, false
				}
				for _, h := range r[i+2 : i+6] {
					if !isHex(h) {
						return -1, false
					}
				}
				i += 6
			default:
				return -1, false
			}
		case c < 0x20:
			return -1, false
		case c < utf8.RuneSelf:
			i++
		default:
			ru, n := utf8.DecodeRune(r[i:])
			if ru == utf8.RuneError && n == 1 {
				return -1, false
			}
			i += n
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// scanNumber validates the number starting at i by JSON's grammar and
// returns the index after it, or -1.
func scanNumber(r []byte, i int) int {
	if r[i] == '-' {
		i++
	}
	switch {
	case i < len(r) && r[i] == '0':
		i++
	case i < len(r) && r[i] >= '1' && r[i] <= '9':
		i = skipDigits(r, i)
	default:
		return -1
	}
	if i < len(r) && r[i] == '.' {
		j := skipDigits(r, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(r) && (r[i] == 'e' || r[i] == 'E') {
		i++
		if i < len(r) && (r[i] == '+' || r[i] == '-') {
			i++
		}
		j := skipDigits(r, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// skipDigits returns the index after the digits starting at i.
func skipDigits[T string | []byte](r T, i int) int {
	for i < len(r) && r[i] >= '0' && r[i] <= '9' {
		i++
	}
	return i
}

// scanLiteral returns the index after lit at i, or -1.
func scanLiteral(r []byte, i int, lit string) int {
	if len(r)-i < len(lit) || string(r[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}
