package jsonwalk

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Shorthands for the packages this one builds on.
type (
	slot         = reflectschema.Position
	pathNode     = errpath.Node
	Error        = errpath.Error
	ErrorKind    = errpath.ErrorKind
	Path         = errpath.Path
	Step         = errpath.Step
	FieldStep    = errpath.FieldStep
	IndexStep    = errpath.IndexStep
	KeyStep      = errpath.KeyStep
	KeyField     = errpath.KeyField
	Limits       = jsonval.Limits
	Ordering     = format.Ordering
	DirectiveSet = format.DirectiveSet
)

const (
	KubernetesOrder = format.KubernetesOrder
	SeedOrder       = format.SeedOrder
)

const (
	ErrInvalidJSON         = errpath.ErrInvalidJSON
	ErrNotObject           = errpath.ErrNotObject
	ErrSchema              = errpath.ErrSchema
	ErrTypeMismatch        = errpath.ErrTypeMismatch
	ErrInvalidValue        = errpath.ErrInvalidValue
	ErrUnknownDirective    = errpath.ErrUnknownDirective
	ErrInvalidDirective    = errpath.ErrInvalidDirective
	ErrDirectiveNotAllowed = errpath.ErrDirectiveNotAllowed
	ErrMissingMergeKey     = errpath.ErrMissingMergeKey
	ErrNullMergeKey        = errpath.ErrNullMergeKey
	ErrAmbiguousMergeKey   = errpath.ErrAmbiguousMergeKey
	ErrSetElementOrder     = errpath.ErrSetElementOrder
	ErrRetainKeys          = errpath.ErrRetainKeys
	ErrMixedList           = errpath.ErrMixedList
	ErrUnknownField        = errpath.ErrUnknownField
	ErrLimit               = errpath.ErrLimit
	ErrConflict            = errpath.ErrConflict
	ErrPreconditionFailed  = errpath.ErrPreconditionFailed
	ErrNotComposable       = errpath.ErrNotComposable
)

func newError(kind ErrorKind, at *pathNode, format string, args ...any) *Error {
	return errpath.New(kind, at, format, args...)
}

func quote(s string) string                   { return errpath.Quote(s) }
func echo(s string) string                    { return errpath.Echo(s) }
func prose(s string) string                   { return errpath.Prose(s) }
func comparePaths(a, b Path) int              { return errpath.Compare(a, b) }
func under(err error, s Step) error           { return errpath.Under(err, s) }
func underPath(err error, at *pathNode) error { return errpath.UnderPath(err, at) }
func kindOf(err error) ErrorKind              { return errpath.KindOf(err) }

func listed[T any](items []T, name func(T) string, sep string) string {
	return errpath.Listed(items, name, sep)
}
