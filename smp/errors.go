package smp

import "github.com/typedpatch/typedpatch/smp/internal/errpath"

// ErrorKind classifies an [Error].
type ErrorKind = errpath.ErrorKind

// The kinds of error the engine reports. docs/errors.md shows each with an
// example input.
const (
	ErrInvalidJSON         = errpath.ErrInvalidJSON         // input is not JSON
	ErrNotObject           = errpath.ErrNotObject           // a document or patch is not a JSON object
	ErrSchema              = errpath.ErrSchema              // the data struct's type has no valid schema
	ErrTypeMismatch        = errpath.ErrTypeMismatch        // a value has the wrong JSON type for its field
	ErrInvalidValue        = errpath.ErrInvalidValue        // a scalar out of its field's range, or a resourceVersion a patch for a server changes
	ErrUnknownDirective    = errpath.ErrUnknownDirective    // a $-key the format does not define
	ErrInvalidDirective    = errpath.ErrInvalidDirective    // a directive with a wrong value or JSON type
	ErrDirectiveNotAllowed = errpath.ErrDirectiveNotAllowed // a directive on a field whose strategy does not take it
	ErrMissingMergeKey     = errpath.ErrMissingMergeKey     // a merge-list element without its merge key
	ErrNullMergeKey        = errpath.ErrNullMergeKey        // a merge key field set to null
	ErrAmbiguousMergeKey   = errpath.ErrAmbiguousMergeKey   // a partial $patchMergeKey matching several elements
	ErrSetElementOrder     = errpath.ErrSetElementOrder     // $setElementOrder disagrees with its patch list
	ErrRetainKeys          = errpath.ErrRetainKeys          // a patch field not listed in $retainKeys
	ErrMixedList           = errpath.ErrMixedList           // a merge list mixing objects and scalars
	ErrUnknownField        = errpath.ErrUnknownField        // objects or lists meeting under a field the schema does not declare
	ErrLimit               = errpath.ErrLimit               // input beyond a configured limit
	ErrConflict            = errpath.ErrConflict            // a three-way patch conflicts with current
	ErrPreconditionFailed  = errpath.ErrPreconditionFailed  // a PreconditionFunc rejected the patch
	ErrNotComposable       = errpath.ErrNotComposable       // no one patch has the effect of a sequence (Compose)
)

// Kinds lists every ErrorKind, in the order docs/errors.md describes them.
func Kinds() []ErrorKind { return errpath.Kinds() }

// Error is every error the engine returns: where (Path) and what (Kind,
// Msg, and for ErrConflict every conflicting path, Conflicts). Use
// errors.As to get it.
type Error = errpath.Error

// IsConflict reports whether err is a three-way conflict.
func IsConflict(err error) bool { return KindOf(err) == ErrConflict }

// IsPreconditionFailed reports whether err is a failed precondition.
func IsPreconditionFailed(err error) bool { return KindOf(err) == ErrPreconditionFailed }

// KindOf returns the kind of an *Error in err's chain, or "".
func KindOf(err error) ErrorKind { return errpath.KindOf(err) }

// The engine's shorthands for errpath.
type pathNode = errpath.Node

func newError(kind ErrorKind, at *pathNode, format string, args ...any) *Error {
	return errpath.New(kind, at, format, args...)
}

func under(err error, s Step) error           { return errpath.Under(err, s) }
func underPath(err error, at *pathNode) error { return errpath.UnderPath(err, at) }
