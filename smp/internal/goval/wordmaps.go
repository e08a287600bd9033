package goval

import (
	"reflect"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// The walk of an exact copy reads a map keyed by a string kind without
// reflect when its values are whole words: the runtime lays out a map's
// entries by the sizes and alignments of its key and value types alone,
// so such a map[K]V reads as a map[string][n]uintptr. It is only read
// so: a value's pointers are copied as words, never written through the
// map's false type, and the map, reachable from the value walked all
// along, keeps what they point to alive. A value that needs a change
// stops the reading; the map is then fixed through reflect.

// maxWordValue bounds the words of a value read so: larger values are
// stored apart from their entries, behind a pointer.
const maxWordValue = 16

// wordRange fixes a copy of each value of the map at m, whose keys it
// checks are valid UTF-8, with elem's plan, in the walk's frozen mode.
type wordRange func(w *exactWalk, elem *exactPlan, m unsafe.Pointer) bool

var wordRanges = [maxWordValue + 1]wordRange{nil,
	rangeWords[[1]uintptr], rangeWords[[2]uintptr], rangeWords[[3]uintptr], rangeWords[[4]uintptr],
	rangeWords[[5]uintptr], rangeWords[[6]uintptr], rangeWords[[7]uintptr], rangeWords[[8]uintptr],
	rangeWords[[9]uintptr], rangeWords[[10]uintptr], rangeWords[[11]uintptr], rangeWords[[12]uintptr],
	rangeWords[[13]uintptr], rangeWords[[14]uintptr], rangeWords[[15]uintptr], rangeWords[[16]uintptr],
}

// wordRangeOf returns how maps of type t are read without reflect; nil
// when they are not.
func wordRangeOf(t reflect.Type) wordRange {
	if t.Kind() != reflect.Map || t.Key().Kind() != reflect.String || !wordMapsRead() {
		return nil
	}
	return wordRanges[wordsOf(t.Elem())]
}

// wordsOf is the number of words a value of type t is, 0 when it is not
// whole words or more than maxWordValue of them.
func wordsOf(t reflect.Type) int {
	const word = unsafe.Sizeof(uintptr(0))
	if uintptr(t.Align()) != word || t.Size()%word != 0 || t.Size() > maxWordValue*word {
		return 0
	}
	return int(t.Size() / word)
}

// maxWordDepth bounds the maps read without reflect one inside another's
// value; deeper ones are read through reflect.
const maxWordDepth = 4

// rangeWords reads a map as a map[string]V, V an array of words.
func rangeWords[V any](w *exactWalk, elem *exactPlan, m unsafe.Pointer) bool {
	d := w.depth
	if d == maxWordDepth {
		w.blocked = true
		return false
	}
	w.depth++
	buf := unsafe.Pointer(&w.vals[d])
	ok := true
	for k, v := range *(*map[string]V)(m) {
		if asciiHigh(k)&highBits != 0 && !utf8.ValidString(k) {
			ok = false
			break
		}
		switch elem.kind {
		case exactAlways:
			continue
		case exactTrip:
			*(*V)(buf) = v
			ok = w.fixTrip(elem, buf)
		default:
			*(*V)(buf) = v
			ok = elem.fix(w, buf)
		}
		if !ok {
			break
		}
	}
	var zero V
	*(*V)(buf) = zero // the walk keeps no word of the value
	w.depth--
	return ok
}

// wordMapsRead reports whether maps read as maps of words give the
// entries reflect gives, checked once on maps of three value sizes.
var wordMapsRead = sync.OnceValue(func() bool {
	type two struct {
		S string
	}
	type three struct {
		P *int
		S string
	}
	type seven struct {
		A    int64
		B    int32
		P    *int
		S, T string
	}
	x := 7
	return sameWordRead[two, [2]uintptr](map[string]two{"a": {"x"}, "b": {"yy"}}) &&
		sameWordRead[three, [3]uintptr](map[string]three{"a": {&x, "x"}, "b": {nil, "yy"}, "c": {&x, ""}}) &&
		sameWordRead[seven, [7]uintptr](map[string]seven{"a": {1, 2, &x, "s", "t"}, "b": {-1, -2, nil, "", "tt"}})
})

// sameWordRead reports whether m, read as a map[string]W, holds the
// entries it holds.
func sameWordRead[V, W any](m map[string]V) bool {
	if unsafe.Sizeof(*new(V)) != unsafe.Sizeof(*new(W)) || wordsOf(reflect.TypeFor[V]()) == 0 {
		return false
	}
	seen := 0
	for k, w := range *(*map[string]W)(unsafe.Pointer(&m)) {
		v, ok := m[k]
		if !ok || !reflect.DeepEqual(*(*V)(unsafe.Pointer(&w)), v) {
			return false
		}
		seen++
	}
	return seen == len(m)
}
