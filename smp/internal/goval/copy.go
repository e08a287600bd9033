package goval

import (
	"math"
	"reflect"
	"unicode/utf8"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// CopyValue deep-copies src into dst, a settable zero value of the same
// type, as a JSON round trip would: what encoding/json leaves out (fields
// omitted as empty, unexported and "-" fields, nil embedded pointers) stays
// zero, nil stays nil and empty stays empty. Values the patch does not
// touch are copied this way instead of being encoded and decoded. A
// marshaller made of plain data (no pointers, slices or maps) is copied
// as is; others take the round trip through their methods.
func (c *Copier) CopyValue(dst, src reflect.Value, n *Node) error {
	if c.Share {
		dst.Set(src)
		return nil
	}
	if n.Marshaler && !n.plainCopy {
		// Through its methods, from the pointer down: a value may encode
		// as null, which decodes as a nil pointer.
		return c.roundTrip(dst, src, n)
	}
	if src.Kind() == reflect.Pointer {
		if src.IsNil() {
			return nil
		}
		p := reflect.New(src.Type().Elem())
		if err := c.CopyValue(p.Elem(), src.Elem(), n); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
	if n.Marshaler {
		dst.Set(src) // plain data
		return nil
	}
	switch n.Kind {
	case reflectschema.Untyped:
		if src.IsNil() {
			return nil
		}
		return c.roundTrip(dst, src, n)
	case reflectschema.Struct:
		return c.copyStruct(dst, src, n)
	case reflectschema.Map:
		return c.copyMap(dst, src, n)
	case reflectschema.List, reflectschema.Atomic:
		return c.copyList(dst, src, n)
	}
	return copyScalar(dst, src, n)
}

// Copier deep-copies the values Apply keeps. A marshaller's value of
// plain data is copied through its methods once per content
// (roundtrips.go).
type Copier struct {
	// Share makes CopyValue assign instead of copying: the result shares
	// what the patch does not reach with the value it came from, kept as
	// it was (ApplyInPlace).
	Share bool
	// maps counts the maps being copied; sorted copies them in key order.
	maps   int
	sorted bool
	// s lends the values map entries are read into; Release gives it back.
	s *Scratch
	// key is where a value's content is written to look it up.
	key []byte
}

// Release gives back what the copies borrowed.
func (c *Copier) Release() {
	if c.s != nil {
		PutScratch(c.s)
		c.s = nil
	}
}

func (c *Copier) scratch() *Scratch {
	if c.s == nil {
		c.s = GetScratch()
	}
	return c.s
}

// roundTrip converts src to JSON and back; a marshaller gets back the
// bytes it wrote.
func (c *Copier) roundTrip(dst, src reflect.Value, n *Node) error {
	if c.recall(dst, src, n) {
		return nil
	}
	j, err := DocJSON(src, n, false)
	if err != nil {
		return err
	}
	raw, isRaw := j.(jsonval.Raw)
	if !isRaw || !n.Marshaler || dst.Kind() == reflect.Pointer {
		return FromJSONValue(dst, j, n, false, nil)
	}
	if err := FromJSONValue(dst, raw, n, false, nil); err != nil {
		return err
	}
	c.remember(dst, src, n)
	return nil
}

// copyStruct copies a struct from memory (copyStructAt) when src has an
// address, else field by field through reflect.
func (c *Copier) copyStruct(dst, src reflect.Value, n *Node) error {
	if ps, ok := StructBase(src); ok && ps != nil {
		return c.copyStructAt(unsafe.Pointer(dst.UnsafeAddr()), ps, n)
	}
	for _, f := range n.Fields {
		if err := c.copyReflectField(dst, src, f); err != nil {
			return err
		}
	}
	return nil
}

// copyReflectField copies field f of src into dst, through reflect, when
// encoding/json writes it.
func (c *Copier) copyReflectField(dst, src reflect.Value, f *Field) error {
	if fv, ok := FieldValue(src, f); ok {
		return c.CopyField(dst, fv, f)
	}
	return nil
}

// CopyField copies a present field value into struct dst.
func (c *Copier) CopyField(dst, fv reflect.Value, f *Field) error {
	d, err := SettableField(dst, f)
	if err == nil {
		err = c.CopyValue(d, fv, f.Node)
	}
	if err != nil {
		return under(err, errpath.FieldStep(f.Name))
	}
	return nil
}

func (c *Copier) copyList(dst, src reflect.Value, n *Node) error {
	if src.Kind() == reflect.Slice {
		if src.IsNil() {
			return nil
		}
		l := src.Len()
		MakeSliceIn(dst, l)
		if l == 0 {
			return nil
		}
		if plainElems(src, n.Elem) {
			reflect.Copy(dst, src)
			return nil
		}
		for i := range l {
			if err := c.CopyValue(dst.Index(i), src.Index(i), n.Elem); err != nil {
				dst.SetZero()
				return under(err, errpath.IndexStep(i))
			}
		}
		return nil
	}
	for i := range src.Len() {
		if err := c.CopyValue(dst.Index(i), src.Index(i), n.Elem); err != nil {
			return under(err, errpath.IndexStep(i))
		}
	}
	return nil
}

// MakeSliceIn sets dst, a settable nil slice, to a new slice of length
// and capacity l: empty, not nil, for 0. It is made in place: a slice
// from reflect.MakeSlice would take one more allocation, for its header.
func MakeSliceIn(dst reflect.Value, l int) {
	if l == 0 {
		dst.Set(reflect.MakeSlice(dst.Type(), 0, 0))
		return
	}
	dst.Grow(l)
	dst.SetLen(l)
	dst.SetCap(l)
}

// plainElems reports whether a slice's elements copy as they are: strings
// of valid UTF-8, integers, booleans.
func plainElems(s reflect.Value, en *Node) bool {
	if en.Kind != reflectschema.Scalar || en.IsNumber || en.bytes {
		return false
	}
	switch s.Type().Elem().Kind() {
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	case reflect.String:
		for i := range s.Len() {
			if !utf8.ValidString(s.Index(i).String()) {
				return false
			}
		}
		return true
	}
	return false
}

func copyScalar(dst, src reflect.Value, n *Node) error {
	switch src.Kind() {
	case reflect.String:
		s := src.String()
		if n.IsNumber {
			s = numberText(s)
			if !validNumber(s) {
				return newError(errpath.ErrInvalidValue, nil, "json.Number %q is not a number", s)
			}
		} else {
			s = WireString(s)
		}
		dst.SetString(s)
	case reflect.Bool:
		dst.SetBool(src.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		dst.SetInt(src.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		dst.SetUint(src.Uint())
	case reflect.Float32, reflect.Float64:
		if f := src.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return newError(errpath.ErrInvalidValue, nil, "%v is not a JSON number", f)
		}
		dst.SetFloat(src.Float())
	case reflect.Slice: // []byte
		if src.IsNil() {
			return nil
		}
		dst.SetBytes(append(make([]byte, 0, src.Len()), src.Bytes()...))
	}
	return nil
}

// copyFastScalar copies a scalar fast field from memory; a string that is
// not valid UTF-8 is repaired as its JSON would be.
func copyFastScalar(dst, src unsafe.Pointer, f *Field) {
	pd, ps := unsafe.Add(dst, f.Offset), unsafe.Add(src, f.Offset)
	switch f.Fast {
	case FastString:
		*(*string)(pd) = WireString(*(*string)(ps))
	case FastBool, FastInt8, FastUint8:
		*(*uint8)(pd) = *(*uint8)(ps)
	case fastInt16, fastUint16:
		*(*uint16)(pd) = *(*uint16)(ps)
	case fastInt32, fastUint32:
		*(*uint32)(pd) = *(*uint32)(ps)
	default:
		*(*uint64)(pd) = *(*uint64)(ps)
	}
}
