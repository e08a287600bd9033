package jsonval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/smallmap"
)

// Documents and patches are held as the values encoding/json decodes into
// with UseNumber: map[string]any, []any, string, json.Number, bool and nil.
// Numbers keep their text, so integers never pass through float64.

// Kind is the JSON type of a decoded value.
type Kind uint8

const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
	KindInvalid
)

var jsonKindNames = [...]string{"null", "boolean", "number", "string", "array", "object", "invalid"}

func (k Kind) String() string { return jsonKindNames[k] }

// WithArticle returns the name with "a" or "an": "an object", "a string".
func (k Kind) WithArticle() string {
	if k == KindObject || k == KindArray || k == KindInvalid {
		return "an " + k.String()
	}
	return "a " + k.String()
}

func KindOf(v any) Kind {
	switch v.(type) {
	case nil:
		return KindNull
	case bool:
		return KindBool
	case json.Number:
		return KindNumber
	case string:
		return KindString
	case []any:
		return KindArray
	case map[string]any:
		return KindObject
	}
	return KindInvalid
}

// Equal reports whether two decoded values are the same JSON. Numbers
// compare by their text, as Kubernetes compares int64 with float64: 1 and
// 1.0 differ.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !Equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case string:
		b, ok := b.(string)
		return ok && a == b
	case json.Number:
		b, ok := b.(json.Number)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case nil:
		return b == nil
	}
	return false
}

// ScalarKey returns a string identifying a scalar by value: numbers compare
// by value (53 and 53.0 and 5.3e1 are one key, see AppendNumberKey),
// strings and numbers never collide.
func ScalarKey(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return "s" + v, true
	case json.Number:
		return NumberKey("n", string(v)), true
	case bool:
		if v {
			return "t", true
		}
		return "f", true
	case nil:
		return "z", true
	}
	return "", false
}

// HasScalarKey reports whether ScalarKey identifies v, without making the
// key.
func HasScalarKey(v any) bool {
	switch v.(type) {
	case string, json.Number, bool, nil:
		return true
	}
	return false
}

// NumberKey is prefix followed by the canonical form of the number s.
func NumberKey(prefix, s string) string {
	b := make([]byte, 0, len(prefix)+len(s)+MaxPlainDigits+2)
	return string(AppendNumberKey(append(b, prefix...), s))
}

func IsPlainInteger(s string) bool {
	if strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// SortText renders a scalar as Kubernetes sorts it (fmt's %v).
func SortText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	}
	return fmt.Sprint(v)
}

// DisplayText renders a scalar for a path step.
func DisplayText(v any) string {
	v = Expand(v)
	if v == nil {
		return "null"
	}
	return SortText(v)
}

// DecodeObject decodes a JSON object. Empty input and null are the empty
// object, as in Kubernetes.
func DecodeObject(data []byte, what string) (map[string]any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errpath.Wrap(errpath.ErrInvalidJSON, what+" is not valid JSON: "+errpath.Prose(err.Error()), err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &errpath.Error{Kind: errpath.ErrInvalidJSON, Msg: what + " has data after its JSON value"}
	}
	switch v := v.(type) {
	case map[string]any:
		return v, nil
	case nil:
		return map[string]any{}, nil
	default:
		return nil, &errpath.Error{Kind: errpath.ErrNotObject, Msg: what + " must be a JSON object, not " + KindOf(v).WithArticle()}
	}
}

// FromGo converts a value built by Go code (the map API's input: float64,
// int64, int, nested maps and slices) into decoded form, copying it so the
// caller's value is never shared or changed. A value that contains itself
// or nests too deep is an error (cycle.go). A conversion that fails runs
// again in key order, so that the error is the same every time.
func FromGo(v any, what string) (any, error) {
	c := goConv{Guard: NewGuard(TrackFrom, what)}
	out, err := c.value(v, nil)
	if err != nil {
		c = goConv{Guard: NewGuard(0, what), sorted: true}
		if _, err2 := c.value(v, nil); err2 != nil {
			err = err2
		}
		return nil, err
	}
	return out, nil
}

