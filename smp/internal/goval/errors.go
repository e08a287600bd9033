package goval

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Shorthands for the packages this one builds on.
type (
	slot      = reflectschema.Position
	pathNode  = errpath.Node
	Error     = errpath.Error
	Path      = errpath.Path
	Step      = errpath.Step
	FieldStep = errpath.FieldStep
	IndexStep = errpath.IndexStep
	KeyStep   = errpath.KeyStep
	KeyField  = errpath.KeyField
	Limits    = jsonval.Limits
)

const (
	ErrSchema       = errpath.ErrSchema
	ErrTypeMismatch = errpath.ErrTypeMismatch
	ErrInvalidValue = errpath.ErrInvalidValue
	ErrLimit        = errpath.ErrLimit
)

func newError(kind errpath.ErrorKind, at *pathNode, format string, args ...any) *Error {
	return errpath.New(kind, at, format, args...)
}

func under(err error, s Step) error { return errpath.Under(err, s) }
