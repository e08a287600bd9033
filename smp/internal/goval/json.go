package goval

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// appendJSONFloat appends f as encoding/json writes it: like %g with
// ES6's exponent cut-offs. It reports false for NaN and infinities, which
// JSON cannot hold.
func appendJSONFloat(b []byte, f float64, bits int) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// WireString returns s as it reads back from encoding/json's output: each
// byte that is not part of valid UTF-8 becomes U+FFFD.
func WireString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// SameWireString reports whether two Go strings encode to the same JSON
// string.
func SameWireString(a, b string) bool {
	if a == b {
		return true
	}
	if utf8.ValidString(a) && utf8.ValidString(b) {
		return false
	}
	return WireString(a) == WireString(b)
}

// SameQuotedString reports whether two Go strings under json's ",string"
// option encode alike. That option writes a string's JSON encoding as a
// JSON string, so a byte that is not UTF-8 (written as the escape
// \ufffd) and U+FFFD (written as itself) differ there, while any two such
// bytes are alike.
func SameQuotedString(a, b string) bool {
	if a == b {
		return true
	}
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		badA, badB := ra == utf8.RuneError && na == 1, rb == utf8.RuneError && nb == 1
		if badA != badB || !badA && ra != rb {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return a == b
}

// validNumber reports whether s is a JSON number literal.
func validNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if s == "" {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if s == "" {
				return false
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	return s == ""
}
