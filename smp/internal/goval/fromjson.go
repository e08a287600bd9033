package goval

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"
	"sync"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// FromJSONValue stores decoded JSON x into dst, a settable zero value of
// node n's type (or a pointer to it), as json.Unmarshal of x's encoding
// would. quoted is the field's json ",string" option. Marshallers and
// interfaces other than any decode through encoding/json itself.
func FromJSONValue(dst reflect.Value, x any, n *Node, quoted bool, at *pathNode) error {
	if quoted {
		return unmarshalQuoted(dst, x, at)
	}
	if r, ok := x.(jsonval.Raw); ok {
		// A document's value the patch did not reach (see DocJSON).
		if n.Marshaler || n.Kind == reflectschema.Untyped {
			return unmarshalBytes(dst, r, n, at)
		}
		x = jsonval.Expand(r)
	}
	if dst.Kind() == reflect.Pointer {
		if x == nil {
			return nil // json.Unmarshal sets a pointer to nil
		}
		p := reflect.New(dst.Type().Elem())
		if err := FromJSONValue(p.Elem(), x, n, false, at); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
	if n.Marshaler {
		return unmarshalAtomic(dst, x, n, at)
	}
	switch n.Kind {
	case reflectschema.Untyped:
		if dst.NumMethod() != 0 {
			return unmarshalDelegate(dst, x, at)
		}
		v, err := untypedFromJSON(x, at)
		if err != nil || v == nil {
			return err
		}
		dst.Set(reflect.ValueOf(v))
		return nil
	case reflectschema.Struct:
		switch x := x.(type) {
		case nil:
			return nil
		case map[string]any:
			return structFromJSON(dst, x, n, at)
		}
	case reflectschema.Map:
		switch x := x.(type) {
		case nil:
			return nil
		case map[string]any:
			return mapFromJSON(dst, x, n, at)
		}
	case reflectschema.List, reflectschema.Atomic:
		switch x := x.(type) {
		case nil:
			return nil
		case []any:
			return listFromJSON(dst, x, n, at)
		}
	default:
		if _, isList := x.([]any); isList && n.bytes {
			// encoding/json also reads []byte from an array of numbers.
			return unmarshalDelegate(dst, x, at)
		}
		return scalarFromJSON(dst, x, n, at)
	}
	return typeMismatch(dst, x, at)
}

func typeMismatch(dst reflect.Value, x any, at *pathNode) error {
	return newError(errpath.ErrTypeMismatch, at, "cannot store %s in %s", jsonval.KindOf(x).WithArticle(), dst.Type())
}

// structFromJSON fills a struct. Keys match fields exactly, then without
// regard to case; keys that match no field are ignored. When two keys
// reach one field, json.Unmarshal's order decides, so encoding/json does
// the work.
func structFromJSON(dst reflect.Value, m map[string]any, n *Node, at *pathNode) error {
	for k := range m {
		if _, exact := n.ByName[k]; !exact && n.Schema.Field(k) != nil {
			return unmarshalDelegate(dst, m, at)
		}
	}
	var first errpath.KeyedErr
	for k, x := range m {
		f := n.ByName[k]
		if f == nil {
			continue
		}
		fat := at.Field(k)
		fv, err := SettableField(dst, f)
		if err != nil {
			err.(*errpath.Error).Path = fat.Path()
			first.Keep(k, err)
			continue
		}
		first.Keep(k, FromJSONValue(fv, x, f.Node, f.Quoted, fat))
	}
	return first.Err
}

// mapFromJSON makes a map holding every key, nulls as zero values.
func mapFromJSON(dst reflect.Value, m map[string]any, n *Node, at *pathNode) error {
	t := dst.Type()
	if n.StringMap {
		out := make(map[string]string, len(m))
		ok := true
		for k, x := range m {
			switch x := x.(type) {
			case string:
				out[k] = x
			case nil:
				out[k] = ""
			default:
				ok = false
			}
		}
		if ok {
			dst.Set(reflect.ValueOf(out).Convert(t))
			return nil
		}
	}
	out := reflect.MakeMapWithSize(t, len(m))
	var first errpath.KeyedErr
	for k, x := range m {
		kat := at.Field(k)
		kv, err := MapKeyFromText(k, t.Key(), kat)
		if err != nil {
			first.Keep(k, err)
			continue
		}
		ev := reflect.New(t.Elem()).Elem()
		if err := FromJSONValue(ev, x, n.Elem, false, kat); err != nil {
			first.Keep(k, err)
			continue
		}
		out.SetMapIndex(kv, ev)
	}
	if first.Err != nil {
		return first.Err
	}
	dst.Set(out)
	return nil
}

// MapKeyFromText decodes a map key as json.Unmarshal does: through the
// key type's unmarshaller if its pointer has one, else as a string or an
// integer.
func MapKeyFromText(k string, kt reflect.Type, at *pathNode) (reflect.Value, error) {
	pt := reflect.PointerTo(kt)
	switch {
	case pt.Implements(jsonUnmarshaler) || pt.Implements(textUnmarshaler):
		kp := reflect.New(kt)
		var err error
		if u, ok := kp.Interface().(json.Unmarshaler); ok {
			quoted, _ := json.Marshal(k)
			err = u.UnmarshalJSON(quoted)
		} else {
			err = kp.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(k))
		}
		if err != nil {
			return reflect.Value{}, newError(errpath.ErrInvalidValue, at, "cannot decode map key %q: %v", k, err)
		}
		return kp.Elem(), nil
	case kt.Kind() == reflect.String:
		kv := reflect.New(kt).Elem()
		kv.SetString(k)
		return kv, nil
	case kt.Kind() >= reflect.Int && kt.Kind() <= reflect.Int64:
		i, err := strconv.ParseInt(k, 10, 64)
		kv := reflect.New(kt).Elem()
		if err != nil || kv.OverflowInt(i) {
			return reflect.Value{}, newError(errpath.ErrInvalidValue, at, "map key %q does not fit %s", k, kt)
		}
		kv.SetInt(i)
		return kv, nil
	default:
		u, err := strconv.ParseUint(k, 10, 64)
		kv := reflect.New(kt).Elem()
		if err != nil || kv.OverflowUint(u) {
			return reflect.Value{}, newError(errpath.ErrInvalidValue, at, "map key %q does not fit %s", k, kt)
		}
		kv.SetUint(u)
		return kv, nil
	}
}

