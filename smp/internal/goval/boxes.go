package goval

import (
	"encoding/json"
	"unsafe"
)

// Boxes makes the strings of a patch into interface values a block at a
// time: a diff boxes many keys and values, and a conversion to any costs
// one allocation each. A block stays alive while any value boxed in it
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
	return b.box(stringTypeWord, s)
}

// Number returns s as an any holding a json.Number.
func (b *Boxes) Number(s string) any {
	if b == nil {
		return json.Number(s)
	}
	return b.box(numberTypeWord, s)
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
	return boxAt(listTypeWord, unsafe.Pointer(p))
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

// boxAt returns an any of the type whose word is typ holding *p; *p must
// never be written again.
func boxAt(typ, p unsafe.Pointer) (v any) {
	*(*[2]unsafe.Pointer)(unsafe.Pointer(&v)) = [2]unsafe.Pointer{typ, p}
	return v
}

// The type words of an any holding a string, a json.Number and a []any.
var (
	stringTypeWord = typeWordOf("")
	numberTypeWord = typeWordOf(json.Number(""))
	listTypeWord   = typeWordOf([]any(nil))
)

func typeWordOf(v any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[0] }
