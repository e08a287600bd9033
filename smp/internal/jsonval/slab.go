package jsonval

import (
	"encoding/json"
	"unsafe"
)

// slabs hands the one-pass decoder the memory of its values' boxes (the
// string or slice header an any points at) and of its lists' elements
// from a few large blocks instead of one allocation each. A block stays
// alive while any value carved from it does; nothing carved is written
// again, and each list is carved with its capacity equal to its length,
// so that appending to it copies.
type slabs struct {
	strs  block[string] // boxes of strings and numbers
	lists block[[]any]  // boxes of lists
	items block[any]    // lists' elements
}

// A block's length is what the rest of the document, of so many bytes,
// most likely holds: Kubernetes objects have a string or number in every
// 25 bytes or more, a list element in every 30 and a list in every 100.
// The bounds keep small blocks worth their allocation and large ones from
// holding much alive for one kept value.
const (
	bytesPerStr  = 24
	bytesPerElem = 32
	bytesPerList = 128
	minSlab      = 4
	maxSlab      = 1024
)

// block is a slab of Ts: free is what is left of the current one, last
// its length.
type block[T any] struct {
	free []T
	last int
}

// nextLen is the next block's length for rest bytes of text at per bytes
// a T: twice the last when the text is denser than that.
func (b *block[T]) nextLen(rest, per int) int {
	return min(max(rest/per, 2*b.last, minSlab), maxSlab)
}

// start starts a new block of n Ts.
func (b *block[T]) start(n int) {
	b.free = make([]T, n)
	b.last = n
}

// next returns the next free T, growing by rest and per.
func (b *block[T]) next(rest, per int) *T {
	if len(b.free) == 0 {
		b.start(b.nextLen(rest, per))
	}
	p := &b.free[0]
	b.free = b.free[1:]
	return p
}

// eface is the layout of an any: its type word and its data pointer, which
// the garbage collector scans as a pointer.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

var (
	stringType = typeWord("")
	numberType = typeWord(json.Number(""))
	listType   = typeWord([]any(nil))
)

func typeWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

// boxAt returns an any of the type whose word is typ holding *p, as the
// any a conversion allocates would; *p must never be written again.
func boxAt(typ, p unsafe.Pointer) (v any) {
	*(*eface)(unsafe.Pointer(&v)) = eface{typ, p}
	return v
}

// rest is the number of bytes not yet decoded.
func (d *fastDecoder) rest() int { return len(d.data) - d.i }

// box returns str as an any of the type whose word is typ (a string type).
func (d *fastDecoder) box(typ unsafe.Pointer, str string) any {
	p := d.strs.next(d.rest(), bytesPerStr)
	*p = str
	return boxAt(typ, unsafe.Pointer(p))
}

// list returns a copy of elems as an any, carved from the current block
// when it fits.
func (d *fastDecoder) list(elems []any) any {
	n := len(elems)
	b := &d.items
	if n > len(b.free) {
		size := b.nextLen(d.rest(), bytesPerElem)
		if n > size/2 {
			return d.boxList(append(make([]any, 0, n), elems...)) // alone, so as not to waste the block
		}
		b.start(size)
	}
	l := b.free[:n:n]
	copy(l, elems)
	b.free = b.free[n:]
	return d.boxList(l)
}

// emptyList is every decoded empty list: with no capacity, it has nothing
// to share.
var emptyList any = []any{}

func (d *fastDecoder) boxList(l []any) any {
	p := d.lists.next(d.rest(), bytesPerList)
	*p = l
	return boxAt(listType, unsafe.Pointer(p))
}
