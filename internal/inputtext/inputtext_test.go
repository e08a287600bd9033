package inputtext_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/typedpatch/typedpatch/internal/inputtext"
)

func Example() {
	fmt.Println(inputtext.Quote("web\x1b[31m"))
	fmt.Println(inputtext.Clean("bad \x1b[2J byte \xff"))
	fmt.Println(inputtext.Quote(strings.Repeat("a", 200))[61:])
	// Output:
	// "web\x1b[31m"
	// bad \x1b[2J byte \xff
	// aaaa"…(200 bytes)
}

func TestCutKeepsRunes(t *testing.T) {
	s := strings.Repeat("é", 100) // 2 bytes each
	for n := range 20 {
		c := inputtext.Cut(s, n)
		if !utf8.ValidString(c) || len(c) > n || len(c) < n-1 {
			t.Errorf("Cut(_, %d) = %q", n, c)
		}
	}
}

func TestBounded(t *testing.T) {
	long := strings.Repeat("x", inputtext.MaxProse+10)
	got := inputtext.Bounded(long)
	if !strings.HasSuffix(got, fmt.Sprintf("…(%d bytes)", len(long))) || len(got) > inputtext.MaxProse+20 {
		t.Errorf("Bounded: %q", got)
	}
	if got := inputtext.Prose("a\nb\x00"); got != `a\nb\x00` {
		t.Errorf("Prose: %q", got)
	}
	if got := inputtext.Lines("a\x01\nb"); got != "a\\x01\nb" {
		t.Errorf("Lines: %q", got)
	}
}