// goConv is FromGo's walk.
type goConv struct {
	Guard
	sorted bool
}

func (c *goConv) value(v any, at *errpath.Node) (any, error) {
	switch v := v.(type) {
	case nil, string, bool, json.Number:
		return v, nil
	case map[string]any:
		k, err := c.DownAny(v)
		if err != nil {
			return nil, errpath.UnderPath(err, at)
		}
		defer c.Up(k)
		out := make(map[string]any, len(v))
		if c.sorted {
			for _, key := range SortedKeys(v) {
				e, err := c.value(v[key], at.Field(key))
				if err != nil {
					return nil, err
				}
				out[key] = e
			}
			return out, nil
		}
		for key, e := range v {
			e, err := c.value(e, at.Field(key))
			if err != nil {
				return nil, err
			}
			out[key] = e
		}
		return out, nil
	case []any:
		k, err := c.DownAny(v)
		if err != nil {
			return nil, errpath.UnderPath(err, at)
		}
		defer c.Up(k)
		out := make([]any, len(v))
		for i, e := range v {
			e, err := c.value(e, at.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errpath.New(errpath.ErrInvalidValue, at, "%v is not a JSON number", v)
		}
		b, _ := json.Marshal(v)
		return json.Number(b), nil
	case float32:
		return c.value(float64(v), at)
	}
	return otherFromGo(v, at)
}

// otherFromGo converts integers and values of named or typed kinds.
func otherFromGo(v any, at *errpath.Node) (any, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(rv.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Map, reflect.Slice, reflect.Struct, reflect.Pointer, reflect.String, reflect.Bool, reflect.Float32, reflect.Float64:
		// Named or typed values: take their JSON encoding.
		data, err := json.Marshal(v)
		if err != nil {
			return nil, errpath.New(errpath.ErrInvalidValue, at, "cannot encode %T: %v", v, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var out any
		if err := dec.Decode(&out); err != nil {
			return nil, errpath.New(errpath.ErrInvalidValue, at, "cannot decode %T: %v", v, err)
		}
		return out, nil
	}
	return nil, errpath.New(errpath.ErrInvalidValue, at, "%T is not a JSON value", v)
}

// ToGo converts a decoded value into the types Kubernetes' map API returns:
// int64 for integers (uint64 beyond int64's range), float64 for other
// numbers. An integer too large for both stays a json.Number.
func ToGo(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = ToGo(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = ToGo(e)
		}
		return out
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		if IsPlainInteger(string(v)) {
			if u, err := strconv.ParseUint(string(v), 10, 64); err == nil {
				return u
			}
			return v
		}
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v
	}
	return v
}

// IsScalar reports whether v is neither an object nor a list.
func IsScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// SortedKeys returns a map's keys sorted by their bytes, the order
// json.Marshal writes them in.
func SortedKeys(m map[string]any) []string {
	return AppendSortedKeys(make([]string, 0, len(m)), m)
}

// AppendSortedKeys appends m's keys to dst, sorted; a caller's buffer
// spares small objects an allocation.
func AppendSortedKeys(dst []string, m map[string]any) []string {
	n := len(dst)
	if g, ok := groupOf(m); ok {
		for f := g.Full(); f != 0; f &= f - 1 {
			dst = append(dst, *g.Key(smallmap.SlotAt(f)))
		}
	} else {
		for k := range m {
			dst = append(dst, k)
		}
	}
	slices.Sort(dst[n:])
	return dst
}

// Describe renders a value from the input for a message: a string
// quoted, a number echoed, null and booleans as they are, an object or a
// list by its kind.
func Describe(v any) string {
	switch v := v.(type) {
	case string:
		return errpath.Quote(v)
	case json.Number:
		return errpath.Echo(string(v))
	case nil, bool:
		return fmt.Sprint(v)
	}
	return "a " + KindOf(v).String()
}
