package jsonval

import (
	"encoding/json"
	"fmt"
	"math/big"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

func key(s string) string { k, _ := ScalarKey(json.Number(s)); return k }

// numberClasses are spellings of one value each; no two classes share a
// value.
var numberClasses = [][]string{
	{"53", "53.0", "5.3e1", "530e-1", "5300E-2", "0.53e2", "53e0", "53.000e+0", "+53", "053", "0053.00"},
	{"-53", "-53.0", "-5.3e1", "-530e-1"},
	{"0", "-0", "0.0", "-0.0", "0e5", "0e-99999", "-0.000e1000000000000000000000", ".0", "0."},
	{"0.5", "5e-1", "50e-2", ".5", "0.50000"},
	{"1", "1.0", "10e-1", "0.001e3"},
	{"10", "1e1", "100e-1"},
	{"100000000000000000000000", "1e23", "0.1e24"},                                 // 24 digits: plain
	{"1000000000000000000000000", "1e24", "10e23", "1.0e24"},                       // 25 digits: exponent form
	{"123456789012345678901234", "1.23456789012345678901234e23"},                   // 24 significant digits
	{"9223372036854775807", "9.223372036854775807e18"},                             // int64's largest
	{"9223372036854775808", "9.223372036854775808e18", "0.9223372036854775808e19"}, // one more
	{"18446744073709551616", "1.8446744073709551616e19"},                           // 2^64
	{"1e99999", "10e99998", "0.1e100000", "1e+099999", "1E99999", "1.0000e99999"},  // issue #14
	{"-1e99999", "-10e99998"},                                                      // its negative
	{"1e-99999", "0.1e-99998", "10e-100000", "0.00001e-99994"},                     // and its inverse
	{"1e100000"},            // not 1e99999
	{"2e99999", "20e99998"}, // not 1e99999
	{"1e999999999999999999", "0.1e1000000000000000000", "10e999999999999999998"},             // 18 and 19 digit exponents
	{"1e999999999999999999999", "0.1e1000000000000000000000", "0.01e1000000000000000000001"}, // a carry into the high digits
	{"1e-1000000000000000000000", "10e-1000000000000000000001", "0.1e-999999999999999999999"},
	{"0.01e1000000000000000000", "1e999999999999999998"},   // a borrow ending in a 0 high part
	{"1e9223372036854775807", "10e9223372036854775806"},    // int64's largest exponent
	{"1e9223372036854775808", "0.1e9223372036854775809"},   // beyond it
	{"1e-9223372036854775808", "0.1e-9223372036854775807"}, // int64's smallest
	{"1e-9223372036854775809", "10e-9223372036854775810"},
	{"0.1", "1e-1", "0.10", "100e-3"},
	{"0.30000000000000004", "30000000000000004e-17"}, // float64's 0.1+0.2: not 0.3
	{"0.3", "3e-1"},
	{"0." + strings.Repeat("7", 1<<20), "7." + strings.Repeat("7", 1<<20-1) + "e-1", strings.Repeat("7", 1<<20) + "e-1048576"},
	{"0." + strings.Repeat("7", 1<<20-1) + "8"}, // differs in the last of a million digits
}

func TestNumberKeyClasses(t *testing.T) {
	owner := map[string]int{}
	for ci, class := range numberClasses {
		for _, s := range class {
			k := key(s)
			if prev, ok := owner[k]; ok && prev != ci {
				t.Errorf("%.30q (class %d) shares its key with class %d", s, ci, prev)
			}
			owner[k] = ci
			assert.Equal(t, key(class[0]), k, "%.30q and %.30q", s, class[0])
		}
	}
}

func TestNumberKeyNotANumber(t *testing.T) {
	// A json.Number built by Go code may hold any text: it equals itself
	// only, never a number nor another text.
	texts := []string{"", "-", "e5", "1e", "1e+", "0x10", "1/2", "NaN", "Inf", "1.2.3", "1e5e5", "?", "?1", "1;", " 1"}
	seen := map[string]string{key("1"): "1", key("0"): "0", key("5"): "5"}
	for _, s := range texts {
		k := key(s)
		assert.Equal(t, k, key(s))
		if prev, ok := seen[k]; ok {
			t.Errorf("%q shares its key with %q", s, prev)
		}
		seen[k] = s
	}
}

// drawSpelling draws a number as a sign, digits and an exponent, and
// spells it with the decimal point moved and zeros added.
func drawSpelling(t *rapid.T, label string) (string, *big.Rat) {
	neg := rapid.Bool().Draw(t, label+".neg")
	digits := rapid.StringMatching(`[0-9]{1,6}`).Draw(t, label+".digits")
	exp := rapid.IntRange(-30, 30).Draw(t, label+".exp")
	// digits × 10^exp, with the point after `point` of the digits.
	point := rapid.IntRange(0, len(digits)).Draw(t, label+".point")
	lead := strings.Repeat("0", rapid.IntRange(0, 2).Draw(t, label+".lead"))
	trail := strings.Repeat("0", rapid.IntRange(0, 2).Draw(t, label+".trail"))
	e := exp + len(digits) - point
	text := lead + digits[:point] + "." + digits[point:] + trail
	if point == len(digits) && trail == "" {
		text = lead + digits
	}
	if e != 0 || rapid.Bool().Draw(t, label+".e0") {
		text += "e" + fmt.Sprint(e)
	}
	if neg {
		text = "-" + text
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		t.Fatalf("big.Rat cannot read %q", text)
	}
	return text, r
}

// TestNumberKeyMatchesRat: two spellings share a key exactly when big.Rat
// finds their values equal.
func TestNumberKeyMatchesRat(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, ra := drawSpelling(t, "a")
		b, rb := drawSpelling(t, "b")
		if (key(a) == key(b)) != (ra.Cmp(rb) == 0) {
			t.Fatalf("%s and %s: keys %q, %q; values equal: %v", a, b, key(a), key(b), ra.Cmp(rb) == 0)
		}
	})
}

