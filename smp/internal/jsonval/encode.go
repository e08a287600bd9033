package jsonval

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"
)

// AppendJSON writes a decoded value as JSON: objects with sorted keys and
// strings escaped as encoding/json escapes them, so the output equals
// json.Marshal's; raw values are copied as they were read.
func AppendJSON(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if v {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case string:
		return AppendString(b, v), nil
	case json.Number:
		return append(b, v...), nil
	case Raw:
		return append(b, v...), nil
	case map[string]any:
		return appendObject(b, v)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = AppendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

// appendObject writes an object, its members sorted by key; up to eight
// are gathered on the stack.
func appendObject(b []byte, m map[string]any) ([]byte, error) {
	var small [8]member
	ms := small[:0]
	if len(m) > len(small) {
		ms = make([]member, 0, len(m))
	}
	for k, v := range m {
		ms = append(ms, member{k, v})
	}
	slices.SortFunc(ms, func(x, y member) int { return strings.Compare(x.key, y.key) })
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
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
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
