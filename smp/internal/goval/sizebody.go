package goval

import "unsafe"

// structBody is the compiled measure of a struct type that is not flat:
// its units, with one for each list and map counted in place, and its
// members grouped by how they are counted. A list of such structs is
// measured by one call for all its elements.
type structBody struct {
	units int
	work  int     // one visit, and one for each list whose elements to measure
	size  uintptr // the struct's size: a list's elements are this far apart
	// lengthsOnly: the members to count are all lists counted by their
	// length, lists of scalars (lens) and of flat structs (rows).
	lengthsOnly bool
	lens        []uintptr
	rows        []lenStep
	counts      []bodyStep // other bodies' members to count: stepLen, stepMap, stepFlat
	calls       []bodyStep // and to measure when set: stepPtr, stepList
	checks      []callStep // members to measure whatever they hold
}

// bodyStep is a member that counts nothing when the word at off is zero:
// a list's length (stepLen: n units for each element, one and a flat
// struct's; stepList: elements to measure by list), a map (stepMap), a
// pointer to a flat struct of n units (stepFlat) or to a value that
// check measures (stepPtr).
type bodyStep struct {
	off   uintptr
	kind  uint8
	n     int
	check sizeCheck
	list  *listStep
}

// lenStep is a list at off whose elements count per units each: one,
// and those of the flat struct it is.
type lenStep struct {
	off uintptr
	per int
}

// newBody is the body of a struct of units and steps (structSteps).
func newBody(units int, size uintptr, steps []sizeStep) *structBody {
	b := &structBody{units: units, work: 1, size: size, lengthsOnly: true}
	for _, s := range steps {
		if s.kind != stepLen {
			b.lengthsOnly = false
		}
	}
	for _, s := range steps {
		switch {
		case s.kind == stepCheck:
			b.checks = append(b.checks, callStep{off: s.off, check: s.check})
			continue
		case s.kind != stepFlat && s.kind != stepPtr:
			b.units++ // a list's or a map's own unit
		}
		switch {
		case s.kind == stepLen && b.lengthsOnly && s.units == 0:
			b.lens = append(b.lens, s.off)
		case s.kind == stepLen && b.lengthsOnly:
			b.rows = append(b.rows, lenStep{off: s.off, per: 1 + s.units})
		case s.kind == stepLen:
			b.counts = append(b.counts, bodyStep{off: s.off + sliceLen, kind: stepLen, n: 1 + s.units})
		case s.kind == stepList:
			b.work++ // the list's visit
			l := s.list
			b.calls = append(b.calls, bodyStep{off: s.off + sliceLen, kind: stepList, list: &l})
		case s.kind == stepPtr:
			b.calls = append(b.calls, bodyStep{off: s.off, kind: stepPtr, check: s.check})
		default:
			b.counts = append(b.counts, bodyStep{off: s.off, kind: s.kind, n: s.units})
		}
	}
	return b
}

// callStep is a member at off that check measures.
type callStep struct {
	off   uintptr
	check sizeCheck
}

// listStep measures a slice at off, or an array, of elements of size
// bytes: those of body, or else each measured by check (nil: scalars).
type listStep struct {
	off, size uintptr
	body      *structBody
	check     sizeCheck
}

// one measures the struct at p.
func (b *structBody) one(p unsafe.Pointer, a sizeAcc, maxList int) sizeAcc {
	return b.measure(p, 1, a, maxList)
}

// measure counts length structs of b from data, b.size bytes apart. The
// visits of all of them (each b.work) are added to a.work at once: the
// total, and so whether it reaches memoFrom, is what it would be if each
// were added as it is made, and a list too long for what is left gives
// up before it reads any element.
func (b *structBody) measure(data unsafe.Pointer, length int, a sizeAcc, maxList int) sizeAcc {
	a.units += length * b.units
	if a.work += length * b.work; a.work >= memoFrom {
		return a
	}
	if !b.lengthsOnly {
		for i := range length {
			a = b.element(unsafe.Add(data, uintptr(i)*b.size), a, maxList)
		}
		return a
	}
	// Member by member, element by element.
	size := b.size
	end := uintptr(length) * size
	for _, off := range b.lens {
		for at := off; at < end; at += size {
			l := (*reflectSlice)(unsafe.Add(data, at)).len
			if l > maxList {
				return a.giveUp()
			}
			a.units += l
		}
	}
	for _, s := range b.rows {
		for at := s.off; at < end; at += size {
			l := (*reflectSlice)(unsafe.Add(data, at)).len
			if l > maxList {
				return a.giveUp()
			}
			a.units += l * s.per
		}
	}
	return a
}

// element counts and measures the members of the struct at p.
func (b *structBody) element(p unsafe.Pointer, a sizeAcc, maxList int) sizeAcc {
	units, counts := a.units, b.counts
	for j := range counts {
		s := &counts[j]
		w := *(*int)(unsafe.Add(p, s.off))
		switch {
		case w == 0:
		case s.kind == stepLen:
			if w > maxList {
				return a.giveUp()
			}
			units += w * s.n
		case s.kind == stepMap:
			units += len(*(*map[unsafe.Pointer]struct{})(unsafe.Add(p, s.off)))
		default:
			units += s.n
		}
	}
	a.units = units
	calls := b.calls
	for j := range calls {
		s := &calls[j]
		w := *(*int)(unsafe.Add(p, s.off))
		if w == 0 {
			continue
		}
		if a.work >= memoFrom {
			return a
		}
		if s.kind == stepPtr {
			a = s.check(*(*unsafe.Pointer)(unsafe.Add(p, s.off)), a, maxList)
		} else {
			a = s.list.elems((*reflectSlice)(unsafe.Add(p, s.off-sliceLen)).data, w, a, maxList)
		}
	}
	for _, s := range b.checks {
		if a.work >= memoFrom {
			return a
		}
		a = s.check(unsafe.Add(p, s.off), a, maxList)
	}
	return a
}

// sliceLen is the offset of a slice's length in its header.
const sliceLen = unsafe.Offsetof(reflectSlice{}.len)

// measure counts a list of length elements from data and measures them.
func (s *listStep) measure(data unsafe.Pointer, length int, a sizeAcc, maxList int) sizeAcc {
	a.units++
	a.work++
	return s.elems(data, length, a, maxList)
}

// elems counts the elements of a list and measures them.
func (s *listStep) elems(data unsafe.Pointer, length int, a sizeAcc, maxList int) sizeAcc {
	if length > maxList {
		return a.giveUp()
	}
	a.units += length
	switch {
	case s.body != nil:
		return s.body.measure(data, length, a, maxList)
	case s.check == nil:
		return a
	}
	for i := range length {
		if a.work >= memoFrom {
			return a
		}
		a = s.check(unsafe.Add(data, uintptr(i)*s.size), a, maxList)
	}
	return a
}
