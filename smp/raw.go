package smp

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// rawJSON is a JSON value of the original document kept as its bytes until
// the patch reaches it: the applier expands a value one level at a time,
// and what the patch never touches is written back as it was read, never
// decoded. Only ApplyJSON's document holds rawJSON values, and only after
// its bytes were checked (valid JSON, valid UTF-8, within the limits).
type rawJSON []byte

// MarshalJSON writes the value back as it was.
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// expand decodes one level of a raw value: an object becomes a map whose
// values are raw, an array a slice of raw elements, a scalar its decoded
// value. Decoded values pass through.
func expand(v any) any {
	r, ok := v.(rawJSON)
	if !ok {
		return v
	}
	switch r[0] {
	case '{':
		m := map[string]any{}
		eachMember(r, func(k string, val rawJSON) bool {
			m[k] = val
			return true
		})
		return m
	case '[':
		var l []any
		eachElement(r, func(val rawJSON) { l = append(l, val) })
		if l == nil {
			l = []any{}
		}
		return l
	case '"':
		return decodeString(r)
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	}
	return json.Number(r)
}

// rawKind is the JSON type of a raw value, from its first byte.
func rawKind(r rawJSON) jsonKind {
	switch r[0] {
	case '{':
		return jsonObject
	case '[':
		return jsonArray
	case '"':
		return jsonString
	case 't', 'f':
		return jsonBool
	case 'n':
		return jsonNull
	}
	return jsonNumber
}

// keyIs reports whether a raw JSON string holds name.
func keyIs(raw []byte, name string) bool {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == name
	}
	return decodeString(raw) == name
}

// eachMember calls fn for each member of a valid raw object, in order.
func eachMember(r rawJSON, fn func(key string, val rawJSON) bool) {
	eachRawMember(r, func(key []byte, val rawJSON) bool { return fn(decodeString(key), val) })
}

// eachRawMember is eachMember with the key as its raw JSON string.
func eachRawMember(r rawJSON, fn func(key []byte, val rawJSON) bool) {
	i := skipSpace(r, 1)
	for i < len(r) && r[i] != '}' {
		kEnd := skipString(r, i)
		key := r[i:kEnd]
		i = skipSpace(r, kEnd)
		i = skipSpace(r, i+1) // ':'
		vEnd := skipValue(r, i)
		if !fn(key, r[i:vEnd]) {
			return
		}
		i = skipSpace(r, vEnd)
		if i < len(r) && r[i] == ',' {
			i = skipSpace(r, i+1)
		}
	}
}

// eachElement calls fn for each element of a valid raw array, in order.
func eachElement(r rawJSON, fn func(val rawJSON)) {
	i := skipSpace(r, 1)
	for i < len(r) && r[i] != ']' {
		end := skipValue(r, i)
		fn(r[i:end])
		i = skipSpace(r, end)
		if i < len(r) && r[i] == ',' {
			i = skipSpace(r, i+1)
		}
	}
}

func skipSpace(r []byte, i int) int {
	for i < len(r) && isSpace(r[i]) {
		i++
	}
	return i
}

// skipString returns the index after the string starting at i.
func skipString(r []byte, i int) int {
	i++
	// Keys and short values end within a few bytes, where a byte loop
	// costs less than two IndexByte calls.
	for end := min(i+16, len(r)); i < end; i++ {
		switch r[i] {
		case '"':
			return i + 1
		case '\\':
			i++ // the escaped character
		}
	}
	for i < len(r) {
		q := bytes.IndexByte(r[i:], '"')
		if q < 0 {
			return len(r)
		}
		b := bytes.IndexByte(r[i:i+q], '\\')
		if b < 0 {
			return i + q + 1
		}
		i += b + 2 // skip the escape and the character it escapes
	}
	return i
}

// skipValue returns the index after the value starting at i.
func skipValue(r []byte, i int) int {
	switch r[i] {
	case '"':
		return skipString(r, i)
	case '{', '[':
		depth, start, lookup := 0, i, i+skipMin
		for ; i < len(r); i++ {
			if i >= lookup {
				if end, ok := knownEnd(r, start); ok {
					return end
				}
				lookup = len(r) // once
			}
			switch r[i] {
			case '"':
				i = skipString(r, i) - 1
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

// decodeString decodes a raw JSON string; one without escapes is copied
// directly.
func decodeString(r []byte) string {
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
