package goval

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// ToJSONValue converts a Go value of node n into decoded JSON: what
// json.Marshal writes for it, decoded with UseNumber. quoted is the field's
// json ",string" option. Marshallers are called; nothing else is encoded.
func ToJSONValue(v reflect.Value, n *Node, quoted bool) (any, error) {
	return convertValue(false, v, n, quoted)
}

// DocJSON converts a document for the applier: as ToJSONValue, but a
// marshaller's value stays the bytes json.Marshal writes for it (jsonval.Raw),
// as ApplyJSON keeps what the patch does not reach. Decoding then hands
// the marshaller back those very bytes.
func DocJSON(v reflect.Value, n *Node, quoted bool) (any, error) {
	return convertValue(true, v, n, quoted)
}

func convertValue(raw bool, v reflect.Value, n *Node, quoted bool) (any, error) {
	e := jsonEnc{raw: raw, Guard: jsonval.NewGuard(jsonval.TrackFrom, "")}
	j, err := e.value(v, n, quoted)
	if err != nil {
		return nil, again(raw, err, func(e *jsonEnc) error { _, err := e.value(v, n, quoted); return err })
	}
	return j, nil
}

// ListToJSON converts a non-nil slice or an array.
func ListToJSON(v reflect.Value, n *Node) ([]any, error) { return convertList(false, v, n) }

// DocListJSON is ListToJSON for the applier's documents.
func DocListJSON(v reflect.Value, n *Node) ([]any, error) { return convertList(true, v, n) }

func convertList(raw bool, v reflect.Value, n *Node) ([]any, error) {
	e := jsonEnc{raw: raw, Guard: jsonval.NewGuard(jsonval.TrackFrom, "")}
	l, err := e.list(v, n)
	if err != nil {
		return nil, again(raw, err, func(e *jsonEnc) error { _, err := e.list(v, n); return err })
	}
	return l, nil
}

// again runs a conversion that failed with err once more, with maps in
// key order and cycles looked for from the top, so that the error
// reported is the same every time: the first in key order, a cycle at
// its shortest path.
func again(raw bool, err error, run func(*jsonEnc) error) error {
	e := jsonEnc{raw: raw, sorted: true, Guard: jsonval.NewGuard(0, "")}
	if err2 := run(&e); err2 != nil {
		return err2
	}
	return err
}

// jsonEnc converts Go values to decoded JSON; raw keeps marshallers' JSON
// as bytes, sorted visits maps in key order.
type jsonEnc struct {
	raw, sorted bool
	jsonval.Guard
}

// child converts a value below the top, one level deeper: past the
// guard's depth, tracked for cycles.
func (e *jsonEnc) child(v reflect.Value, n *Node, quoted bool) (any, error) {
	if !e.Shallow() {
		return e.tracked(v, n, quoted)
	}
	e.Step(1)
	j, err := e.value(v, n, quoted)
	e.Step(-1)
	return j, err
}

func (e *jsonEnc) tracked(v reflect.Value, n *Node, quoted bool) (any, error) {
	k, err := e.Down(v)
	if err != nil {
		return nil, err
	}
	j, err := e.value(v, n, quoted)
	e.Up(k)
	return j, err
}

func (e *jsonEnc) value(v reflect.Value, n *Node, quoted bool) (any, error) {
	if n.Marshaler {
		if e.raw {
			return atomicRaw(v, n)
		}
		return atomicToJSON(v, n)
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, nil
		}
		v = v.Elem()
	}
	switch n.Kind {
	case reflectschema.Untyped:
		if v.IsNil() {
			return nil, nil
		}
		return e.anyValue(v.Interface())
	case reflectschema.Struct:
		m := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			fv, ok := FieldValue(v, f)
			if !ok {
				continue
			}
			j, err := e.child(fv, f.Node, f.Quoted)
			if err != nil {
				return nil, under(err, errpath.FieldStep(f.Name))
			}
			m[f.Name] = j
		}
		return m, nil
	case reflectschema.Map:
		return e.mapToJSON(v, n)
	case reflectschema.List, reflectschema.Atomic:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil, nil
		}
		return e.list(v, n)
	}
	if n.bytes && v.IsNil() {
		return nil, nil
	}
	return scalarToJSON(v, n, quoted)
}

func (e *jsonEnc) list(v reflect.Value, n *Node) ([]any, error) {
	out := make([]any, v.Len())
	for i := range out {
		j, err := e.child(v.Index(i), n.Elem, false)
		if err != nil {
			return nil, under(err, errpath.IndexStep(i))
		}
		out[i] = j
	}
	return out, nil
}

