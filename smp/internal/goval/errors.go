package goval

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// Shorthands for what every walk names at every level.
type (
	slot     = reflectschema.Slot
	pathNode = errpath.Node
)

func newError(kind errpath.ErrorKind, at *pathNode, format string, args ...any) *errpath.Error {
	return errpath.New(kind, at, format, args...)
}

func under(err error, s errpath.Step) error { return errpath.Under(err, s) }
