package errpath

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/typedpatch/typedpatch/internal/inputtext"
)

// ErrorKind classifies an [Error].
type ErrorKind string

// The kinds of error the engine reports, as package smp documents them
// (smp.ErrorKind); smp converts them by value.
const (
	ErrInvalidJSON         ErrorKind = "InvalidJSON"
	ErrNotObject           ErrorKind = "NotObject"
	ErrSchema              ErrorKind = "Schema"
	ErrTypeMismatch        ErrorKind = "TypeMismatch"
	ErrInvalidValue        ErrorKind = "InvalidValue"
	ErrUnknownDirective    ErrorKind = "UnknownDirective"
	ErrInvalidDirective    ErrorKind = "InvalidDirective"
	ErrDirectiveNotAllowed ErrorKind = "DirectiveNotAllowed"
	ErrMissingMergeKey     ErrorKind = "MissingMergeKey"
	ErrNullMergeKey        ErrorKind = "NullMergeKey"
	ErrAmbiguousMergeKey   ErrorKind = "AmbiguousMergeKey"
	ErrSetElementOrder     ErrorKind = "SetElementOrder"
	ErrRetainKeys          ErrorKind = "RetainKeys"
	ErrMixedList           ErrorKind = "MixedList"
	ErrUnknownField        ErrorKind = "UnknownField"
	ErrLimit               ErrorKind = "Limit"
	ErrConflict            ErrorKind = "Conflict"
	ErrPreconditionFailed  ErrorKind = "PreconditionFailed"
	ErrNotComposable       ErrorKind = "NotComposable"
)

// Error makes a kind an error, so that errors.Is(err, ErrConflict) tells
// whether err is an [Error] of that kind.
func (k ErrorKind) Error() string { return string(k) }

// Is reports whether target is e's kind, for errors.Is.
func (e *Error) Is(target error) bool {
	k, ok := target.(ErrorKind)
	return ok && k == e.Kind
}

// Kinds lists every ErrorKind, in the order docs/errors.md describes them.
func Kinds() []ErrorKind {
	return []ErrorKind{ErrInvalidJSON, ErrNotObject, ErrSchema, ErrTypeMismatch, ErrInvalidValue,
		ErrUnknownDirective, ErrInvalidDirective, ErrDirectiveNotAllowed, ErrMissingMergeKey,
		ErrNullMergeKey, ErrAmbiguousMergeKey, ErrSetElementOrder, ErrRetainKeys, ErrMixedList,
		ErrUnknownField, ErrLimit, ErrConflict, ErrPreconditionFailed, ErrNotComposable}
}

// Error is every error the engine returns: where (Path) and what (Kind,
// Msg). Package smp copies it into its own smp.Error at its API.
type Error struct {
	Kind ErrorKind
	Path Path
	Msg  string
	// Conflicts lists the conflicting paths of an ErrConflict.
	Conflicts []Path
	err       error
	// room is the array Path ends, with free steps before it, so that
	// a walk unwinding d levels builds the path in O(d) (Under); owner
	// tells a copied Error, which must not write into another's room.
	room  Path
	owner *Error
}

// Error returns "path: message".
func (e *Error) Error() string {
	return e.Path.String() + ": " + e.Msg
}

// Unwrap returns the underlying error, if any (a schema error).
func (e *Error) Unwrap() error { return e.err }

// New builds an Error at the node's path. Any argument may come from the
// input: a string is quoted for %q (see Quote) and escaped and cut for %s
// and %v (see Prose), a json.Number is echoed, an error's text is escaped
// and cut.
func New(kind ErrorKind, at *Node, format string, args ...any) *Error {
	for i, a := range args {
		switch a.(type) {
		case string, json.Number, error:
			args[i] = inputArg{a}
		}
	}
	return &Error{Kind: kind, Path: at.Path(), Msg: fmt.Sprintf(format, args...)}
}

// Wrap builds an Error of kind with message msg whose Unwrap is err.
func Wrap(kind ErrorKind, msg string, err error) *Error {
	return &Error{Kind: kind, Msg: msg, err: err}
}

// inputArg is an argument of New, formatted as input.
type inputArg struct{ v any }

// Format implements fmt.Formatter.
func (a inputArg) Format(f fmt.State, verb rune) {
	var s string
	switch v := a.v.(type) {
	case string:
		if verb == 'q' {
			s = Quote(v)
		} else {
			s = Prose(v)
		}
	case json.Number:
		s = Echo(string(v))
	case error:
		s = Prose(v.Error())
	}
	_, _ = io.WriteString(f, s)
}

// Quote renders a string from the input for a message (internal/inputtext).
func Quote(s string) string { return inputtext.Quote(s) }

// Echo renders input text that reads well bare, a number or a key value:
// as it is when it is plain (see isPlain), else as Quote does.
func Echo(s string) string {
	if isPlain(s, `[]=,"`) {
		return s
	}
	return Quote(s)
}

// echoName renders a name in a path as Echo does, and quotes it also when
// it holds a dot or starts with '<', so that no field prints as the root
// ("<root>") does.
func echoName(s string) string {
	if isPlain(s, `.[]=,"`) && s[0] != '<' {
		return s
	}
	return Quote(s)
}

// isPlain reports whether s can be echoed bare: non-empty, at most
// inputtext.MaxEcho bytes of printable UTF-8, none of them in delims.
func isPlain(s, delims string) bool {
	if s == "" || len(s) > inputtext.MaxEcho {
		return false
	}
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) || strings.ContainsRune(delims, r) {
			return false
		}
	}
	return true
}

// Prose renders free text that may hold input, such as a wrapped error's
// (internal/inputtext).
func Prose(s string) string { return inputtext.Prose(s) }

// maxListed is the most items a message lists.
const maxListed = 8

// Listed joins the names of the first maxListed items with sep, and ends
// with "…" when there are more.
func Listed[T any](items []T, name func(T) string, sep string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(sep)
		}
		if i == maxListed {
			b.WriteString("…")
			break
		}
		b.WriteString(name(it))
	}
	return b.String()
}

// KindOf returns the kind of an *Error in err's chain, or "".
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
