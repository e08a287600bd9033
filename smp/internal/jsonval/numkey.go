package jsonval

import "strconv"

// MaxPlainDigits bounds the integers whose canonical form is their plain
// decimal digits. Larger integers take the exponent form, so 1e99999 never
// expands to its hundred thousand digits.
const MaxPlainDigits = 24

// AppendNumberKey appends the canonical form of the number s to b: every
// spelling of one value (53, 53.0, 5.3e1, 530e-1) has one form, different
// values have different forms, and the cost is linear in len(s) whatever
// the exponent (1e99999, an exponent of a thousand digits, a million
// fraction digits).
//
// An integer of at most MaxPlainDigits digits is its plain digits: "-53".
// Any other number is its sign, its significant digits D and an exponent E
// such that the value is 0.D × 10^E: "-535e2" is -53.5, "1e100000" is
// 1e99999. Both zeros are "0". Text that is no number (a json.Number built
// by Go code) is "?" and the text, equal only to itself.
func AppendNumberKey(b []byte, s string) []byte {
	if canonicalInteger(s) {
		return append(b, s...)
	}
	return appendNumberKey(b, s)
}

// canonicalInteger reports whether s is already its canonical form: an
// integer of at most MaxPlainDigits digits, without a plus sign or a
// leading zero, other than -0. Merge keys (ports) mostly are.
func canonicalInteger(s string) bool {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > MaxPlainDigits || d[0] == '0' && (len(d) > 1 || len(s) > 1) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// appendNumberKey is AppendNumberKey of any number.
func appendNumberKey(b []byte, s string) []byte {
	n, ok := scanNumberParts(s)
	if !ok {
		return append(append(b, '?'), s...)
	}
	digit := func(k int) byte { // k-th digit of the integer and fraction digits together
		if k < len(n.intDigits) {
			return n.intDigits[k]
		}
		return n.fracDigits[k-len(n.intDigits)]
	}
	total := len(n.intDigits) + len(n.fracDigits)
	first, last := 0, total-1
	for first < total && digit(first) == '0' {
		first++
	}
	if first == total {
		return append(b, '0')
	}
	for digit(last) == '0' {
		last--
	}
	if n.neg {
		b = append(b, '-')
	}
	sig := last - first + 1
	// The value is 0.D × 10^(exponent + adj).
	adj := int64(len(n.intDigits) - first)
	e, small := smallExponent(n.expDigits, n.expNeg)
	if small && e+adj >= int64(sig) && e+adj <= MaxPlainDigits {
		for k := first; k <= last; k++ {
			b = append(b, digit(k))
		}
		for range e + adj - int64(sig) {
			b = append(b, '0')
		}
		return b
	}
	if first < len(n.intDigits) {
		b = append(b, n.intDigits[first:min(last+1, len(n.intDigits))]...)
	}
	if last >= len(n.intDigits) {
		b = append(b, n.fracDigits[max(first-len(n.intDigits), 0):last+1-len(n.intDigits)]...)
	}
	b = append(b, 'e')
	if small {
		return strconv.AppendInt(b, e+adj, 10)
	}
	// |exponent| ≥ 10^18 exceeds any |adj|: E has the exponent's sign and
	// magnitude |exponent| + adj (or - adj for a negative exponent).
	if n.expNeg {
		b = append(b, '-')
		adj = -adj
	}
	return addSmall(b, n.expDigits, adj)
}

// numberParts are the pieces of a number's text.
type numberParts struct {
	neg                   bool
	intDigits, fracDigits string
	expNeg                bool
	expDigits             string // without leading zeros
}

// scanNumberParts splits a number: an optional sign, digits, an optional
// fraction and an optional exponent, with at least one digit before the
// exponent. It accepts JSON's grammar and a little more (+1, 01, .5, 5.),
// as strconv does.
func scanNumberParts(s string) (numberParts, bool) {
	var n numberParts
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		n.neg = s[i] == '-'
		i++
	}
	j := skipDigits(s, i)
	n.intDigits = s[i:j]
	i = j
	if i < len(s) && s[i] == '.' {
		j = skipDigits(s, i+1)
		n.fracDigits = s[i+1 : j]
		i = j
	}
	if n.intDigits == "" && n.fracDigits == "" {
		return n, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			n.expNeg = s[i] == '-'
			i++
		}
		j = skipDigits(s, i)
		if j == i {
			return n, false
		}
		for i < j-1 && s[i] == '0' {
			i++
		}
		n.expDigits = s[i:j]
		i = j
	}
	return n, i == len(s)
}

// smallExponent returns the exponent's value when it has at most 18 digits.
func smallExponent(digits string, neg bool) (int64, bool) {
	if len(digits) > 18 {
		return 0, false
	}
	var e int64
	for i := 0; i < len(digits); i++ {
		e = e*10 + int64(digits[i]-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// addSmall appends the decimal m + d, where m has more than 18 digits and
// no leading zero and |d| < 10^18, so one carry or borrow at most passes
// from m's last 18 digits into the digits before them.
func addSmall(b []byte, m string, d int64) []byte {
	const base = 1_000_000_000_000_000_000
	hi, lo := m[:len(m)-18], m[len(m)-18:]
	low, _ := smallExponent(lo, false)
	low += d
	start := len(b)
	b = append(b, hi...)
	switch {
	case low >= base:
		low -= base
		k := len(b) - 1
		for k >= start && b[k] == '9' {
			b[k] = '0'
			k--
		}
		if k < start { // hi was all nines
			b[start] = '1'
			b = append(b, '0')
		} else {
			b[k]++
		}
	case low < 0:
		low += base
		k := len(b) - 1
		for b[k] == '0' {
			b[k] = '9'
			k--
		}
		b[k]--
		if b[start] == '0' { // hi was 1 followed by zeros: drop the leading zero
			b = append(b[:start], b[start+1:]...)
		}
	}
	if len(b) == start { // hi became 0
		return strconv.AppendInt(b, low, 10)
	}
	var buf [20]byte
	text := strconv.AppendInt(buf[:0], low, 10)
	for range 18 - len(text) {
		b = append(b, '0')
	}
	return append(b, text...)
}
