package jsonval

import (
	"strconv"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// Bounded returns l with MaxDepth within the ceiling every operation
// keeps (cycle.go).
func (l Limits) Bounded() Limits {
	if l.MaxDepth <= 0 || l.MaxDepth > maxNesting {
		l.MaxDepth = maxNesting
	}
	return l
}

// CheckLimits walks a decoded value and reports the first limit it
// exceeds: nesting depth or list length.
func CheckLimits(v any, l Limits, what string) error {
	if l.MaxDepth <= 0 && l.MaxListLength <= 0 {
		return nil
	}
	return WalkLimits(v, l, what, 0, nil)
}

func WalkLimits(v any, l Limits, what string, depth int, at *errpath.Node) error {
	if msg, _ := LimitBreach(v, l, what, depth, false); msg == "" {
		return nil
	}
	// Again in key order, so that the same breach is reported every time.
	msg, steps := LimitBreach(v, l, what, depth, true)
	for i := len(steps) - 1; i >= 0; i-- {
		at = at.Append(steps[i])
	}
	return errpath.New(errpath.ErrLimit, at, "%s", msg)
}

// LimitBreach finds the first limit v exceeds: its message and the steps
// to it, innermost first. No path is built while nothing is wrong.
func LimitBreach(v any, l Limits, what string, depth int, sorted bool) (string, []errpath.Step) {
	if l.MaxDepth > 0 && depth > l.MaxDepth {
		return what + " nests deeper than the limit of " + strconv.Itoa(l.MaxDepth) + " levels", nil
	}
	switch v := v.(type) {
	case map[string]any:
		visit := func(k string, e any) (string, []errpath.Step) {
			if IsScalar(e) {
				return "", nil
			}
			if msg, steps := LimitBreach(e, l, what, depth+1, sorted); msg != "" {
				return msg, append(steps, errpath.FieldStep(k))
			}
			return "", nil
		}
		if sorted {
			for _, k := range SortedKeys(v) {
				if msg, steps := visit(k, v[k]); msg != "" {
					return msg, steps
				}
			}
		} else {
			for k, e := range v {
				if msg, steps := visit(k, e); msg != "" {
					return msg, steps
				}
			}
		}
	case []any:
		if l.MaxListLength > 0 && len(v) > l.MaxListLength {
			return what + " has a list of " + strconv.Itoa(len(v)) + " items, more than " + strconv.Itoa(l.MaxListLength), nil
		}
		for i, e := range v {
			if IsScalar(e) {
				continue
			}
			if msg, steps := LimitBreach(e, l, what, depth+1, sorted); msg != "" {
				return msg, append(steps, errpath.IndexStep(i))
			}
		}
	}
	return "", nil
}

// DecodeLimited decodes a JSON object after checking its size, and checks
// its shape against the limits. A document decodeFast declines takes
// encoding/json's decoder, which says what is wrong with it.
func DecodeLimited(data []byte, what string, l Limits) (map[string]any, error) {
	if l.MaxBytes > 0 && len(data) > l.MaxBytes {
		return nil, &errpath.Error{Kind: errpath.ErrLimit, Msg: what + " is larger than the limit of " + strconv.Itoa(l.MaxBytes) + " bytes"}
	}
	if m, ok := decodeFast(data, l); ok {
		return m, nil
	}
	m, err := DecodeObject(data, what)
	if err != nil {
		return nil, err
	}
	if err := CheckLimits(m, l, what); err != nil {
		return nil, err
	}
	return m, nil
}

// Limits bounds the input an operation accepts: smp.Limits, which
// documents its fields and converts to it.
type Limits struct {
	MaxDepth      int
	MaxBytes      int
	MaxListLength int
	MaxNodes      int
}

// DefaultMaxNodes is the default of Limits.MaxNodes, 33,554,432: about as
// many values as the largest document MaxBytes admits by default can
// hold, so that the values in memory an operation accepts match the
// documents it accepts.
const DefaultMaxNodes = 1 << 25

// Nodes returns the budget MaxNodes sets.
func (l Limits) Nodes() int {
	if l.MaxNodes <= 0 {
		return DefaultMaxNodes
	}
	return l.MaxNodes
}

// DefaultLimits returns the limits used unless WithLimits says otherwise.
func DefaultLimits() Limits {
	return Limits{MaxDepth: 1000, MaxBytes: 64 << 20, MaxListLength: 1 << 20, MaxNodes: DefaultMaxNodes}
}
