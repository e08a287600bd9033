package jsonval

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Raw is a JSON value of the original document kept as its bytes until
// the patch reaches it: the applier expands a value one level at a time,
// and what the patch never touches is written back as it was read, never
// decoded. Only ApplyJSON's document holds Raw values, and only after
// its bytes were checked (valid JSON, valid UTF-8, within the limits).
type Raw []byte

// MarshalJSON writes the value back as it was.
func (r Raw) MarshalJSON() ([]byte, error) { return r, nil }

// Expand decodes one level of a raw value: an object becomes a map whose
// values are raw, an array a slice of raw elements, a scalar its decoded
// value. Decoded values pass through.
func Expand(v any) any {
	r, ok := v.(Raw)
	if !ok {
		return v
	}
	switch r[0] {
	case '{':
		return ExpandNamed(r, nil)
	case '[':
		return expandArray(r)
	case '"':
		return DecodeString(r)
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	}
	return json.Number(r)
}

// expandArray is Expand of a raw array: up to 16 elements are gathered on
// the stack and copied into a list of their number; a longer array's go
// on into a growing list, as append would make it.
func expandArray(r Raw) []any {
	var small [16]any
	n := 0
	var long []any
	for i := SkipSpace(r, 1); i < len(r) && r[i] != ']'; {
		var val Raw
		val, i = elementAt(r, i)
		switch {
		case long != nil:
			long = append(long, val)
		case n < len(small):
			small[n] = val
			n++
		default:
			long = append(append(make([]any, 0, 2*n), small[:n]...), val)
		}
	}
	if long != nil {
		return long
	}
	return append(make([]any, 0, n), small[:n]...)
}

// ExpandNamed expands a raw object one level, as Expand does. A key
// without escapes that name knows (a schema's field names; name may be
// nil) takes name's string instead of a copy of its own.
func ExpandNamed(r Raw, name func(key []byte) (string, bool)) map[string]any {
	m := map[string]any{}
	EachRawMember(r, func(key []byte, val Raw) bool {
		if name != nil && bytes.IndexByte(key, '\\') < 0 {
			if k, ok := name(key[1 : len(key)-1]); ok {
				m[k] = val
				return true
			}
		}
		m[DecodeString(key)] = val
		return true
	})
	return m
}

// RawKind is the JSON type of a raw value, from its first byte.
func RawKind(r Raw) Kind {
	switch r[0] {
	case '{':
		return KindObject
	case '[':
		return KindArray
	case '"':
		return KindString
	case 't', 'f':
		return KindBool
	case 'n':
		return KindNull
	}
	return KindNumber
}

// KeyIs reports whether a raw JSON string holds name.
func KeyIs(raw []byte, name string) bool {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == name
	}
	return DecodeString(raw) == name
}

// EachRawMember calls fn for each member of a valid raw object, in order,
// with the key as its raw JSON string, until fn returns false.
func EachRawMember(r Raw, fn func(key []byte, val Raw) bool) {
	i := SkipSpace(r, 1)
	for i < len(r) && r[i] != '}' {
		kEnd := SkipString(r, i)
		key := r[i:kEnd]
		i = SkipSpace(r, kEnd)
		i = SkipSpace(r, i+1) // ':'
		vEnd := SkipValue(r, i)
		if !fn(key, r[i:vEnd]) {
			return
		}
		i = SkipSpace(r, vEnd)
		if i < len(r) && r[i] == ',' {
			i = SkipSpace(r, i+1)
		}
	}
}

// EachElement calls fn for each element of a valid raw array, in order.
func EachElement(r Raw, fn func(val Raw)) {
	for i := SkipSpace(r, 1); i < len(r) && r[i] != ']'; {
		var val Raw
		val, i = elementAt(r, i)
		fn(val)
	}
}

// elementAt returns the element of raw array r at i and where the next
// one starts (or the array's end).
func elementAt(r Raw, i int) (Raw, int) {
	end := SkipValue(r, i)
	next := SkipSpace(r, end)
	if next < len(r) && r[next] == ',' {
		next = SkipSpace(r, next+1)
	}
	return r[i:end], next
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(r []byte, i int) int {
	for i < len(r) && isSpace(r[i]) {
		i++
	}
	return i
}

// SkipString returns the index after the string starting at i.
func SkipString(r []byte, i int) int {
	for i++; ; {
		if i = toQuoteOrEscape(r, i); i >= len(r) {
			return len(r)
		}
		switch r[i] {
		case '"':
			return i + 1
		case '\\':
			i += 2 // the escape and the character it escapes
		default:
			i++
		}
	}
}

// SkipValue returns the index after the value starting at i.
func SkipValue(r []byte, i int) int {
	switch r[i] {
	case '"':
		return SkipString(r, i)
	case '{', '[':
		depth, start, lookup := 0, i, i+SkipMin
		for ; i < len(r); i++ {
			if i >= lookup {
				if end, ok := KnownEnd(r, start); ok {
					return end
				}
				lookup = len(r) // once
			}
			switch r[i] {
			case '"':
				i = SkipString(r, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(r) {
		switch r[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// DecodeString decodes a raw JSON string; one without escapes is copied
// directly.
func DecodeString(r []byte) string {
	body := r[1 : len(r)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	s, err := strconv.Unquote(string(r))
	if err != nil {
		var out string
		_ = json.Unmarshal(r, &out)
		return out
	}
	return s
}
