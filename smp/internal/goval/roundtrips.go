package goval

import (
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A marshaller's value that holds plain data at the moment (no pointer,
// slice, map or interface; strings allowed) is copied through its
// MarshalJSON and UnmarshalJSON once per content, for the life of the
// process: a quantity such as 250m met again, in this Apply or a later
// one, is set to what it became the first time. The content is the
// value's memory with each string's address left out and its bytes
// written after: two values of one content hold the same fields. This
// takes the two methods to depend only on the value, as a copy by
// encoding/json's round trip does within one call.
//
// A round trip whose result holds pointers is remembered when a second
// round trip of the content points to the same places (a metav1.Time
// decodes to a time in time.Local): those pointers are shared by every
// round trip of the type, not made anew. A value holding only such
// pointers is then remembered as plain data is, its content holding
// their addresses.

// maxRoundTrips bounds the contents remembered per type; beyond it, and
// for values of more than maxContentBytes, values are copied through
// their methods every time.
const maxRoundTrips = 1024

// maxContentStrings bounds the strings a remembered type may hold.
const maxContentStrings = 16

// maxContentBytes bounds the content of a value remembered, and of what it
// decoded to: memory stays under 1,024 × 2 × 512 bytes per type.
const maxContentBytes = 512

// roundTrips is one marshaller type's memory of round trips.
type roundTrips struct {
	strs  []uintptr // the offsets of the type's strings
	words []nilWord // the words that are nil in plain data

	// shared holds the pointers round trips of the type share (keyable),
	// each at its offset, learnt from the results remembered, which
	// keep them alive. Stored as done is.
	shared atomic.Pointer[[]sharedWord]

	// done maps a content to what it decoded to (plain data). It is
	// never changed once stored: a new content stores a copy with it, so
	// that readers take no lock. Copies cost O(maxRoundTrips²) per type
	// over the life of the process.
	done atomic.Pointer[tripTable]
	mu   sync.Mutex // serializes stores
}

// trip is a round trip remembered: the value a content decoded to, and
// whether that value has the same content (the round trip changes
// nothing).
type trip struct {
	v    reflect.Value
	same bool
}

// newRoundTrips plans the memory of type t's round trips; nil when t holds
// too many strings for a content to be built cheaply.
func newRoundTrips(t reflect.Type) *roundTrips {
	strs, ok := stringOffsets(t, 0, nil, 0)
	if !ok {
		return nil
	}
	words, _ := nilWords(t, 0, nil, 0)
	return &roundTrips{strs: strs, words: words}
}

// sharedWord is a pointer round trips share, at its offset in the value.
type sharedWord struct {
	off uintptr
	ptr unsafe.Pointer
}

// maxSharedWords bounds the shared pointers a type learns.
const maxSharedWords = 16

// keyable reports whether the value at p of node n can be remembered by
// its content: it holds plain data, or pointers only where round trips of
// its type have put them (a time's location). Its content then holds
// those pointers' addresses, which name what they point to for the life
// of the process.
func (r *roundTrips) keyable(n *Node, p unsafe.Pointer) bool {
	if n.plainNow(p) {
		return true
	}
	sh := r.shared.Load()
	if sh == nil {
		return false
	}
	for _, w := range r.words {
		q := *(*unsafe.Pointer)(unsafe.Add(p, w.off))
		if q != nil && (w.iface || !slices.Contains(*sh, sharedWord{w.off, q})) {
			return false
		}
	}
	return true
}

// learn adds the pointers the value at p holds (a round trip's result
// remembered, with its pointers shared) to the shared ones; r.mu is held.
func (r *roundTrips) learn(p unsafe.Pointer) {
	var sh []sharedWord
	if old := r.shared.Load(); old != nil {
		sh = *old
	}
	added := false
	for _, w := range r.words {
		q := *(*unsafe.Pointer)(unsafe.Add(p, w.off))
		if sw := (sharedWord{w.off, q}); q != nil && !w.iface && !slices.Contains(sh, sw) && len(sh) < maxSharedWords {
			sh = append(slices.Clip(sh), sw)
			added = true
		}
	}
	if added {
		r.shared.Store(&sh)
	}
}

// stringOffsets appends the offsets (from base) of the strings a value of
// type t holds in its own memory; ok is false beyond maxContentStrings or
// too deep a nesting.
func stringOffsets(t reflect.Type, base uintptr, into []uintptr, depth int) ([]uintptr, bool) {
	if depth > 32 {
		return nil, false
	}
	switch t.Kind() {
	case reflect.String:
		if len(into) == maxContentStrings {
			return nil, false
		}
		return append(into, base), true
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			var ok bool
			if into, ok = stringOffsets(f.Type, base+f.Offset, into, depth+1); !ok {
				return nil, false
			}
		}
	case reflect.Array:
		// One element's offsets, repeated: an array without strings
		// costs one look however long it is.
		elem, ok := stringOffsets(t.Elem(), 0, nil, depth+1)
		if !ok {
			return nil, false
		}
		for i := 0; len(elem) > 0 && i < t.Len(); i++ {
			for _, off := range elem {
				if len(into) == maxContentStrings {
					return nil, false
				}
				into = append(into, base+uintptr(i)*t.Elem().Size()+off)
			}
		}
	}
	return into, true
}

