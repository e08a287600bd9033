package goval

import (
	"bytes"
	"math"
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Equal reports whether two values of node n encode to the same JSON (as
// jsonval.Equal compares decoded values). Common shapes compare without
// allocating; marshallers compare as Go values first, and by their JSON
// only when those differ.
func (s *Scratch) Equal(a, b reflect.Value, n *Node) bool {
	if n.Marshaler || n.Kind == reflectschema.Untyped {
		return s.equalOpaque(a, b, n)
	}
	a, an := DerefNull(a)
	b, bn := DerefNull(b)
	if an || bn {
		return an == bn
	}
	switch n.Kind {
	case reflectschema.Struct:
		ba, okA := StructBase(a)
		bb, okB := StructBase(b)
		fast := okA && okB
		for _, f := range n.Fields {
			if fast && f.Fast != FastNone {
				pa, pb := FastPresent(ba, f), FastPresent(bb, f)
				if pa != pb {
					return false
				}
				if !pa {
					continue
				}
				if f.FastScalar() {
					if !FastEqual(ba, bb, f) {
						return false
					}
					continue
				}
				if !s.Equal(FieldOf(a, f), FieldOf(b, f), f.Node) {
					return false
				}
				continue
			}
			fa, pa := FieldValue(a, f)
			fb, pb := FieldValue(b, f)
			if pa != pb || pa && !s.EqualQuoted(fa, fb, f.Node, f.Quoted) {
				return false
			}
		}
		return true
	case reflectschema.Map:
		return s.equalMaps(a, b, n)
	case reflectschema.List, reflectschema.Atomic:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !s.Equal(a.Index(i), b.Index(i), n.Elem) {
				return false
			}
		}
		return true
	}
	return equalScalar(a, b, n)
}

// EqualQuoted is Equal for a field whose json ",string" option is quoted.
func (s *Scratch) EqualQuoted(a, b reflect.Value, n *Node, quoted bool) bool {
	if !quoted || n.Marshaler || n.IsNumber || n.GoType.Kind() != reflect.String {
		return s.Equal(a, b, n)
	}
	a, an := DerefNull(a)
	b, bn := DerefNull(b)
	if an || bn {
		return an == bn
	}
	return SameQuotedString(a.String(), b.String())
}

// equalScalar compares two non-null scalars of node n.
func equalScalar(a, b reflect.Value, n *Node) bool {
	switch a.Kind() {
	case reflect.String:
		if n.IsNumber {
			return numberText(a.String()) == numberText(b.String())
		}
		return SameWireString(a.String(), b.String())
	case reflect.Slice:
		return bytes.Equal(a.Bytes(), b.Bytes())
	}
	eq, _ := equalBasic(a, b)
	return eq
}

// equalBasic compares two booleans or numbers of one kind (a float's
// sign counts: -0 and 0 differ in JSON); ok is false for other kinds.
func equalBasic(a, b reflect.Value) (eq, ok bool) {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint(), true
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y && math.Signbit(x) == math.Signbit(y), true
	}
	return false, false
}

// numberText is the text encoding/json writes for a json.Number.
func numberText(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// equalMaps compares two non-nil maps of node n. Maps whose keys may
// collide in JSON (mapkeys.go) that differ as Go values compare by their
// JSON.
func (s *Scratch) equalMaps(a, b reflect.Value, n *Node) bool {
	if s.equalGoMaps(a, b, n) {
		return true
	}
	if !s.KeysCollide(a, n) && !s.KeysCollide(b, n) {
		return false
	}
	ja, err := ToJSONValue(a, n, false)
	if err != nil {
		return false
	}
	jb, err := ToJSONValue(b, n, false)
	return err == nil && jsonval.Equal(ja, jb)
}

// equalGoMaps compares two non-nil maps entry by entry, key by Go key.
func (s *Scratch) equalGoMaps(a, b reflect.Value, n *Node) bool {
	if a.Len() != b.Len() {
		return false
	}
	if a.UnsafePointer() == b.UnsafePointer() {
		return true
	}
	if n.StringMap {
		ma, mb := AsStringMap(a), AsStringMap(b)
		for k, va := range ma {
			vb, ok := mb[k]
			if !ok || !SameWireString(va, vb) {
				return false
			}
		}
		return true
	}
	t := a.Type()
	key, va := s.Take(t.Key()), s.Take(t.Elem())
	defer func() { s.Give(key); s.Give(va) }()
	var it reflect.MapIter
	it.Reset(a)
	if b.Len() <= SmallMap {
		eb := s.ReadMap(b, n)
		defer s.Release(eb)
		for it.Next() {
			key.SetIterKey(&it)
			va.SetIterValue(&it)
			j := eb.Find(key)
			if j < 0 || !s.Equal(Detach(va, n.Elem), Detach(eb.Vals.Index(j), n.Elem), n.Elem) {
				return false
			}
		}
		return true
	}
	vb := s.Take(t.Elem())
	defer s.Give(vb)
	for it.Next() {
		key.SetIterKey(&it)
		va.SetIterValue(&it)
		if !s.MapLookup(b, key, vb) || !s.Equal(Detach(va, n.Elem), Detach(vb, n.Elem), n.Elem) {
			return false
		}
	}
	return true
}

// equalOpaque compares marshallers and untyped values: equal Go values
// marshal alike; otherwise their JSON decides. A value that fails to
// marshal is unequal to everything.
func (s *Scratch) equalOpaque(a, b reflect.Value, n *Node) bool {
	if DeepEqualGo(a, b, 0) {
		return true
	}
	ja, err := ToJSONValue(a, n, false)
	if err != nil {
		return false
	}
	jb, err := ToJSONValue(b, n, false)
	if err != nil {
		return false
	}
	return jsonval.Equal(ja, jb)
}

// DeepEqualGo reports whether two Go values are deeply equal, reading
// unexported fields too. It answers false when unsure (functions, deep
// nesting), which only costs a comparison by JSON.
func DeepEqualGo(a, b reflect.Value, depth int) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if depth > 100 || a.Type() != b.Type() {
		return false
	}
	if eq, ok := equalBasic(a, b); ok {
		return eq
	}
	switch a.Kind() {
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Pointer:
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		if a.IsNil() || b.IsNil() {
			return false
		}
		return DeepEqualGo(a.Elem(), b.Elem(), depth+1)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return DeepEqualGo(a.Elem(), b.Elem(), depth+1)
	case reflect.Struct:
		for i := range a.NumField() {
			if !DeepEqualGo(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Array:
		return elemsEqualGo(a, b, depth)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		return a.Len() == 0 || a.UnsafePointer() == b.UnsafePointer() || elemsEqualGo(a, b, depth)
	case reflect.Map:
		return mapsEqualGo(a, b, depth)
	case reflect.Chan, reflect.UnsafePointer:
		return a.UnsafePointer() == b.UnsafePointer()
	}
	return false
}

// elemsEqualGo is DeepEqualGo for the elements of two arrays or slices of
// one length.
func elemsEqualGo(a, b reflect.Value, depth int) bool {
	for i := range a.Len() {
		if !DeepEqualGo(a.Index(i), b.Index(i), depth+1) {
			return false
		}
	}
	return true
}

// mapsEqualGo is DeepEqualGo for two maps.
func mapsEqualGo(a, b reflect.Value, depth int) bool {
	if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
		return false
	}
	if a.UnsafePointer() == b.UnsafePointer() {
		return true
	}
	it := a.MapRange()
	for it.Next() {
		bv := b.MapIndex(it.Key())
		if !bv.IsValid() || !DeepEqualGo(it.Value(), bv, depth+1) {
			return false
		}
	}
	return true
}
