package property

import (
	"fmt"
	"strconv"
	"strings"
)

// gpath is the path of a value being generated, as a chain from the
// value to the root. It renders as the draw labels print it:
// spec.containers[1].env[0].name, metadata.labels[app].
type gpath struct {
	parent *gpath
	kind   segKind
	name   string // field name or map key
	index  int
	str    string // String's result, once computed
}

type segKind uint8

const (
	segField segKind = iota
	segIndex
	segKey
)

func (p *gpath) field(name string) *gpath { return &gpath{parent: p, kind: segField, name: name} }
func (p *gpath) at(i int) *gpath          { return &gpath{parent: p, kind: segIndex, index: i} }
func (p *gpath) key(k string) *gpath      { return &gpath{parent: p, kind: segKey, name: k} }

// segments returns the path root first.
func (p *gpath) segments() []*gpath {
	var segs []*gpath
	for q := p; q != nil; q = q.parent {
		segs = append(segs, q)
	}
	for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
		segs[i], segs[j] = segs[j], segs[i]
	}
	return segs
}

// String renders the path; the root is "<root>".
func (p *gpath) String() string {
	if p == nil {
		return "<root>"
	}
	if p.str != "" {
		return p.str
	}
	prefix := ""
	if p.parent != nil {
		prefix = p.parent.String()
	}
	switch p.kind {
	case segField:
		if prefix != "" {
			prefix += "."
		}
		p.str = prefix + p.name
	case segIndex:
		p.str = prefix + "[" + strconv.Itoa(p.index) + "]"
	default:
		p.str = prefix + "[" + p.name + "]"
	}
	return p.str
}

// pattern is a parsed path pattern: a field name, or a bracketed index or
// key, per segment; "*" in brackets matches any index or key.
type pattern []patSeg

type patSeg struct {
	field   bool
	text    string // field name, key, or index text
	anyElem bool
}

func parsePattern(s string) (pattern, error) {
	var p pattern
	rest := s
	for rest != "" {
		switch {
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("pattern %q: unclosed [", s)
			}
			in := rest[1:end]
			p = append(p, patSeg{text: in, anyElem: in == "*"})
			rest = rest[end+1:]
		case rest[0] == '.':
			if len(p) == 0 {
				return nil, fmt.Errorf("pattern %q starts with a dot", s)
			}
			rest = rest[1:]
			fallthrough
		default:
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return nil, fmt.Errorf("pattern %q: empty field name", s)
			}
			p = append(p, patSeg{field: true, text: rest[:end]})
			rest = rest[end:]
		}
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("empty pattern")
	}
	return p, nil
}

// matches reports whether the pattern names exactly the path.
func (pt pattern) matches(segs []*gpath) bool {
	if len(pt) != len(segs) {
		return false
	}
	for i, ps := range pt {
		s := segs[i]
		switch {
		case ps.field:
			if s.kind != segField || s.name != ps.text {
				return false
			}
		case ps.anyElem:
			if s.kind == segField {
				return false
			}
		case s.kind == segIndex:
			if strconv.Itoa(s.index) != ps.text {
				return false
			}
		case s.kind == segKey:
			if s.name != ps.text {
				return false
			}
		default:
			return false
		}
	}
	return true
}
