package strategicpatch

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/mergepatch"
)

// checkNumbers returns ErrBadJSONDoc if a document holds a number beyond
// float64's range (1e400, an integer of 400 digits), as Kubernetes, which
// decodes every number to int64 or float64, does. Numbers it would merely
// round (1e-400, long fractions) pass: the engine keeps them exact. The
// scan is linear and decodes nothing; malformed JSON is left to the engine.
func checkNumbers(docs ...[]byte) error {
	for _, d := range docs {
		if !numbersFit(d) {
			return mergepatch.ErrBadJSONDoc
		}
	}
	return nil
}

// numbersFit reports whether every number outside strings in doc fits a
// float64.
func numbersFit(doc []byte) bool {
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; {
		case c == '"':
			i = stringEnd(doc, i)
		case c == '-' || c >= '0' && c <= '9':
			start, exp := i, false
			for i+1 < len(doc) && isNumberByte(doc[i+1]) {
				i++
				exp = exp || doc[i] == 'e' || doc[i] == 'E'
			}
			// Without an exponent, fewer than 309 digits fit.
			if !exp && i-start < 308 {
				continue
			}
			if _, err := strconv.ParseFloat(string(doc[start:i+1]), 64); err != nil {
				if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
					return false
				}
			}
		}
	}
	return true
}

// stringEnd returns the index of the quote closing the string opened at i,
// or the last index.
func stringEnd(doc []byte, i int) int {
	for i++; i < len(doc); i++ {
		switch doc[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(doc) - 1
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}
