package main

import (
	"strconv"
	"strings"
	"testing"
)

func TestSplitDocuments(t *testing.T) {
	// Each document with the line it starts on.
	for text, want := range map[string][]string{
		"a: 1\n":                               {"1 a: 1\n"},
		"---\na: 1\n---\nb: 2\n":               {"1 \na: 1\n", "3 \nb: 2\n"},
		"a: 1\n--- {b: 2}\n":                   {"1 a: 1\n", "2  {b: 2}\n"},
		"a: 1\n---\n# only a comment\n---\nc:": {"1 a: 1\n", "4 \nc:"},
		"a: |\n  ---\n  x\n...\nb: 1\n":        {"1 a: |\n  ---\n  x\n", "5 b: 1\n"},
	} {
		got := splitDocuments([]byte(text))
		var gs []string
		for _, g := range got {
			gs = append(gs, strconv.Itoa(g.line)+" "+string(g.text))
		}
		if strings.Join(gs, "|") != strings.Join(want, "|") {
			t.Errorf("splitDocuments(%q) = %q, want %q", text, gs, want)
		}
	}
}

func TestTabMessage(t *testing.T) {
	for text, want := range map[string]string{
		"a:\n\tb: 1\n":                  "line 2 is indented with a tab",
		"a:\n  b:\n  \t- 1\n":           "line 3 is indented with a tab",
		"---\nk: v\n---\nx:\n\t y: 1\n": "document 2: line 5 is indented with a tab",
	} {
		_, err := parseDocuments("ORIGINAL", "f.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseDocuments(%q): %v, want an error with %q", text, err, want)
		}
	}
	// A tab inside a value is no error.
	if _, err := parseDocuments("ORIGINAL", "f.yaml", []byte("a: \"x\\ty\"\nb: c\td\n")); err != nil {
		t.Errorf("a tab in a value: %v", err)
	}
}

func TestPairObjects(t *testing.T) {
	doc := func(kind, ns, name string) object {
		js := `{"apiVersion":"v1","kind":"` + kind + `","metadata":{"namespace":"` + ns + `","name":"` + name + `"}}`
		return object{json: []byte(js), id: identify([]byte(js))}
	}
	roles := []string{"A", "B"}
	groups, err := pairObjects(roles, [][]object{
		{doc("Service", "x", "web"), doc("ConfigMap", "x", "web"), doc("Service", "y", "web")},
		{doc("Service", "y", "web"), doc("Secret", "x", "web"), doc("Service", "x", "web")},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range groups {
		got = append(got, g.id.String()+" missing "+strings.Join(g.missing(roles), ","))
	}
	want := []string{"v1 Service x/web missing ", "v1 ConfigMap x/web missing B", "v1 Service y/web missing ", "v1 Secret x/web missing A"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := pairObjects(roles, [][]object{{doc("Service", "x", "a"), doc("Service", "x", "a")}, {}}); err == nil || !strings.Contains(err.Error(), "document 0 and document 0 are both v1 Service x/a") {
		t.Errorf("a duplicate object: %v", err)
	}
}
