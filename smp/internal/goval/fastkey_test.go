package goval

import (
	"reflect"
	"testing"

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
