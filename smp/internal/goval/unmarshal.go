package goval

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Decoded JSON into values that unmarshal themselves, byte slices,
// quoted scalars and untyped values.

// untypedFromJSON builds what json.Unmarshal stores in an any: maps,
// slices, float64 numbers.
func untypedFromJSON(x any, at *pathNode) (any, error) {
	switch x := x.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		var first errpath.KeyedErr
		for k, e := range x {
			v, err := untypedFromJSON(e, at.Field(k))
			first.Keep(k, err)
			out[k] = v
		}
		if first.Err != nil {
			return nil, first.Err
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			v, err := untypedFromJSON(e, at.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, newError(errpath.ErrInvalidValue, at, "%s does not fit float64", x)
		}
		return f, nil
	}
	return x, nil
}

// unmarshalBytes decodes JSON text into dst as json.Unmarshal does: a
// marshaller's own UnmarshalJSON is called on it directly.
func unmarshalBytes(dst reflect.Value, data []byte, n *Node, at *pathNode) error {
	if dst.Kind() == reflect.Pointer {
		if string(data) == "null" {
			return nil
		}
		p := reflect.New(dst.Type().Elem())
		if err := unmarshalBytes(p.Elem(), data, n, at); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
	var err error
	if n.unmarshal {
		err = dst.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(data)
	} else {
		err = json.Unmarshal(data, dst.Addr().Interface())
	}
	if err != nil {
		return newError(errpath.ErrInvalidValue, at, "cannot decode %s: %v", dst.Type(), err)
	}
	return nil
}

// unmarshalAtomic decodes a marshaller: its UnmarshalJSON directly when
// its pointer has one (as json.Unmarshal would call it), else through
// encoding/json.
func unmarshalAtomic(dst reflect.Value, x any, n *Node, at *pathNode) error {
	if !n.unmarshal {
		return unmarshalDelegate(dst, x, at)
	}
	data, err := jsonval.Encode(x)
	if err != nil {
		return newError(errpath.ErrInvalidValue, at, "%v", err)
	}
	if err := dst.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(data); err != nil {
		return newError(errpath.ErrInvalidValue, at, "cannot decode %s: %v", dst.Type(), err)
	}
	return nil
}

// unmarshalDelegate decodes x's encoding into dst with json.Unmarshal.
func unmarshalDelegate(dst reflect.Value, x any, at *pathNode) error {
	data, err := jsonval.Encode(x)
	if err != nil {
		return newError(errpath.ErrInvalidValue, at, "%v", err)
	}
	if err := json.Unmarshal(data, dst.Addr().Interface()); err != nil {
		return newError(errpath.ErrInvalidValue, at, "cannot decode %s: %v", dst.Type(), err)
	}
	return nil
}

func unmarshalQuoted(dst reflect.Value, x any, at *pathNode) error {
	t := dst.Type()
	wt, ok := quotedWrappers.Load(t)
	if !ok {
		wt, _ = quotedWrappers.LoadOrStore(t, reflect.StructOf([]reflect.StructField{{Name: "V", Type: t, Tag: `json:"v,string"`}}))
	}
	w := reflect.New(wt.(reflect.Type))
	data, err := jsonval.Encode(map[string]any{"v": x})
	if err != nil {
		return newError(errpath.ErrInvalidValue, at, "%v", err)
	}
	if err := json.Unmarshal(data, w.Interface()); err != nil {
		return newError(errpath.ErrInvalidValue, at, "cannot decode %s: %v", t, err)
	}
	dst.Set(w.Elem().Field(0))
	return nil
}