// TestNumberKeyHugeExponents: with exponents near a large power of ten,
// shifting the point and the exponent together keeps the key, and any
// other change of value changes it. The exponent is written by big.Int.
func TestNumberKeyHugeExponents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		width := rapid.SampledFrom([]int{17, 18, 19, 20, 40, 3000}).Draw(t, "width")
		base := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(width)), nil)
		if rapid.Bool().Draw(t, "neg") {
			base.Neg(base)
		}
		spell := func(label string) (digits string, exp *big.Int, text string) {
			digits = rapid.SampledFrom([]string{"1", "12", "5"}).Draw(t, label+".digits")
			exp = new(big.Int).Add(base, big.NewInt(int64(rapid.IntRange(-3, 3).Draw(t, label+".exp"))))
			// The mantissa's text is digits × 10^scale.
			scale := rapid.IntRange(-3, 3).Draw(t, label+".scale")
			switch {
			case scale > 0:
				text = digits + strings.Repeat("0", scale)
			case scale < 0:
				text = "0." + strings.Repeat("0", -scale) + digits
				scale -= len(digits)
			default:
				text = digits
			}
			e := new(big.Int).Sub(exp, big.NewInt(int64(scale)))
			return digits, exp, text + "e" + e.String()
		}
		da, ea, a := spell("a")
		db, eb, b := spell("b")
		same := da == db && ea.Cmp(eb) == 0
		if (key(a) == key(b)) != same {
			t.Fatalf("%s and %s: keys %q, %q; same value: %v", a, b, key(a), key(b), same)
		}
	})
}

// allocated returns the bytes f allocates: the least of five runs, as
// the process's count also holds what other goroutines (the test
// framework's, the runtime's) allocate meanwhile.
func allocated(f func()) uint64 {
	least := uint64(1<<64 - 1)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// TestNumberKeyCostLinear: a key costs memory linear in the number's text,
// whatever the value's size (1e99999 is 7 bytes and was 100,000 digits).
func TestNumberKeyCostLinear(t *testing.T) {
	inputs := []string{
		"1e99999", "-1e-99999", "9e999999999", "1e" + strings.Repeat("9", 5000), "1e-" + strings.Repeat("9", 5000),
		"0." + strings.Repeat("3", 1<<20), strings.Repeat("3", 1<<20) + "." + strings.Repeat("3", 1<<20),
		"0." + strings.Repeat("0", 1<<20) + "1e1048577",
	}
	for _, s := range inputs {
		n := allocated(func() { key(s) })
		assert.LessOrEqual(t, n, uint64(3*len(s)+256), "%.20s… (%d bytes)", s, len(s))
		assert.LessOrEqual(t, testing.AllocsPerRun(3, func() { key(s) }), 2.0)
	}
}

// TestNumberKeyCanonicalIntegers: the integers AppendNumberKey appends as
// they are have the canonical form the general path computes.
func TestNumberKeyCanonicalIntegers(t *testing.T) {
	for _, s := range []string{"0", "-0", "00", "-00", "7", "-7", "07", "-07", "+7", "8080", "-8080",
		"123456789012345678901234", "-123456789012345678901234", "1234567890123456789012345",
		"-", "", "1-", "1.0", "1e3", "١٢"} {
		assert.Equal(t, string(appendNumberKey(nil, s)), string(AppendNumberKey(nil, s)), "%q", s)
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[-+]?[0-9]{0,30}(\.[0-9]{0,3})?`).Draw(t, "s")
		if got, want := string(AppendNumberKey(nil, s)), string(appendNumberKey(nil, s)); got != want {
			t.Fatalf("AppendNumberKey(%q) = %q, want %q", s, got, want)
		}
	})
}
