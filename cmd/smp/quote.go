package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Messages quote what comes from the command line or a file as the engine
// does (docs/errors.md): Go-quoted, cut to its first echoHead bytes and its
// length when longer than maxEcho.
const (
	maxEcho  = 128
	echoHead = 64
	maxProse = 512
)

// quote renders a string from the input for a message.
func quote(s string) string {
	if len(s) <= maxEcho {
		return strconv.Quote(s)
	}
	return strconv.Quote(cut(s, echoHead)) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// bounded cuts text that may hold input (a file name, a wrapped error)
// after maxProse bytes, noting its length.
func bounded(s string) string {
	if len(s) <= maxProse {
		return s
	}
	return cut(s, maxProse) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// clean escapes the unprintable characters and invalid UTF-8 of a message
// as Go quoting does, so that nothing from the input reaches the terminal
// as a control sequence; the rest is left as it is.
func clean(s string) string {
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

// cleanLines is clean for each line of a message of several lines.
func cleanLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = clean(l)
	}
	return strings.Join(lines, "\n")
}

// cut returns at most n bytes of s, not splitting a UTF-8 sequence.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := n; i > n-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i]
		}
	}
	return s[:n]
}
