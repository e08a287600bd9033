package jsonval

import (
	"encoding/json"
	"unsafe"
)

// Boxes makes the strings and lists of a patch into interface values a
// block at a time, as the decoder's slabs do: a diff boxes many keys and
// values, and a conversion to any costs one allocation each. A block stays alive while any value boxed in it
// does; nothing boxed is written again. The zero Boxes is ready to use;
// a nil *Boxes boxes each string alone.
type Boxes struct {
	free  []string
	lists [][]any
}

// A block's length: about the strings, or lists, of a small patch.
const (
	boxesPerBlock = 16
	listsPerBlock = 4
)

// String returns s as an any, as any(s) would.
func (b *Boxes) String(s string) any {
	if b == nil {
		return s
	}
	return b.box(stringType, s)
}

// Number returns s as an any holding a json.Number.
func (b *Boxes) Number(s string) any {
	if b == nil {
		return json.Number(s)
	}
	return b.box(numberType, s)
}

// List returns l as an any, as any(l) would.
func (b *Boxes) List(l []any) any {
	if b == nil {
		return l
	}
	if len(b.lists) == 0 {
		b.lists = make([][]any, listsPerBlock)
	}
	p := &b.lists[0]
	*p = l
	b.lists = b.lists[1:]
	return boxAt(listType, unsafe.Pointer(p))
}

// box returns s as an any of the string type whose word is typ.
func (b *Boxes) box(typ unsafe.Pointer, s string) any {
	if len(b.free) == 0 {
		b.free = make([]string, boxesPerBlock)
	}
	p := &b.free[0]
	*p = s
	b.free = b.free[1:]
	return boxAt(typ, unsafe.Pointer(p))
}
