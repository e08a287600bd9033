package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// CheckSize returns an *Error of kind ErrLimit, naming the path where the
// budget ran out, when v stands for more JSON than l.MaxNodes allows (see
// [Limits]): a Go value that reaches one map, slice or pointer along many
// paths, such as a map holding the same map under two keys at each of
// forty levels, stands for a tree of 2^40 values. It takes time linear in
// the distinct values in memory. Every operation of this package measures
// the Go values it takes so; CheckSize is for values handed to code that
// walks every path, such as encoding/json. what names v in the message.
func CheckSize(v any, l Limits, what string) error {
	b := goval.NewBudget(jsonval.Limits(l))
	return public(b.MeasureAny(v, what))
}
