package engine

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// Shorthands for what every walker names at every level.
type (
	slot     = reflectschema.Slot
	pathNode = errpath.Node
)

func newError(kind errpath.ErrorKind, at *pathNode, format string, args ...any) *errpath.Error {
	return errpath.New(kind, at, format, args...)
}

func listed[T any](items []T, name func(T) string, sep string) string {
	return errpath.Listed(items, name, sep)
}
