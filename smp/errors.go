package smp

import (
	"errors"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// ErrorKind classifies an [Error]. A kind is an error itself, so that
// errors.Is(err, ErrConflict) tells whether err is an *Error of that kind.
type ErrorKind string

// The kinds of error the engine reports. docs/errors.md shows each with an
// example input.
const (
	ErrInvalidJSON         ErrorKind = "InvalidJSON"         // input is not JSON
	ErrNotObject           ErrorKind = "NotObject"           // a document or patch is not a JSON object
	ErrSchema              ErrorKind = "Schema"              // the data struct's type has no valid schema
	ErrTypeMismatch        ErrorKind = "TypeMismatch"        // a value has the wrong JSON type for its field
	ErrInvalidValue        ErrorKind = "InvalidValue"        // a scalar out of its field's range, or a resourceVersion a patch for a server changes
	ErrUnknownDirective    ErrorKind = "UnknownDirective"    // a $-key the format does not define
	ErrInvalidDirective    ErrorKind = "InvalidDirective"    // a directive with a wrong value or JSON type
	ErrDirectiveNotAllowed ErrorKind = "DirectiveNotAllowed" // a directive on a field whose strategy does not take it
	ErrMissingMergeKey     ErrorKind = "MissingMergeKey"     // a merge-list element without its merge key
	ErrNullMergeKey        ErrorKind = "NullMergeKey"        // a merge key field set to null
	ErrAmbiguousMergeKey   ErrorKind = "AmbiguousMergeKey"   // a partial $patchMergeKey matching several elements
	ErrSetElementOrder     ErrorKind = "SetElementOrder"     // $setElementOrder disagrees with its patch list
	ErrRetainKeys          ErrorKind = "RetainKeys"          // a patch field not listed in $retainKeys
	ErrMixedList           ErrorKind = "MixedList"           // a merge list mixing objects and scalars
	ErrUnknownField        ErrorKind = "UnknownField"        // objects or lists meeting under a field the schema does not declare
	ErrLimit               ErrorKind = "Limit"               // input beyond a configured limit
	ErrConflict            ErrorKind = "Conflict"            // a three-way patch conflicts with current
	ErrPreconditionFailed  ErrorKind = "PreconditionFailed"  // a PreconditionFunc rejected the patch
	ErrNotComposable       ErrorKind = "NotComposable"       // no one patch has the effect of a sequence (Compose)
)

// Error returns the kind's name.
func (k ErrorKind) Error() string { return string(k) }

// Kinds lists every ErrorKind, in the order docs/errors.md describes them.
func Kinds() []ErrorKind {
	in := errpath.Kinds()
	out := make([]ErrorKind, len(in))
	for i, k := range in {
		out[i] = ErrorKind(k)
	}
	return out
}

// Error is every error the engine returns: where (Path) and what (Kind,
// Msg, and for ErrConflict every conflicting path, Conflicts). Use
// errors.As to get it.
type Error struct {
	// Kind classifies the error.
	Kind ErrorKind
	// Path is where it happened; empty for a whole document or an
	// argument.
	Path Path
	// Msg says what happened, input in it quoted and cut as
	// docs/errors.md describes.
	Msg string
	// Conflicts lists the conflicting paths of an ErrConflict.
	Conflicts []Path
	err       error
}

// Error returns "path: message".
func (e *Error) Error() string {
	return e.Path.String() + ": " + e.Msg
}

// Unwrap returns the underlying error, if any (a schema error, or the
// JSON decoder's).
func (e *Error) Unwrap() error { return e.err }

// Is reports whether target is e's kind, for errors.Is.
func (e *Error) Is(target error) bool {
	k, ok := target.(ErrorKind)
	return ok && k == e.Kind
}

// IsConflict reports whether err is a three-way conflict.
func IsConflict(err error) bool { return KindOf(err) == ErrConflict }

// IsPreconditionFailed reports whether err is a failed precondition.
func IsPreconditionFailed(err error) bool { return KindOf(err) == ErrPreconditionFailed }

// KindOf returns the kind of an *Error in err's chain, or "".
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

// public is err as the API returns it: the engine's *errpath.Error
// becomes an *Error, any other error stays as it is. Every exported
// function passes its error through it.
func public(err error) error {
	if err == nil {
		return nil
	}
	return publicError(err)
}

func publicError(err error) error {
	e, ok := err.(*errpath.Error)
	if !ok {
		return err
	}
	out := &Error{Kind: ErrorKind(e.Kind), Path: publicPath(e.Path), Msg: e.Msg, err: public(e.Unwrap())}
	if e.Conflicts != nil {
		out.Conflicts = make([]Path, len(e.Conflicts))
		for i, p := range e.Conflicts {
			out.Conflicts[i] = publicPath(p)
		}
	}
	return out
}

// newError is errpath.New: the error an entry point of this package
// makes itself, made public on the way out as the engine's are.
func newError(kind ErrorKind, at *errpath.Node, format string, args ...any) *errpath.Error {
	return errpath.New(errpath.ErrorKind(kind), at, format, args...)
}

// wrapError is errpath.Wrap, made public on the way out.
func wrapError(kind ErrorKind, msg string, err error) *errpath.Error {
	return errpath.Wrap(errpath.ErrorKind(kind), msg, err)
}
