package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/errpath"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Documents and patches are held as the values encoding/json decodes into
// with UseNumber: map[string]any, []any, string, json.Number, bool and nil.
// Numbers keep their text, so integers never pass through float64.

// jsonKind is the JSON type of a decoded value.
type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
	jsonInvalid
)

var jsonKindNames = [...]string{"null", "boolean", "number", "string", "array", "object", "invalid"}

func (k jsonKind) String() string { return jsonKindNames[k] }

// withArticle returns the name with "a" or "an": "an object", "a string".
func (k jsonKind) withArticle() string {
	if k == jsonObject || k == jsonArray || k == jsonInvalid {
		return "an " + k.String()
	}
	return "a " + k.String()
}

func kindOf(v any) jsonKind {
	switch v.(type) {
	case nil:
		return jsonNull
	case bool:
		return jsonBool
	case json.Number:
		return jsonNumber
	case string:
		return jsonString
	case []any:
		return jsonArray
	case map[string]any:
		return jsonObject
	}
	return jsonInvalid
}

// equalJSON reports whether two decoded values are the same JSON. Numbers
// compare by their text, as Kubernetes compares int64 with float64: 1 and
// 1.0 differ.
func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equalJSON(av, bv) {
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
			if !equalJSON(a[i], b[i]) {
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

// scalarKey returns a string identifying a scalar by value: numbers compare
// by value (53 and 53.0 and 5.3e1 are one key, see appendNumberKey),
// strings and numbers never collide.
func scalarKey(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return "s" + v, true
	case json.Number:
		return numberKey("n", string(v)), true
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

// hasScalarKey reports whether scalarKey identifies v, without making the
// key.
func hasScalarKey(v any) bool {
	switch v.(type) {
	case string, json.Number, bool, nil:
		return true
	}
	return false
}

// numberKey is prefix followed by the canonical form of the number s.
func numberKey(prefix, s string) string {
	b := make([]byte, 0, len(prefix)+len(s)+maxPlainDigits+2)
	return string(appendNumberKey(append(b, prefix...), s))
}

func isPlainInteger(s string) bool {
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

// sortText renders a scalar as Kubernetes sorts it (fmt's %v).
func sortText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	}
	return fmt.Sprint(v)
}

// displayText renders a scalar for a path step.
func displayText(v any) string {
	v = expand(v)
	if v == nil {
		return "null"
	}
	return sortText(v)
}

// decodeObject decodes a JSON object. Empty input and null are the empty
// object, as in Kubernetes.
func decodeObject(data []byte, what string) (map[string]any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errpath.Wrap(ErrInvalidJSON, what+" is not valid JSON: "+prose(err.Error()), err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &Error{Kind: ErrInvalidJSON, Msg: what + " has data after its JSON value"}
	}
	switch v := v.(type) {
	case map[string]any:
		return v, nil
	case nil:
		return map[string]any{}, nil
	default:
		return nil, &Error{Kind: ErrNotObject, Msg: what + " must be a JSON object, not " + kindOf(v).withArticle()}
	}
}

// encode marshals a decoded value. Maps print with sorted keys, as
// Kubernetes' output does.
func encode(v any) ([]byte, error) {
	return appendJSON(nil, v)
}

// fromGo converts a value built by Go code (the map API's input: float64,
// int64, int, nested maps and slices) into decoded form, copying it so the
// caller's value is never shared or changed. A value that contains itself
// or nests too deep is an error (cycle.go). A conversion that fails runs
// again in key order, so that the error is the same every time.
func fromGo(v any, what string) (any, error) {
	c := goConv{guard: guard{from: trackFrom, what: what}}
	out, err := c.value(v, nil)
	if err != nil {
		c = goConv{guard: guard{what: what}, sorted: true}
		if _, err2 := c.value(v, nil); err2 != nil {
			err = err2
		}
		return nil, err
	}
	return out, nil
}

// goConv is fromGo's walk.
type goConv struct {
	guard
	sorted bool
}

func (c *goConv) value(v any, at *pathNode) (any, error) {
	switch v := v.(type) {
	case nil, string, bool, json.Number:
		return v, nil
	case map[string]any:
		k, err := c.downAny(v)
		if err != nil {
			return nil, underPath(err, at)
		}
		defer c.up(k)
		out := make(map[string]any, len(v))
		if c.sorted {
			for _, key := range sortedKeys(v) {
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
		k, err := c.downAny(v)
		if err != nil {
			return nil, underPath(err, at)
		}
		defer c.up(k)
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
			return nil, newError(ErrInvalidValue, at, "%v is not a JSON number", v)
		}
		b, _ := json.Marshal(v)
		return json.Number(b), nil
	case float32:
		return c.value(float64(v), at)
	}
	return otherFromGo(v, at)
}

// otherFromGo converts integers and values of named or typed kinds.
func otherFromGo(v any, at *pathNode) (any, error) {
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
			return nil, newError(ErrInvalidValue, at, "cannot encode %T: %v", v, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var out any
		if err := dec.Decode(&out); err != nil {
			return nil, newError(ErrInvalidValue, at, "cannot decode %T: %v", v, err)
		}
		return out, nil
	}
	return nil, newError(ErrInvalidValue, at, "%T is not a JSON value", v)
}

// toGo converts a decoded value into the types Kubernetes' map API returns:
// int64 for integers (uint64 beyond int64's range), float64 for other
// numbers. An integer too large for both stays a json.Number.
func toGo(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = toGo(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toGo(e)
		}
		return out
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		if isPlainInteger(string(v)) {
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
