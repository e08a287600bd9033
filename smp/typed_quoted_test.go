package smp_test

import "testing"

// typedQuoted holds strings under json's ",string" option, which writes a
// string's JSON encoding as a JSON string. A byte that is not UTF-8 is
// encoded as the escape \ufffd and U+FFFD as itself, so the two strings
// read back alike but their quoted encodings differ.
type typedQuoted struct {
	S   string            `json:"s,string"`
	Opt string            `json:"opt,string,omitempty"`
	In  typedQuotedInner  `json:"in"`
	M   map[string]string `json:"m,omitempty"`
}

type typedQuotedInner struct {
	S string `json:"s,string"`
}

// TestTypedQuotedStrings: Diff, ThreeWay and Apply agree with the JSON
// engine on quoted strings whose plain encodings are alike.
func TestTypedQuotedStrings(t *testing.T) {
	bad, repl := "a\x80", "a\ufffd"
	pairs := [][2]typedQuoted{
		{{S: bad}, {S: repl}},
		{{S: repl}, {S: bad}},
		{{Opt: bad}, {Opt: repl}},
		{{In: typedQuotedInner{S: bad}}, {In: typedQuotedInner{S: repl}}},
		{{S: bad}, {S: "a\x81"}}, // alike quoted too
		{{S: "<"}, {S: "\u003c"}},
	}
	for _, p := range pairs {
		patch := checkTypedDiff(t, p[0], p[1])
		checkTypedApply(t, p[0], patch)
		if _, err := checkTypedThreeWay(t, p[0], p[1], p[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := checkTypedThreeWay(t, p[1], p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
}
