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
type Path = errpath.Path

// Step is one level of a [Path]: a [FieldStep], [KeyStep] or [IndexStep].
type Step = errpath.Step

// FieldStep selects an object's field by its JSON name.
type FieldStep = errpath.FieldStep

// KeyStep selects a merge-list element by its merge key fields, in key
// order. A field absent from the element has the value "<absent>".
type KeyStep = errpath.KeyStep

// KeyField is one field of a merge key and its value, as JSON text for
// numbers and booleans and plain text for strings.
type KeyField = errpath.KeyField

// IndexStep selects a list element by position.
type IndexStep = errpath.IndexStep
