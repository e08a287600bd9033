package goval

import (
	"reflect"
	"strconv"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Most fields of API types are strings, numbers, booleans, pointers and
// slices, and most of them are equal or absent on both sides of a diff.
// For an addressable struct, such a field's presence, and a scalar's
// value, are read straight from memory at the field's offset, without a
// reflect.Value. Everything else goes through reflect.

// fastKind says how a field is read from memory.
type fastKind uint8

const (
	FastNone fastKind = iota // through reflect
	FastString
	FastBool
	FastInt8
	fastInt16
	fastInt32
	fastInt64
	FastUint8
	fastUint16
	fastUint32
	FastUint64
	fastPointer // presence only
	fastSlice   // presence only
)

// fastKindOf classifies a field: a scalar that encodes plainly (a JSON
// string, number or boolean, not quoted, not a marshaller), or a pointer
// or slice whose presence is its nil-ness or length. Fields behind an
// embedded pointer, and omitzero fields, take the reflect path.
func fastKindOf(f *reflectschema.Field, n *Node, viaPtr bool) fastKind {
	if viaPtr || f.OmitZero || f.Quoted || n.Marshaler {
		return FastNone
	}
	t := f.GoType
	switch t.Kind() {
	case reflect.Pointer:
		return fastPointer
	case reflect.Slice:
		return fastSlice
	}
	if n.Kind != reflectschema.Scalar || n.IsNumber {
		return FastNone
	}
	switch t.Kind() {
	case reflect.String:
		return FastString
	case reflect.Bool:
		return FastBool
	case reflect.Int8:
		return FastInt8
	case reflect.Int16:
		return fastInt16
	case reflect.Int32:
		return fastInt32
	case reflect.Int64, reflect.Int:
		if t.Size() == 8 {
			return fastInt64
		}
		return fastInt32
	case reflect.Uint8:
		return FastUint8
	case reflect.Uint16:
		return fastUint16
	case reflect.Uint32:
		return fastUint32
	case reflect.Uint64, reflect.Uint, reflect.Uintptr:
		if t.Size() == 8 {
			return FastUint64
		}
		return fastUint32
	}
	return FastNone
}

// fieldOffset is the offset of a field reached through embedded structs
// (not pointers) from the outer struct.
func fieldOffset(t reflect.Type, index []int) uintptr {
	var off uintptr
	for _, i := range index {
		sf := t.Field(i)
		off += sf.Offset
		t = sf.Type
	}
	return off
}

// StructBase returns the address of a struct value, when it has one. An
// invalid value (an absent object) has none and needs none.
func StructBase(v reflect.Value) (unsafe.Pointer, bool) {
	if !v.IsValid() {
		return nil, true
	}
	if !v.CanAddr() {
		return nil, false
	}
	return unsafe.Pointer(v.UnsafeAddr()), true
}

// FastPresent is FieldValue's presence test for a fast field of the
// struct at base (nil: absent struct).
func FastPresent(base unsafe.Pointer, f *Field) bool {
	if base == nil {
		return false
	}
	if !f.Meta.OmitEmpty {
		return true
	}
	p := unsafe.Add(base, f.Offset)
	switch f.Fast {
	case FastString:
		return len(*(*string)(p)) != 0
	case FastBool:
		return *(*bool)(p)
	case FastInt8, FastUint8:
		return *(*uint8)(p) != 0
	case fastInt16, fastUint16:
		return *(*uint16)(p) != 0
	case fastInt32, fastUint32:
		return *(*uint32)(p) != 0
	case fastInt64, FastUint64:
		return *(*uint64)(p) != 0
	case fastPointer:
		return *(*unsafe.Pointer)(p) != nil
	case fastSlice:
		return (*reflectSlice)(p).len != 0
	}
	return true
}

// reflectSlice is a slice's header.
type reflectSlice struct {
	data     unsafe.Pointer
	len, cap int
}

// FastScalar reports whether the fast field holds a scalar (read whole
// from memory), rather than a pointer or slice (presence only).
func (f *Field) FastScalar() bool { return f.Fast >= FastString && f.Fast <= FastUint64 }

// FastKey reports whether the fast field is a string or an integer, the
// merge keys read from memory (FastInteger reads the integers).
func (f *Field) FastKey() bool { return f.FastScalar() && f.Fast != FastBool }

// FastEqual compares a scalar fast field of two structs as JSON: a
// number or boolean by its bits (FastSame).
func FastEqual(a, b unsafe.Pointer, f *Field) bool {
	if f.Fast != FastString {
		return FastSame(a, b, f)
	}
	sa, sb := *(*string)(unsafe.Add(a, f.Offset)), *(*string)(unsafe.Add(b, f.Offset))
	return sa == sb || !(validUTF8(sa) && validUTF8(sb)) && SameWireString(sa, sb)
}

// FastSame reports whether fast field f holds the same bits in the
// structs at a and b: a string's or slice's header, a pointer, a number.
// Its values are then deeply equal, and present alike.
func FastSame(a, b unsafe.Pointer, f *Field) bool {
	pa, pb := unsafe.Add(a, f.Offset), unsafe.Add(b, f.Offset)
	switch f.Fast {
	case FastString, fastSlice: // data and length
		return *(*[2]uintptr)(pa) == *(*[2]uintptr)(pb)
	case FastBool, FastInt8, FastUint8:
		return *(*uint8)(pa) == *(*uint8)(pb)
	case fastInt16, fastUint16:
		return *(*uint16)(pa) == *(*uint16)(pb)
	case fastInt32, fastUint32:
		return *(*uint32)(pa) == *(*uint32)(pb)
	}
	return *(*uint64)(pa) == *(*uint64)(pb)
}

// FastInteger reads an integer fast field of the struct at base, sign- or
// zero-extended to 64 bits, so that two fields of one type hold the same
// number exactly when the words are equal. ok is false for other kinds.
func FastInteger(base unsafe.Pointer, f *Field) (n uint64, ok bool) {
	p := unsafe.Add(base, f.Offset)
	switch f.Fast {
	case FastInt8:
		return uint64(*(*int8)(p)), true
	case fastInt16:
		return uint64(*(*int16)(p)), true
	case fastInt32:
		return uint64(*(*int32)(p)), true
	case fastInt64:
		return uint64(*(*int64)(p)), true
	case FastUint8:
		return uint64(*(*uint8)(p)), true
	case fastUint16:
		return uint64(*(*uint16)(p)), true
	case fastUint32:
		return uint64(*(*uint32)(p)), true
	case FastUint64:
		return *(*uint64)(p), true
	}
	return 0, false
}

// FastJSON converts a scalar fast field to decoded JSON.
func FastJSON(base unsafe.Pointer, f *Field) any { return FastJSONIn(nil, base, f) }

// FastJSONIn is FastJSON boxing strings in b.
func FastJSONIn(b *jsonval.Boxes, base unsafe.Pointer, f *Field) any {
	p := unsafe.Add(base, f.Offset)
	switch f.Fast {
	case FastString:
		if s := *(*string)(p); validUTF8(s) {
			return b.String(s)
		}
		return WireString(*(*string)(p))
	case FastBool:
		return *(*bool)(p)
	case FastInt8:
		return b.Number(strconv.FormatInt(int64(*(*int8)(p)), 10))
	case fastInt16:
		return b.Number(strconv.FormatInt(int64(*(*int16)(p)), 10))
	case fastInt32:
		return b.Number(strconv.FormatInt(int64(*(*int32)(p)), 10))
	case fastInt64:
		return b.Number(strconv.FormatInt(*(*int64)(p), 10))
	case FastUint8:
		return b.Number(strconv.FormatUint(uint64(*(*uint8)(p)), 10))
	case fastUint16:
		return b.Number(strconv.FormatUint(uint64(*(*uint16)(p)), 10))
	case fastUint32:
		return b.Number(strconv.FormatUint(uint64(*(*uint32)(p)), 10))
	}
	return b.Number(strconv.FormatUint(*(*uint64)(p), 10))
}

// FieldOf returns field f of struct sv, which must be reachable (no nil
// embedded pointer on the way).
func FieldOf(sv reflect.Value, f *Field) reflect.Value {
	if len(f.Index) == 1 {
		return sv.Field(f.Index[0])
	}
	v, _ := FieldValue(sv, f)
	return v
}

// FastKeyJSON is KeyJSON for a struct element whose key field name is a
// fast scalar, read from memory; done is false when it cannot tell (not
// such a field, or e not addressable), and KeyJSON must.
func FastKeyJSON(e reflect.Value, en *Node, name string) (j any, present, done bool) {
	if en.Kind != reflectschema.Struct {
		return nil, false, false
	}
	return FastFieldJSON(nil, e, en.ByName[name])
}

// FastFieldJSON is FastKeyJSON for field f of e's node, looked up (nil
// when it has none), boxing strings in b.
func FastFieldJSON(b *jsonval.Boxes, e reflect.Value, f *Field) (j any, present, done bool) {
	p, done := fastField(e, f)
	if !done || !FastPresent(p, f) {
		return nil, false, done
	}
	return FastJSONIn(b, p, f), true, true
}

// FastHasField is HasKey for FastFieldJSON's key fields.
func FastHasField(e reflect.Value, f *Field) (present, done bool) {
	p, done := fastField(e, f)
	return done && FastPresent(p, f), done
}

// fastField is the memory of struct element e, when its field f is a
// fast scalar there to read.
func fastField(e reflect.Value, f *Field) (p unsafe.Pointer, ok bool) {
	if f == nil || !f.FastScalar() || !e.CanAddr() {
		return nil, false
	}
	return unsafe.Pointer(e.UnsafeAddr()), true
}

// ValidUTF8 is utf8.ValidString, quicker on the short ASCII strings of
// merge keys.
func ValidUTF8(s string) bool { return validUTF8(s) }