// listFromJSON fills a slice (a new one, empty but not nil for []) or an
// array (extra items dropped).
func listFromJSON(dst reflect.Value, l []any, n *Node, at *pathNode) error {
	if dst.Kind() == reflect.Slice {
		s := reflect.MakeSlice(dst.Type(), len(l), len(l))
		for i, x := range l {
			if err := FromJSONValue(s.Index(i), x, n.Elem, false, at.Index(i)); err != nil {
				return err
			}
		}
		dst.Set(s)
		return nil
	}
	for i := 0; i < len(l) && i < dst.Len(); i++ {
		if err := FromJSONValue(dst.Index(i), l[i], n.Elem, false, at.Index(i)); err != nil {
			return err
		}
	}
	return nil
}

// scalarFromJSON stores a JSON scalar; null leaves the zero value.
func scalarFromJSON(dst reflect.Value, x any, n *Node, at *pathNode) error {
	switch x := x.(type) {
	case nil:
		return nil
	case bool:
		if dst.Kind() == reflect.Bool {
			dst.SetBool(x)
			return nil
		}
	case string:
		switch {
		case n.bytes:
			b, err := base64.StdEncoding.DecodeString(x)
			if err != nil {
				return newError(errpath.ErrInvalidValue, at, "%q is not base64: %v", x, err)
			}
			dst.SetBytes(b)
			return nil
		case dst.Kind() == reflect.String:
			if n.IsNumber && !validNumber(x) {
				return newError(errpath.ErrInvalidValue, at, "%q is not a number", x)
			}
			dst.SetString(x)
			return nil
		}
	case json.Number:
		s := string(x)
		switch dst.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			i, err := strconv.ParseInt(s, 10, 64)
			if err != nil || dst.OverflowInt(i) {
				return newError(errpath.ErrInvalidValue, at, "%s does not fit %s", x, dst.Type())
			}
			dst.SetInt(i)
			return nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			u, err := strconv.ParseUint(s, 10, 64)
			if err != nil || dst.OverflowUint(u) {
				return newError(errpath.ErrInvalidValue, at, "%s does not fit %s", x, dst.Type())
			}
			dst.SetUint(u)
			return nil
		case reflect.Float32, reflect.Float64:
			f, err := strconv.ParseFloat(s, dst.Type().Bits())
			if err != nil || dst.OverflowFloat(f) {
				return newError(errpath.ErrInvalidValue, at, "%s does not fit %s", x, dst.Type())
			}
			dst.SetFloat(f)
			return nil
		case reflect.String:
			if n.IsNumber {
				dst.SetString(s)
				return nil
			}
		}
	}
	return typeMismatch(dst, x, at)
}

// quotedWrappers caches, per field type, a struct with one field of that
// type tagged json:",string", to decode such fields with encoding/json's
// rules.
var quotedWrappers sync.Map // reflect.Type -> reflect.Type

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
