package goval

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// Presence and null, as encoding/json decides them.

// FieldValue returns field f of struct value sv and whether encoding/json
// writes it: the struct is present (sv valid), no embedded pointer on the
// way is nil, and neither omitempty nor omitzero drops the value.
func FieldValue(sv reflect.Value, f *Field) (reflect.Value, bool) {
	if !sv.IsValid() {
		return reflect.Value{}, false
	}
	v := sv
	if len(f.Index) == 1 {
		v = v.Field(f.Index[0])
	} else {
		for _, i := range f.Index {
			if v.Kind() == reflect.Pointer {
				if v.IsNil() {
					return reflect.Value{}, false
				}
				v = v.Elem()
			}
			v = v.Field(i)
		}
	}
	if f.Meta.OmitEmpty && isEmptyValue(v) {
		return v, false
	}
	if f.Meta.OmitZero && isZeroField(v, f.zeroMode) {
		return v, false
	}
	return v, true
}

// isEmptyValue is encoding/json's omitempty test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

type isZeroer interface{ IsZero() bool }

// isZeroField is encoding/json's omitzero test: the IsZero method when the
// type has one, else the zero value.
func isZeroField(v reflect.Value, mode zeroMode) bool {
	switch mode {
	case zeroMethodIface:
		return v.IsNil() || (v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) || v.Interface().(isZeroer).IsZero()
	case zeroMethodPtr:
		return v.IsNil() || v.Interface().(isZeroer).IsZero()
	case zeroMethodValue:
		return v.Interface().(isZeroer).IsZero()
	case zeroMethodAddr:
		if !v.CanAddr() {
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			v = c
		}
		return v.Addr().Interface().(isZeroer).IsZero()
	}
	return v.IsZero()
}

// DerefNull follows pointers. null reports a value encoding/json writes as
// null: a nil pointer, slice, map or interface. It is for nodes that are
// not marshallers, whose nil slices and maps may encode otherwise.
func DerefNull(v reflect.Value) (reflect.Value, bool) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return v, true
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.Interface:
		return v, v.IsNil()
	}
	return v, false
}

// SettableField returns field f of the settable struct dst, allocating the
// embedded pointers on the way as json.Unmarshal does.
func SettableField(dst reflect.Value, f *Field) (reflect.Value, error) {
	v := dst
	for _, i := range f.Index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, &errpath.Error{Kind: errpath.ErrTypeMismatch, Msg: "cannot set embedded pointer to unexported struct " + v.Type().Elem().String()}
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, nil
}

// AllocChain allocates the pointers of a settable value and returns what
// they point to.
func AllocChain(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	return v
}

// AsStringMap views a map whose type is convertible to map[string]string
// as one, without the allocation reflect.Value.Convert makes for an
// addressable value. The two types have one representation.
func AsStringMap(v reflect.Value) map[string]string {
	p := v.UnsafePointer()
	return *(*map[string]string)(unsafe.Pointer(&p))
}

// Scratch lends settable values of a type to map walks, which read map
// entries into them without allocating. A value is lent until given back,
// so nested walks of one type use different values. The few types in use
// are searched in a slice: cheaper than hashing them.
type Scratch struct {
	vals []scratchVal
	buf  []uint64 // see words
	used int      // words of buf that comparisons running further out hold
	// failAt is where the last SameMemoryUpTo found two structs differ.
	failAt uintptr
}

// words returns n words of memory the garbage collector does not scan,
// apart from the words a comparison further out holds (a map's values
// hold maps compared in turn), and the mark that release takes to give
// them back. Outgrown, the buffer is replaced; the old one lives on
// while a comparison points into it.
func (s *Scratch) words(n int) ([]uint64, int) {
	mark := s.used
	if cap(s.buf)-mark < n {
		s.buf = make([]uint64, max(2*cap(s.buf), mark+n))
	}
	s.used = mark + n
	return s.buf[mark : mark+n], mark
}

// release gives back the words taken since words returned mark.
func (s *Scratch) release(mark int) { s.used = mark }

// scratches keeps scratch spaces between calls: their values are reused,
// zeroed so that they hold nothing of the last call's documents.
var scratches = sync.Pool{New: func() any { return &Scratch{} }}

func GetScratch() *Scratch { return scratches.Get().(*Scratch) }

func PutScratch(s *Scratch) {
	for i := range s.vals {
		s.vals[i].v.SetZero()
		s.vals[i].busy = false
	}
	s.used = 0
	scratches.Put(s)
}

type scratchVal struct {
	t    reflect.Type
	v    reflect.Value
	addr uintptr
	busy bool
}

func (s *Scratch) Take(t reflect.Type) reflect.Value {
	for i := range s.vals {
		if e := &s.vals[i]; !e.busy && e.t == t {
			e.busy = true
			return e.v
		}
	}
	v := reflect.New(t).Elem()
	s.vals = append(s.vals, scratchVal{t: t, v: v, addr: v.UnsafeAddr(), busy: true})
	return v
}

// EachKey calls f with each key of map v, held in a scratch value, until f
// returns false.
func (s *Scratch) EachKey(v reflect.Value, f func(key reflect.Value) bool) {
	key := s.Take(v.Type().Key())
	defer s.Give(key)
	var it reflect.MapIter
	it.Reset(v)
	for it.Next() {
		key.SetIterKey(&it)
		if !f(key) {
			return
		}
	}
}

func (s *Scratch) Give(v reflect.Value) {
	addr := v.UnsafeAddr()
	for i := len(s.vals) - 1; i >= 0; i-- {
		if e := &s.vals[i]; e.addr == addr {
			e.busy = false
			return
		}
	}
}

// SmallMap is the size up to which maps are read into scratch arrays and
// searched by scanning, rather than through reflect.Value.MapIndex, which
// allocates.
const SmallMap = 8

// MapEntries is a small map read into scratch arrays.
type MapEntries struct {
	Keys, Vals reflect.Value // [SmallMap]K, [SmallMap]V
	Len        int
}

// ReadMap reads a map of at most SmallMap entries.
func (s *Scratch) ReadMap(m reflect.Value, n *Node) MapEntries {
	e := MapEntries{Keys: s.Take(n.keyArr), Vals: s.Take(n.valArr)}
	var it reflect.MapIter
	it.Reset(m)
	for it.Next() {
		e.Keys.Index(e.Len).SetIterKey(&it)
		e.Vals.Index(e.Len).SetIterValue(&it)
		e.Len++
	}
	return e
}

func (s *Scratch) Release(e MapEntries) {
	s.Give(e.Keys)
	s.Give(e.Vals)
}

// Find returns the index of key k, or -1.
func (e *MapEntries) Find(k reflect.Value) int {
	for i := range e.Len {
		if sameKey(e.Keys.Index(i), k) {
			return i
		}
	}
	return -1
}

// MapLookup finds key k of map m, reading the value into val.
func (s *Scratch) MapLookup(m, k, val reflect.Value) bool {
	v := m.MapIndex(k)
	if !v.IsValid() {
		return false
	}
	val.Set(v)
	return true
}

// sameKey compares two map keys of one type as the map does.
func sameKey(a, b reflect.Value) bool {
	if a.Kind() == reflect.String {
		return a.String() == b.String()
	}
	return a.Equal(b)
}
