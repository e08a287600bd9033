package jsonval

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/smallmap"
)

// Encode marshals a decoded value. Maps print with sorted keys, as
// Kubernetes' output does. The text is written into a pooled buffer and
// copied out at its size, unless it outgrew the buffer.
func Encode(v any) ([]byte, error) {
	bp := encodeBufs.Get().(*[]byte)
	buf := (*bp)[:0]
	b, err := AppendJSON(buf, v)
	if err != nil || cap(b) != cap(buf) {
		// Outgrown (or failed): b is the writer's own; the pooled buffer
		// is cleared of what it holds.
		clear(buf[:cap(buf)])
		encodeBufs.Put(bp)
		return b, err
	}
	out := make([]byte, len(b))
	copy(out, b)
	clear(b)
	encodeBufs.Put(bp)
	return out, nil
}

// encodeBufs are Encode's buffers, empty and cleared between uses.
var encodeBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, 2048)
	return &b
}}

// AppendJSON writes a decoded value as JSON: objects with sorted keys and
// strings escaped as encoding/json escapes them, so the output equals
// json.Marshal's; raw values are copied as they were read.
func AppendJSON(b []byte, v any) ([]byte, error) {
	// A patch's values are mostly strings and objects: tested first.
	if s, ok := v.(string); ok {
		return AppendString(b, s), nil
	}
	if m, ok := v.(map[string]any); ok {
		return appendObject(b, m, nil)
	}
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if v {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case json.Number:
		return append(b, v...), nil
	case Raw:
		return append(b, v...), nil
	case []any:
		return appendList(b, v)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

// appendList writes a list. Its objects often hold the keys the one
// before held (the elements of a merge list, of a $setElementOrder
// list): those are looked up, in the order kept from that one, rather
// than ranged over and sorted.
func appendList(b []byte, l []any) ([]byte, error) {
	var sib siblingKeys
	b = append(b, '[')
	for i, e := range l {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if m, ok := e.(map[string]any); ok {
			b, err = appendObject(b, m, &sib)
		} else {
			b, err = AppendJSON(b, e)
		}
		if err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// siblingKeys are the sorted keys of the object a list held last, when
// it had no more than eight (n, else 0).
type siblingKeys struct {
	keys [8]string
	n    int
}

// appendObject writes an object, its members sorted by key: from its
// map's group when it has up to eight (appendGroup); else in sib's order
// when the object holds exactly sib's keys, else gathered (up to eight on
// the stack, sorted by insertion; more on the heap) and kept in sib for
// the next object.
func appendObject(b []byte, m map[string]any, sib *siblingKeys) ([]byte, error) {
	if g, ok := groupOf(m); ok {
		return appendGroup(b, g)
	}
	if len(m) == 1 {
		return appendMember(b, m, sib)
	}
	var small [8]member
	ms := small[:0]
	if sib != nil && sib.n > 0 && sib.n == len(m) {
		for _, k := range sib.keys[:sib.n] {
			v, ok := m[k]
			if !ok {
				break
			}
			ms = append(ms, member{k, v})
		}
	}
	if len(ms) != len(m) {
		ms = gatherSorted(m, small[:0])
		if sib != nil {
			sib.n = 0
			if len(ms) <= len(sib.keys) {
				for i, e := range ms {
					sib.keys[i] = e.key
				}
				sib.n = len(ms)
			}
		}
	}
	b = append(b, '{')
	for i, e := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, e.key)
		b = append(b, ':')
		var err error
		if b, err = AppendJSON(b, e.val); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// readGroups is false in tests of the general way.
var readGroups = true

// groupOf is m's group when m has up to eight members and groups can be
// read (smallmap).
func groupOf(m map[string]any) (smallmap.Group, bool) {
	if !readGroups || !smallmap.Readable() {
		return smallmap.Group{}, false
	}
	return smallmap.Of(unsafe.Pointer(&m), unsafe.Sizeof(any(nil)))
}

// appendGroup is appendObject for an object of up to eight members read
// in its map's group (smallmap): their slots sorted by key, by insertion.
func appendGroup(b []byte, g smallmap.Group) ([]byte, error) {
	var slots [8]uintptr
	n := 0
	for f := g.Full(); f != 0; f &= f - 1 {
		i, k := smallmap.SlotAt(f), n
		for ; k > 0 && *g.Key(i) < *g.Key(slots[k-1]); k-- {
			slots[k] = slots[k-1]
		}
		slots[k] = i
		n++
	}
	b = append(b, '{')
	for j, i := range slots[:n] {
		if j > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, *g.Key(i))
		b = append(b, ':')
		var err error
		if b, err = AppendJSON(b, *(*any)(g.Val(i))); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendMember is appendObject for an object of one member.
func appendMember(b []byte, m map[string]any, sib *siblingKeys) ([]byte, error) {
	var k string
	var v any
	found := false
	if sib != nil && sib.n == 1 {
		k = sib.keys[0]
		v, found = m[k]
	}
	if !found {
		for k, v = range m {
		}
		if sib != nil {
			sib.keys[0], sib.n = k, 1
		}
	}
	b = append(b, '{')
	b = AppendString(b, k)
	b = append(b, ':')
	b, err := AppendJSON(b, v)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// gatherSorted returns m's members sorted by key, in small when they fit.
func gatherSorted(m map[string]any, small []member) []member {
	ms := small[:0]
	if len(m) > cap(small) {
		ms = make([]member, 0, len(m))
	}
	for k, v := range m {
		ms = append(ms, member{k, v})
	}
	if len(ms) <= cap(small) {
		for i := 1; i < len(ms); i++ {
			for j := i; j > 0 && ms[j].key < ms[j-1].key; j-- {
				ms[j], ms[j-1] = ms[j-1], ms[j]
			}
		}
	} else {
		slices.SortFunc(ms, func(x, y member) int { return strings.Compare(x.key, y.key) })
	}
	return ms
}

// toHTMLStop returns the index of the first byte at or after i that
// htmlStop marks, reading whole words; with fewer than eight bytes left it
// returns the index of the first unread one.
func toHTMLStop(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := htmlStop(binary.LittleEndian.Uint64([]byte(s[i : i+8]))); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	return i
}

// htmlStop marks the bytes of x that plainASCII does not (stringStop's,
// and '<', '>' and '&'), the lowest exactly.
func htmlStop(x uint64) uint64 {
	l, g, a := x^(ones*'<'), x^(ones*'>'), x^(ones*'&')
	return stringStop(x) | ((l-ones)&^l|(g-ones)&^g|(a-ones)&^a)&highs
}

const hexDigits = "0123456789abcdef"

// plainASCII marks the ASCII bytes a JSON string holds as they are.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendString quotes s as encoding/json does, HTML characters and the
// line separators included; invalid UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	if plainString(s) {
		n := len(b)
		if cap(b)-n < len(s)+2 {
			b = slices.Grow(b, len(s)+2)
		}
		b = b[:n+len(s)+2]
		b[n] = '"'
		copy(b[n+1:], s)
		b[n+1+len(s)] = '"'
		return b
	}
	return appendEscaped(b, s)
}

// plainString reports whether every byte of s is written as it is
// (plainByte): whole words, the last overlapping those before; a string
// of four to seven bytes as two half words that overlap.
func plainString(s string) bool {
	n := len(s)
	if n >= 4 && n < 8 {
		// Two words of four bytes, overlapping when n < 8.
		x := uint64(binary.LittleEndian.Uint32([]byte(s[:4]))) | uint64(binary.LittleEndian.Uint32([]byte(s[n-4:])))<<32
		return htmlStop(x) == 0
	}
	if n < 8 {
		for i := range n {
			if !plainByte[s[i]] {
				return false
			}
		}
		return true
	}
	if toHTMLStop(s, 0) < n-n%8 {
		return false
	}
	return htmlStop(binary.LittleEndian.Uint64([]byte(s[n-8:]))) == 0
}

// plainByte is plainASCII over all byte values.
var plainByte = func() (t [256]bool) {
	copy(t[:], plainASCII[:])
	return t
}()

// appendEscaped is AppendString for a string with bytes to escape.
func appendEscaped(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := toHTMLStop(s, 0); i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plainASCII[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			i = toHTMLStop(s, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
