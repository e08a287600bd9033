package smp

import (
	"errors"
	"fmt"
)

// ErrorKind classifies an [Error].
type ErrorKind string

// The kinds of error the engine reports. docs/errors.md shows each with an
// example input.
const (
	ErrInvalidJSON         ErrorKind = "InvalidJSON"         // input is not JSON
	ErrNotObject           ErrorKind = "NotObject"           // a document or patch is not a JSON object
	ErrSchema              ErrorKind = "Schema"              // the data struct's type has no valid schema
	ErrTypeMismatch        ErrorKind = "TypeMismatch"        // a value has the wrong JSON type for its field
	ErrInvalidValue        ErrorKind = "InvalidValue"        // a scalar out of its field's range
	ErrUnknownDirective    ErrorKind = "UnknownDirective"    // a $-key the format does not define
	ErrInvalidDirective    ErrorKind = "InvalidDirective"    // a directive with a wrong value or JSON type
	ErrDirectiveNotAllowed ErrorKind = "DirectiveNotAllowed" // a directive on a field whose strategy does not take it
	ErrMissingMergeKey     ErrorKind = "MissingMergeKey"     // a merge-list element without its merge key
	ErrNullMergeKey        ErrorKind = "NullMergeKey"        // a merge key field set to null
	ErrAmbiguousMergeKey   ErrorKind = "AmbiguousMergeKey"   // a partial $patchMergeKey matching several elements
	ErrSetElementOrder     ErrorKind = "SetElementOrder"     // $setElementOrder disagrees with its patch list
	ErrRetainKeys          ErrorKind = "RetainKeys"          // a patch field not listed in $retainKeys
	ErrMixedList           ErrorKind = "MixedList"           // a merge list mixing objects and scalars
	ErrLimit               ErrorKind = "Limit"               // input beyond a configured limit
	ErrConflict            ErrorKind = "Conflict"            // a three-way patch conflicts with current
	ErrPreconditionFailed  ErrorKind = "PreconditionFailed"  // a PreconditionFunc rejected the patch
)

// Kinds lists every ErrorKind, in the order docs/errors.md describes them.
func Kinds() []ErrorKind {
	return []ErrorKind{ErrInvalidJSON, ErrNotObject, ErrSchema, ErrTypeMismatch, ErrInvalidValue,
		ErrUnknownDirective, ErrInvalidDirective, ErrDirectiveNotAllowed, ErrMissingMergeKey,
		ErrNullMergeKey, ErrAmbiguousMergeKey, ErrSetElementOrder, ErrRetainKeys, ErrMixedList,
		ErrLimit, ErrConflict, ErrPreconditionFailed}
}

// Error is every error the engine returns: where (Path) and what (Kind,
// Msg). Use errors.As to get it.
type Error struct {
	Kind ErrorKind
	Path Path
	Msg  string
	// Conflicts lists the conflicting paths of an ErrConflict.
	Conflicts []Path
	err       error
}

// Error returns "path: message".
func (e *Error) Error() string {
	return e.Path.String() + ": " + e.Msg
}

// Unwrap returns the underlying error, if any (a schema error).
func (e *Error) Unwrap() error { return e.err }

// newError builds an Error at the node's path.
func newError(kind ErrorKind, at *pathNode, format string, args ...any) *Error {
	return &Error{Kind: kind, Path: at.path(), Msg: fmt.Sprintf(format, args...)}
}

// IsConflict reports whether err is a three-way conflict.
func IsConflict(err error) bool { return hasKind(err, ErrConflict) }

// IsPreconditionFailed reports whether err is a failed precondition.
func IsPreconditionFailed(err error) bool { return hasKind(err, ErrPreconditionFailed) }

// KindOf returns the kind of an *Error in err's chain, or "".
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

func hasKind(err error, k ErrorKind) bool { return KindOf(err) == k }
