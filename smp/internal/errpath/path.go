package errpath

import (
	"cmp"
	"strconv"
	"strings"
)

// Path locates a value inside a document: smp.Path, which documents it
// and its steps and converts from it. [Path.String] prints it.
type Path []Step

// Step is one level of a [Path].
type Step interface {
	appendTo(b *strings.Builder, first bool)
}

// FieldStep selects an object's field.
type FieldStep string

// KeyStep selects a merge-list element by its merge key fields.
type KeyStep []KeyField

// KeyField is one field of a merge key and its value.
type KeyField struct {
	Name, Value string
}

// IndexStep selects a list element by position.
type IndexStep int

func (s FieldStep) appendTo(b *strings.Builder, first bool) {
	if !first {
		b.WriteByte('.')
	}
	b.WriteString(echoName(string(s)))
}

func (s KeyStep) appendTo(b *strings.Builder, _ bool) {
	b.WriteByte('[')
	for i, f := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(echoName(f.Name))
		b.WriteByte('=')
		b.WriteString(Echo(f.Value))
	}
	b.WriteByte(']')
}

func (s IndexStep) appendTo(b *strings.Builder, _ bool) {
	b.WriteByte('[')
	b.WriteString(strconv.Itoa(int(s)))
	b.WriteByte(']')
}

// String prints the path; the document root prints as "<root>".
func (p Path) String() string {
	if len(p) == 0 {
		return "<root>"
	}
	var b strings.Builder
	for i, s := range p {
		s.appendTo(&b, i == 0)
	}
	return b.String()
}

// Node is a path under construction: each level points at its parent, so
// descending costs nothing until an error asks for the [Path]. A level
// naming a list element by key keeps the element and what names it, and
// renders the KeyStep only then. The nil *Node is the root.
type Node struct {
	parent *Node
	step   Step
	elem   map[string]any
	keys   KeyNamer
	// name is the field a level selects when step is nil and keys is
	// nil: kept as a string, so that descending into a field allocates
	// no Step.
	name string
}

// KeyNamer names a merge-list element by its key fields.
type KeyNamer interface {
	KeyStep(elem map[string]any) KeyStep
}

// Keyed returns the level of a list element named by its key fields.
func (n *Node) Keyed(k KeyNamer, elem map[string]any) *Node {
	return n.KeyedIn(new(Node), k, elem)
}

// KeyedIn is Keyed written into dst, memory the caller holds (such as
// one element of a slice), so that a list's levels take no allocation
// each.
func (n *Node) KeyedIn(dst *Node, k KeyNamer, elem map[string]any) *Node {
	*dst = Node{parent: n, elem: elem, keys: k}
	return dst
}

// Field returns the level of an object's field.
func (n *Node) Field(name string) *Node { return &Node{parent: n, name: name} }

// Index returns the level of a list element by position.
func (n *Node) Index(i int) *Node { return &Node{parent: n, step: IndexStep(i)} }

// Key returns the level of a list element named by k.
func (n *Node) Key(k KeyStep) *Node { return &Node{parent: n, step: k} }

// Append returns the level that step s selects.
func (n *Node) Append(s Step) *Node { return &Node{parent: n, step: s} }

// Name is the field a level selects by Field, or "".
func (n *Node) Name() string {
	if n == nil {
		return ""
	}
	return n.name
}

// Path materialises the node chain, root first.
func (n *Node) Path() Path {
	depth := 0
	for m := n; m != nil; m = m.parent {
		depth++
	}
	p := make(Path, depth)
	for m := n; m != nil; m = m.parent {
		depth--
		switch {
		case m.keys != nil:
			p[depth] = m.keys.KeyStep(m.elem)
		case m.step == nil:
			p[depth] = FieldStep(m.name)
		default:
			p[depth] = m.step
		}
	}
	return p
}

// Under puts an error's path under a step.
func Under(err error, s Step) error {
	if e, ok := err.(*Error); ok {
		e.prepend(s)
	}
	return err
}

// UnderPath puts an error's path under a node's path.
func UnderPath(err error, at *Node) error {
	if e, ok := err.(*Error); ok && at != nil {
		above := at.Path()
		for i := len(above) - 1; i >= 0; i-- {
			e.prepend(above[i])
		}
	}
	return err
}

// prepend puts s before the path's steps, in the free steps of room when
// Path still ends it, else in a new room twice as long.
func (e *Error) prepend(s Step) {
	n := len(e.Path)
	start := len(e.room) - n
	if e.owner == e && start > 0 && (n == 0 || &e.room[start] == &e.Path[0]) {
		e.room[start-1] = s
		e.Path = e.room[start-1:]
		return
	}
	room := make(Path, 2*n+8)
	copy(room[len(room)-n:], e.Path)
	room[len(room)-n-1] = s
	e.room, e.owner = room, e
	e.Path = room[len(room)-n-1:]
}

// Compare orders paths step by step, a path before its extensions:
// fields by name, indexes by number, keys by their text, and kinds of
// step fields < keys < indexes. Errors found in any order are reported
// by the least path, so that they do not depend on a map's order.
func Compare(a, b Path) int {
	for i := range min(len(a), len(b)) {
		if c := compareSteps(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func compareSteps(a, b Step) int {
	rank := func(s Step) int {
		switch s.(type) {
		case FieldStep:
			return 0
		case KeyStep:
			return 1
		}
		return 2
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c
	}
	switch a := a.(type) {
	case FieldStep:
		return strings.Compare(string(a), string(b.(FieldStep)))
	case IndexStep:
		return cmp.Compare(a, b.(IndexStep))
	}
	return strings.Compare(Path{a}.String(), Path{b}.String())
}
