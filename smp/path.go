package smp

import "github.com/typedpatch/typedpatch/smp/internal/errpath"

// Path locates a value inside a document, for example
// spec.containers[name=nginx].ports[containerPort=53,protocol=UDP].
// It is data: one [Step] per level.
//
// Its String method prints a field name, a key field's name or a key
// value as it is when it is plain: at most 128 bytes of printable text
// without [ ] = , or " (nor . in a name, nor < starting it). Any other,
// the empty string included, prints Go-quoted, cut to its first 64 bytes
// and its length when longer: distinct paths print differently unless
// they differ only past a cut (docs/errors.md). The root prints as
// "<root>".
type Path []Step

// Step is one level of a [Path]: a [FieldStep], [KeyStep] or [IndexStep].
type Step interface {
	engineStep() errpath.Step
}

// FieldStep selects an object's field by its JSON name.
type FieldStep string

// KeyStep selects a merge-list element by its merge key fields, in key
// order. A field absent from the element has the value "<absent>".
type KeyStep []KeyField

// KeyField is one field of a merge key and its value, as JSON text for
// numbers and booleans and plain text for strings.
type KeyField struct {
	Name, Value string
}

// IndexStep selects a list element by position.
type IndexStep int

// String prints the path, quoting as [Path] says.
func (p Path) String() string {
	q := make(errpath.Path, len(p))
	for i, s := range p {
		if s != nil {
			q[i] = s.engineStep()
		}
	}
	return q.String()
}

func (s FieldStep) engineStep() errpath.Step { return errpath.FieldStep(s) }

func (s IndexStep) engineStep() errpath.Step { return errpath.IndexStep(s) }

func (s KeyStep) engineStep() errpath.Step {
	if s == nil {
		return errpath.KeyStep(nil)
	}
	k := make(errpath.KeyStep, len(s))
	for i, f := range s {
		k[i] = errpath.KeyField(f)
	}
	return k
}

// publicPath copies the engine's path into the public types.
func publicPath(p errpath.Path) Path {
	if p == nil {
		return nil
	}
	out := make(Path, len(p))
	for i, s := range p {
		out[i] = publicStep(s)
	}
	return out
}

func publicStep(s errpath.Step) Step {
	switch s := s.(type) {
	case errpath.FieldStep:
		return FieldStep(s)
	case errpath.IndexStep:
		return IndexStep(s)
	case errpath.KeyStep:
		if s == nil {
			return KeyStep(nil)
		}
		k := make(KeyStep, len(s))
		for i, f := range s {
			k[i] = KeyField(f)
		}
		return k
	}
	return nil
}
