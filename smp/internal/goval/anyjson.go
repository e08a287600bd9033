package goval

import (
	"encoding/json"
	"reflect"
	"unicode/utf8"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// anyValue converts the dynamic value of an interface: the shapes
// encoding/json decodes into directly, else the value by its own type's
// schema, else through encoding/json.
func (e *jsonEnc) anyValue(x any) (any, error) {
	switch x := x.(type) {
	case nil:
		return nil, nil
	case string:
		return WireString(x), nil
	case bool:
		return x, nil
	case json.Number:
		s := numberText(string(x))
		if !validNumber(s) {
			return nil, newError(errpath.ErrInvalidValue, nil, "json.Number %q is not a number", s)
		}
		return json.Number(s), nil
	case float64:
		b, ok := appendJSONFloat(nil, x, 64)
		if !ok {
			return nil, newError(errpath.ErrInvalidValue, nil, "%v is not a JSON number", x)
		}
		return json.Number(b), nil
	case map[string]any:
		if x == nil {
			return nil, nil
		}
		k, err := e.DownAny(x)
		if err != nil {
			return nil, err
		}
		defer e.Up(k)
		return e.anyMap(x)
	case []any:
		if x == nil {
			return nil, nil
		}
		k, err := e.DownAny(x)
		if err != nil {
			return nil, err
		}
		defer e.Up(k)
		out := make([]any, len(x))
		for i, el := range x {
			j, err := e.anyValue(el)
			if err != nil {
				return nil, under(err, errpath.IndexStep(i))
			}
			out[i] = j
		}
		return out, nil
	}
	v := reflect.ValueOf(x)
	n, err := planOfGo(v.Type())
	if err != nil {
		// No schema (conflicting fields, say): encoding/json decides.
		data, err := json.Marshal(x)
		if err != nil {
			return nil, newError(errpath.ErrInvalidValue, nil, "cannot encode %T: %v", x, err)
		}
		return decodeJSONValue(data)
	}
	return e.child(v, n, false)
}

// anyMap converts a map[string]any; keys that are one JSON key keep the
// value json.Marshal writes last.
func (e *jsonEnc) anyMap(x map[string]any) (any, error) {
	if e.sorted {
		return e.anyMapInOrder(x)
	}
	out := make(map[string]any, len(x))
	for k, el := range x {
		if !utf8.ValidString(k) {
			return e.anyMapInOrder(x)
		}
		j, err := e.anyValue(el)
		if err != nil {
			return nil, under(err, errpath.FieldStep(k))
		}
		out[k] = j
	}
	return out, nil
}

func (e *jsonEnc) anyMapInOrder(x map[string]any) (any, error) {
	out := make(map[string]any, len(x))
	for _, k := range jsonval.SortedKeys(x) {
		j, err := e.anyValue(x[k])
		if err != nil {
			return nil, under(err, errpath.FieldStep(WireString(k)))
		}
		out[WireString(k)] = j
	}
	return out, nil
}
