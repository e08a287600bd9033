package goval

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestFastKeyJSONIsKeyJSON: a key field read from memory has the JSON,
// and the presence, KeyJSON gives it through reflect.
func TestFastKeyJSONIsKeyJSON(t *testing.T) {
	type elem struct {
		S   string  `json:"s,omitempty"`
		Bad string  `json:"bad"`
		I8  int8    `json:"i8"`
		I16 int16   `json:"i16,omitempty"`
		I32 int32   `json:"i32"`
		I   int     `json:"i"`
		U8  uint8   `json:"u8"`
		U16 uint16  `json:"u16"`
		U32 uint32  `json:"u32"`
		U64 uint64  `json:"u64"`
		B   bool    `json:"b"`
		F   float64 `json:"f"`
		Q   int     `json:"q,string"`
	}
	n := nodeFor(t, reflect.TypeFor[elem]())
	names := []string{"s", "bad", "i8", "i16", "i32", "i", "u8", "u16", "u32", "u64", "b", "f", "q", "missing"}
	for _, e := range []elem{
		{S: "web", Bad: "a\xffb", I8: -8, I16: -1600, I32: -32, I: -1 << 40, U8: 200, U16: 65535, U32: 1 << 31, U64: 1<<64 - 1, B: true, F: 1.5, Q: 7},
		{},
	} {
		v := reflect.ValueOf(&e).Elem()
		for _, name := range names {
			want, wantOK, err := KeyJSON(v, n, name)
			assert.NoError(t, err)
			got, ok, done := FastKeyJSON(v, n, name)
			has, hasDone := FastHasField(v, n.ByName[name])
			assert.Equal(t, done, hasDone, name)
			if !done {
				continue
			}
			assert.Equal(t, wantOK, ok, name)
			assert.Equal(t, wantOK, has, name)
			assert.Equal(t, want, got, name)
		}
	}
	v := reflect.ValueOf(elem{S: "x"})
	_, _, done := FastKeyJSON(v, n, "s")
	assert.False(t, done, "no memory to read")
	_, _, done = FastKeyJSON(reflect.ValueOf(&elem{}).Elem(), n, "f")
	assert.False(t, done, "a float is read through reflect")
}

// TestFastSame: fields with the same bits are equal and present alike,
// and no difference escapes: a string or slice sharing its data but not
// its length, a number differing in its high byte.
func TestFastSame(t *testing.T) {
	type elem struct {
		S   string   `json:"s,omitempty"`
		L   []int    `json:"l,omitempty"`
		I16 int16    `json:"i16"`
		U32 uint32   `json:"u32"`
		I   int      `json:"i"`
		B   bool     `json:"b"`
		P   *int     `json:"p"`
		Sub []string `json:"sub"`
	}
	n := nodeFor(t, reflect.TypeFor[elem]())
	text, ints, one := "abcdef", []int{1, 2, 3}, 1
	base := elem{S: text[:3], L: ints[:2], I16: 1, U32: 1, I: 1, B: true, P: &one, Sub: []string{"x"}}
	for name, change := range map[string]func(e *elem){
		"s":   func(e *elem) { e.S = text[:4] },
		"l":   func(e *elem) { e.L = ints[:3] },
		"i16": func(e *elem) { e.I16 = 1 + 1<<8 },
		"u32": func(e *elem) { e.U32 = 1 + 1<<24 },
		"i":   func(e *elem) { e.I = 1 + 1<<40 },
		"b":   func(e *elem) { e.B = false },
		"p":   func(e *elem) { two := 1; e.P = &two },
		"sub": func(e *elem) { e.Sub = nil },
	} {
		a, b := base, base
		change(&b)
		pa, pb := unsafe.Pointer(&a), unsafe.Pointer(&b)
		for _, f := range n.Fields {
			assert.True(t, FastSame(pa, pa, f), f.Name)
			if f.Name == name {
				assert.False(t, FastSame(pa, pb, f), "%s changed", name)
			} else {
				assert.True(t, FastSame(pa, pb, f), "%s unchanged by %s", f.Name, name)
			}
		}
	}
}
