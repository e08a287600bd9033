package rfcpatch

import (
	"errors"
	"slices"
	"strconv"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Test is a leading RFC 6902 "test" operation: the value at Path must
// equal Value, or the server applies nothing.
type Test struct {
	Path  []string // unescaped tokens
	Value any
}

// JSONPatch returns the RFC 6902 operations, as a JSON array, that turn
// live into result, after the tests. Operations are per field and per list
// element: elements of a list merged by key pair by that key, others by
// position. budget bounds the output's size (a multiple of the input's,
// which keeps the work linear even where paths are long and deep); past
// it, the operations replace each changed top-level field whole.
func JSONPatch(live, result map[string]any, s reflectschema.Slot, tests []Test, budget int) ([]byte, error) {
	w := &writer{budget: budget}
	w.out = append(w.out, '[')
	for _, t := range tests {
		for _, tok := range t.Path {
			w.push(tok)
		}
		w.op("test", t.Value, true)
		w.path = w.path[:0]
	}
	head := len(w.out)
	w.object(live, result, s)
	if w.over {
		w.out, w.over, w.budget = w.out[:head], false, 0
		w.topLevel(live, result)
	}
	if w.err != nil {
		return nil, w.err
	}
	return append(w.out, ']'), nil
}

// writer appends operations; path is the current JSON pointer, escaped.
type writer struct {
	out    []byte
	path   []byte
	n      int // operations written
	budget int // 0: none
	over   bool
	err    error
}

var errNotEncodable = errors.New("value not encodable")

// push appends one reference token, escaped per RFC 6901.
func (w *writer) push(tok string) int {
	n := len(w.path)
	w.path = append(w.path, '/')
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; c {
		case '~':
			w.path = append(w.path, '~', '0')
		case '/':
			w.path = append(w.path, '~', '1')
		default:
			w.path = append(w.path, c)
		}
	}
	return n
}

func (w *writer) pushIndex(i int) int {
	n := len(w.path)
	w.path = strconv.AppendInt(append(w.path, '/'), int64(i), 10)
	return n
}

// op writes one operation at the current path.
func (w *writer) op(name string, v any, withValue bool) {
	if w.over || w.err != nil {
		return
	}
	if w.n > 0 {
		w.out = append(w.out, ',')
	}
	w.n++
	w.out = append(w.out, `{"op":"`...)
	w.out = append(w.out, name...)
	w.out = append(w.out, `","path":`...)
	w.out = jsonval.AppendString(w.out, string(w.path))
	if withValue {
		w.out = append(w.out, `,"value":`...)
		var err error
		if w.out, err = jsonval.AppendJSON(w.out, v); err != nil {
			w.err = errors.Join(errNotEncodable, err)
			return
		}
	}
	w.out = append(w.out, '}')
	if w.budget > 0 && len(w.out) > w.budget {
		w.over = true
	}
}

// value writes the operations that turn a into b at the current path.
func (w *writer) value(a, b any, s reflectschema.Slot) {
	if w.over || w.err != nil {
		return
	}
	switch b := b.(type) {
	case map[string]any:
		if a, ok := a.(map[string]any); ok {
			w.object(a, b, s)
			return
		}
	case []any:
		if a, ok := a.([]any); ok {
			w.list(a, b, s)
			return
		}
	default:
		if jsonval.IsScalar(a) && jsonval.Equal(a, b) {
			return
		}
	}
	w.op("replace", b, true)
}

// object writes an object's changes, field by field in key order.
func (w *writer) object(a, b map[string]any, s reflectschema.Slot) {
	w.fields(a, b, s, false)
}

// topLevel replaces each changed top-level field whole.
func (w *writer) topLevel(a, b map[string]any) {
	w.fields(a, b, reflectschema.Slot{}, true)
}

// fields writes the changes of an object's fields in key order: each
// changed field replaced when whole, else changed inside.
func (w *writer) fields(a, b map[string]any, s reflectschema.Slot, whole bool) {
	for _, k := range unionKeys(a, b) {
		if w.over || w.err != nil {
			return
		}
		av, had := a[k]
		bv, has := b[k]
		n := w.push(k)
		switch {
		case !has:
			w.op("remove", nil, false)
		case !had:
			w.op("add", bv, true)
		case !whole:
			w.value(av, bv, s.Child(k))
		case !jsonval.Equal(av, bv):
			w.op("replace", bv, true)
		}
		w.path = w.path[:n]
	}
}

// unionKeys returns the keys of a and b, sorted.
func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	for k := range b {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
