package property

import (
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// report is a counterexample: the documents, the patch, and what the
// result should have been, printed as YAML.
type report struct {
	property string
	engine   string
	claim    string // the rule that failed
	options  string
	notes    []string

	original, modified, current []byte
	patch                       []byte
	got, want                   []byte
	err                         error
	mismatches                  []string
}

// yaml renders the report. Documents are YAML (sigs.k8s.io/yaml);
// mismatches list the differing paths.
func (r *report) yaml() string {
	var b strings.Builder
	b.WriteString("\n")
	line := func(k, v string) {
		if v == "" {
			return
		}
		q, _ := yaml.Marshal(v)
		fmt.Fprintf(&b, "%s: %s", k, q)
	}
	line("property", r.property)
	line("api", r.engine)
	line("failed", r.claim)
	line("options", r.options)
	if r.err != nil {
		line("error", r.err.Error())
	}
	for _, d := range []struct {
		k string
		v []byte
	}{{"original", r.original}, {"modified", r.modified}, {"current", r.current}, {"patch", r.patch}, {"got", r.got}, {"want", r.want}} {
		if d.v == nil {
			continue
		}
		y, err := yaml.JSONToYAML(d.v)
		if err != nil {
			y = d.v
		}
		fmt.Fprintf(&b, "%s:\n%s", d.k, indent(string(y)))
	}
	if len(r.mismatches) > 0 {
		b.WriteString("mismatches:\n")
		for _, m := range r.mismatches {
			q, _ := yaml.Marshal([]string{m})
			b.WriteString(indent(string(q)))
		}
	}
	if len(r.notes) > 0 {
		b.WriteString("notes:\n")
		for _, n := range r.notes {
			q, _ := yaml.Marshal([]string{n})
			b.WriteString(indent(string(q)))
		}
	}
	return b.String()
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

// describeMismatch renders a leaf mismatch.
func describeMismatch(m mismatch) string {
	return fmt.Sprintf("%s: got %s, want %s (%s)", m.path, show(m.got, m.gotOK), show(m.want, m.wantOK), m.rule)
}

func show(v any, ok bool) string {
	if !ok {
		return "<absent>"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// docDiff lists where two documents differ: leaves, then the order of
// merge lists.
func docDiff(got, want any, root node) []string {
	gi, wi := indexDoc(got, root), indexDoc(want, root)
	var out []string
	for _, p := range allLeaves(gi, wi) {
		g, w := gi.get(p), wi.get(p)
		if !same(g, w) {
			out = append(out, fmt.Sprintf("%s: got %s, want %s", p, show(g, g != nil), show(w, w != nil)))
		}
	}
	for p, e := range wi {
		if e.kind != entKeyed && e.kind != entSet {
			continue
		}
		ge, ok := gi[p]
		if !ok {
			continue
		}
		gl, wl := listOrder(ge.v, e.n), listOrder(e.v, e.n)
		switch {
		case len(gl) != len(wl):
			out = append(out, fmt.Sprintf("%s: got %d elements, want %d", p, len(gl), len(wl)))
		case orderMismatch(gl, wl):
			out = append(out, fmt.Sprintf("%s: order differs", p))
		}
	}
	return out
}
