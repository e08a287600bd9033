package goval

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"unicode/utf8"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Values that marshal themselves, to decoded JSON: their own JSON,
// checked canonical or decoded once.

// marshalTarget follows pointers to the value a marshaller is called on;
// ok is false for a nil pointer or interface, which encodes as null.
func marshalTarget(v reflect.Value) (reflect.Value, bool) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return v, false
		}
		v = v.Elem()
	}
	return v, !(v.Kind() == reflect.Interface && v.IsNil())
}

// atomicToJSON calls a marshaller, choosing the method as encoding/json
// does: through the pointer when the value is addressable.
func atomicToJSON(v reflect.Value, n *Node) (any, error) {
	v, ok := marshalTarget(v)
	if !ok {
		return nil, nil
	}
	var data []byte
	var err error
	text := false
	switch {
	case v.CanAddr() && n.ptrM:
		data, err = v.Addr().Interface().(json.Marshaler).MarshalJSON()
	case v.CanAddr() && n.ptrT:
		data, err = v.Addr().Interface().(encoding.TextMarshaler).MarshalText()
		text = true
	case n.implM:
		m, ok := v.Interface().(json.Marshaler)
		if !ok {
			return nil, nil
		}
		data, err = m.MarshalJSON()
	case n.implT:
		m, ok := v.Interface().(encoding.TextMarshaler)
		if !ok {
			return nil, nil
		}
		data, err = m.MarshalText()
		text = true
	default:
		// Pointer methods on a value that is not addressable: encoding/json
		// encodes it by its kind, and so does json.Marshal here.
		data, err = json.Marshal(v.Interface())
	}
	if err != nil {
		return nil, newError(errpath.ErrInvalidValue, nil, "cannot encode %s: %v", v.Type(), err)
	}
	if text {
		return WireString(string(data)), nil
	}
	j, err := decodeJSONValue(data)
	if err != nil {
		return nil, newError(errpath.ErrInvalidValue, nil, "%s encodes invalid JSON: %v", v.Type(), err)
	}
	return j, nil
}

// atomicRaw is json.Marshal's output for a marshaller's value, kept as
// raw JSON. The value is marshalled through its address when addressable,
// as encoding/json marshals a field.
func atomicRaw(v reflect.Value, n *Node) (any, error) {
	v, ok := marshalTarget(v)
	if !ok {
		return nil, nil
	}
	// A MarshalJSON whose output json.Marshal would leave as it is (a
	// plain string or literal) is called directly.
	var m json.Marshaler
	switch {
	case v.CanAddr() && n.ptrM:
		m, _ = v.Addr().Interface().(json.Marshaler)
	case n.implM && !(v.CanAddr() && n.ptrT):
		m, _ = v.Interface().(json.Marshaler)
	}
	if m != nil {
		data, err := m.MarshalJSON()
		if err == nil && canonicalJSON(data) {
			return jsonval.Raw(data), nil
		}
	}
	x := v.Interface()
	if v.CanAddr() {
		x = v.Addr().Interface()
	}
	data, err := json.Marshal(x)
	if err != nil {
		return nil, newError(errpath.ErrInvalidValue, nil, "cannot encode %s: %v", v.Type(), err)
	}
	return jsonval.Raw(data), nil
}

// canonicalJSON reports whether json.Marshal would write a marshaller's
// output unchanged: a string of printable ASCII that needs no escaping
// (HTML characters included), or a number or literal.
func canonicalJSON(data []byte) bool {
	if len(data) >= 2 && data[0] == '"' && data[len(data)-1] == '"' {
		for _, c := range data[1 : len(data)-1] {
			if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return false
			}
		}
		return true
	}
	switch string(data) {
	case "null", "true", "false":
		return true
	}
	return validNumber(string(data))
}

// decodeJSONValue decodes one JSON value with UseNumber. Plain strings and
// literals, what most marshallers write, skip the decoder.
func decodeJSONValue(data []byte) (any, error) {
	data = bytes.TrimSpace(data)
	if s, ok := plainString(data); ok {
		return s, nil
	}
	switch string(data) {
	case "null":
		return nil, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if validNumber(string(data)) {
		return json.Number(data), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

// plainString decodes a JSON string without escapes.
func plainString(data []byte) (string, bool) {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return "", false
	}
	body := data[1 : len(data)-1]
	for _, c := range body {
		if c < 0x20 || c == '"' || c == '\\' {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}