// mapToJSON converts a map, which may be nil. Keys that are one JSON key
// (strings that differ only in bytes that are not UTF-8) keep the value
// json.Marshal writes last (mapkeys.go).
func (e *jsonEnc) mapToJSON(v reflect.Value, n *Node) (any, error) {
	if v.IsNil() {
		return nil, nil
	}
	if e.sorted || n.keyMode == keyText {
		return e.mapInOrder(v, n)
	}
	out := make(map[string]any, v.Len())
	if n.StringMap {
		for k, s := range AsStringMap(v) {
			if !utf8.ValidString(k) {
				return e.mapInOrder(v, n)
			}
			out[k] = WireString(s)
		}
		return out, nil
	}
	it := v.MapRange()
	for it.Next() {
		key := it.Key()
		if n.keyMode == keyString && !utf8.ValidString(key.String()) {
			return e.mapInOrder(v, n)
		}
		k, err := MapKeyText(key, n)
		if err != nil {
			return nil, err
		}
		j, err := e.child(it.Value(), n.Elem, false)
		if err != nil {
			return nil, under(err, errpath.FieldStep(k))
		}
		out[k] = j
	}
	return out, nil
}

// mapInOrder converts a map's entries in json.Marshal's order.
func (e *jsonEnc) mapInOrder(v reflect.Value, n *Node) (any, error) {
	entries, err := jsonMapEntries(v, n)
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(entries))
	for _, en := range entries {
		j, err := e.child(v.MapIndex(en.key), n.Elem, false)
		if err != nil {
			return nil, under(err, errpath.FieldStep(en.text))
		}
		out[en.text] = j
	}
	return out, nil
}

// MapKeyText is a map key as encoding/json writes it.
func MapKeyText(k reflect.Value, n *Node) (string, error) {
	switch n.keyMode {
	case keyString:
		return WireString(k.String()), nil
	case keyText:
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return "", newError(errpath.ErrInvalidValue, nil, "cannot encode map key of %s: %v", k.Type(), err)
		}
		return WireString(string(b)), nil
	case keyInt:
		return strconv.FormatInt(k.Int(), 10), nil
	}
	return strconv.FormatUint(k.Uint(), 10), nil
}

// scalarToJSON converts a non-null scalar.
func scalarToJSON(v reflect.Value, n *Node, quoted bool) (any, error) {
	var buf [64]byte
	var text []byte
	switch v.Kind() {
	case reflect.Bool:
		if !quoted {
			return v.Bool(), nil
		}
		text = strconv.AppendBool(buf[:0], v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		text = strconv.AppendInt(buf[:0], v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		text = strconv.AppendUint(buf[:0], v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		var ok bool
		if text, ok = appendJSONFloat(buf[:0], v.Float(), v.Type().Bits()); !ok {
			return nil, newError(errpath.ErrInvalidValue, nil, "%v is not a JSON number", v.Float())
		}
	case reflect.String:
		s := v.String()
		if n.IsNumber {
			s = numberText(s)
			if !validNumber(s) {
				return nil, newError(errpath.ErrInvalidValue, nil, "json.Number %q is not a number", s)
			}
			if quoted {
				return s, nil
			}
			return json.Number(s), nil
		}
		if quoted {
			b, _ := json.Marshal(s) // escapes HTML, as json.Marshal's ",string" does
			return string(b), nil
		}
		return WireString(s), nil
	case reflect.Slice:
		return base64.StdEncoding.EncodeToString(v.Bytes()), nil
	default:
		return nil, newError(errpath.ErrInvalidValue, nil, "%s has no JSON encoding", v.Type())
	}
	if quoted {
		return string(text), nil
	}
	return json.Number(text), nil
}

// HasKey reports whether KeyJSON finds field name in e, without
// converting it.
func HasKey(e reflect.Value, en *Node, name string) bool {
	_, _, _, ok := keyField(e, en, name)
	return ok
}

// keyField finds field name of a merge-list element e: its value, node,
// and whether encoding/json quotes it; ok is false when e does not have
// it.
func keyField(e reflect.Value, en *Node, name string) (v reflect.Value, vn *Node, quoted, ok bool) {
	if en.Kind != reflectschema.Struct {
		v = e.MapIndex(reflect.ValueOf(name).Convert(e.Type().Key()))
		return v, en.Elem, false, v.IsValid()
	}
	f := en.ByName[name]
	if f == nil {
		return reflect.Value{}, nil, false, false
	}
	v, ok = FieldValue(e, f)
	return v, f.Node, f.Quoted, ok
}

// KeyJSON is key field name of a merge-list element e (a struct, or a map
// with string keys; not null) as JSON; ok is false when e does not have it.
func KeyJSON(e reflect.Value, en *Node, name string) (j any, ok bool, err error) {
	v, vn, quoted, ok := keyField(e, en, name)
	if !ok {
		return nil, false, nil
	}
	if j, err = ToJSONValue(v, vn, quoted); err != nil {
		return nil, false, err
	}
	return j, true, nil
}