// contentLen is the length of the content of the value at p.
func (r *roundTrips) contentLen(p unsafe.Pointer, size uintptr) int {
	l := int(size)
	for _, off := range r.strs {
		l += len(*(*string)(unsafe.Add(p, off)))
	}
	return l
}

// content writes the content of the value at p (size bytes, plain data)
// into buf: its memory with string addresses zeroed, then each string's
// bytes. Lengths are in the memory, so the bytes need no separator.
func (r *roundTrips) content(buf []byte, p unsafe.Pointer, size uintptr) []byte {
	buf = append(buf[:0], unsafe.Slice((*byte)(p), size)...)
	for _, off := range r.strs {
		clear(buf[off : off+unsafe.Sizeof(uintptr(0))]) // the string's address
		buf = append(buf, *(*string)(unsafe.Add(p, off))...)
	}
	return buf
}

// contentOf returns the content of src, a marshaller's value, when it can
// be remembered: not a pointer, addressable, plain data now, its content
// at most maxContentBytes.
func (c *Copier) contentOf(src reflect.Value, n *Node) ([]byte, bool) {
	if n.trips == nil || src.Kind() == reflect.Pointer || !src.CanAddr() {
		return nil, false
	}
	p, size := unsafe.Pointer(src.UnsafeAddr()), src.Type().Size()
	if !n.trips.keyable(n, p) || n.trips.contentLen(p, size) > maxContentBytes {
		return nil, false
	}
	c.key = n.trips.content(c.key, p, size)
	return c.key, true
}

// recall sets dst to what src's content decoded to before, if it was met.
func (c *Copier) recall(dst, src reflect.Value, n *Node) bool {
	if n.trips == nil {
		return false
	}
	done := n.trips.done.Load()
	if done == nil {
		return false
	}
	key, ok := c.contentOf(src, n)
	if !ok {
		return false
	}
	tr, ok := done.find(key)
	if ok {
		dst.Set(tr.v)
	}
	return ok
}

// remember keeps what src decoded to (dst), when the type has room and
// dst holds plain data or only what the type's methods share between
// calls (sharedTrip).
func (c *Copier) remember(dst, src reflect.Value, n *Node) {
	if _, ok := c.contentOf(src, n); !ok {
		return
	}
	pd, size := unsafe.Pointer(dst.UnsafeAddr()), dst.Type().Size()
	plain := n.plainNow(pd)
	if n.trips.contentLen(pd, size) > maxContentBytes || !plain && !sharedTrip(dst, src, n) {
		return
	}
	v := reflect.New(dst.Type()).Elem()
	v.Set(dst)
	same := string(n.trips.content(nil, pd, size)) == string(c.key)
	r := n.trips
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.done.Load()
	if old != nil {
		if _, met := old.find(c.key); met || old.len() >= maxRoundTrips {
			return // stored meanwhile, or full
		}
	}
	r.done.Store(old.add(string(c.key), trip{v, same}))
	if !plain {
		r.learn(pd)
	}
}

// sharedTrip reports whether dst, what src decoded to, holds nothing a
// round trip makes anew: a second round trip of src decodes to the same
// memory, pointers included (strings by their bytes). What it points to
// then is shared by every round trip of src, as a time's location is
// (a metav1.Time decodes to a time in the process' time.Local), and a
// copy made from memory is the round trip.
func sharedTrip(dst, src reflect.Value, n *Node) bool {
	j, err := DocJSON(src, n, false)
	if err != nil {
		return false
	}
	again := reflect.New(dst.Type()).Elem()
	if FromJSONValue(again, j, n, false, nil) != nil {
		return false
	}
	pd, pa, size := unsafe.Pointer(dst.UnsafeAddr()), unsafe.Pointer(again.UnsafeAddr()), dst.Type().Size()
	return n.trips.contentLen(pa, size) <= maxContentBytes &&
		string(n.trips.content(nil, pd, size)) == string(n.trips.content(nil, pa, size))
}
