// Package inputtext renders text that comes from the input for messages, as
// docs/errors.md ("How input is quoted") says: Go-quoted, unprintable
// characters escaped, long text cut to a bounded length. The engine's
// errors and the command's messages both use it.
package inputtext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxEcho is the most bytes of one input string a message echoes; a
// longer one is cut to its first EchoHead bytes and its length. MaxProse
// bounds free text that may hold input, such as a wrapped error's.
const (
	MaxEcho  = 128
	EchoHead = 64
	MaxProse = 512
)

// Quote renders a string from the input: Go-quoted, so that control
// characters, terminal escapes and invalid UTF-8 are escaped, and cut
// when it is longer than MaxEcho.
func Quote(s string) string {
	if len(s) <= MaxEcho {
		return strconv.Quote(s)
	}
	return strconv.Quote(Cut(s, EchoHead)) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// Bounded cuts text after MaxProse bytes, noting its length.
func Bounded(s string) string {
	if len(s) <= MaxProse {
		return s
	}
	return Cut(s, MaxProse) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// Prose renders free text that may hold input: bounded, and clean.
func Prose(s string) string { return Clean(Bounded(s)) }

// Clean escapes the unprintable characters and invalid UTF-8 of s as Go
// quoting does, so that nothing from the input reaches a terminal as a
// control sequence; the rest is left as it is. Newlines are escaped too;
// see Lines.
func Clean(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !strconv.IsPrint(r) }) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r != utf8.RuneError && strconv.IsPrint(r) {
			b.WriteString(s[:n])
		} else {
			q := strconv.Quote(s[:n])
			b.WriteString(q[1 : len(q)-1])
		}
		s = s[n:]
	}
	return b.String()
}

// Lines is Clean for each line of a text of several lines.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Clean(l)
	}
	return strings.Join(lines, "\n")
}

// Cut returns at most n bytes of s, not splitting a UTF-8 sequence.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := n; i >= 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i]
		}
	}
	return s[:n]
}
