package engine

import "unsafe"

// listsPerBlock is how many lists' headers boxList carves from one
// allocation: a merged list's patch holds the list and its order.
const listsPerBlock = 4

// boxList returns l as an any, as any(l) would, without an allocation of
// its own: the header is carved from a block the differ keeps, which
// stays alive while a list boxed in it does and is never written again
// where carved.
func (d *Differ) boxList(l []any) any {
	if len(d.lists) == 0 {
		d.lists = make([][]any, listsPerBlock)
	}
	p := &d.lists[0]
	*p = l
	d.lists = d.lists[1:]
	var v any
	*(*[2]unsafe.Pointer)(unsafe.Pointer(&v)) = [2]unsafe.Pointer{listTypeWord, unsafe.Pointer(p)}
	return v
}

// listTypeWord is the type word of an any holding a []any.
var listTypeWord = func() unsafe.Pointer {
	var v any = []any(nil)
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[0]
}()
