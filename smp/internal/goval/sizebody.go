package goval

import "unsafe"

// structBody is the compiled measure of a struct type that is not flat:
// its units, with one for each list and map counted in place, and its
// members grouped by how they are counted. A list of such structs is
// measured by one call for all its elements.
type structBody struct {
	units  int
	work   int        // one visit, and one for each list in lists
	size   uintptr    // the struct's size: a list's elements are this far apart
	lens   []uintptr  // lists of scalars, by offset
	rows   []lenStep  // lists of flat structs
	maps   []uintptr  // maps of scalars, by offset
	flats  []flatStep // pointers to flat structs
	ptrs   []callStep // pointers to follow
	lists  []listStep // lists whose elements to measure
	checks []callStep // other members to measure
	calls  bool       // any ptrs, lists or checks
	// lengthsOnly: no maps, flats or calls, only lists counted by length.
	lengthsOnly bool
}

// lenStep is a list at off whose elements count per units each: one,
// and those of the flat struct it is.
type lenStep struct {
	off uintptr
	per int
}

// flatStep is a pointer at off to a flat struct of units.
type flatStep struct {
	off   uintptr
	units int
}

// callStep is a member at off (stepCheck) or a pointer at off to the
// value (stepPtr) that check measures.
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

// measure counts length structs of b from data, b.size bytes apart: each
// is one visit, all added to a.work at once. The total work, and so
// whether it reaches memoFrom, is the same as if each were added at its
// visit; a body with no calls visits nothing else, so it gives up before
// it reads any element.
func (b *structBody) measure(data unsafe.Pointer, length int, a sizeAcc, maxList int) sizeAcc {
	a.units += length * b.units
	if a.work += length * b.work; a.work >= memoFrom {
		return a
	}
	if b.lengthsOnly {
		return b.lengths(data, length, a, maxList)
	}
	for i := range length {
		p := unsafe.Add(data, uintptr(i)*b.size)
		for _, off := range b.lens {
			l := (*reflectSlice)(unsafe.Add(p, off)).len
			if l > maxList {
				return a.giveUp()
			}
			a.units += l
		}
		for j := range b.rows {
			l := (*reflectSlice)(unsafe.Add(p, b.rows[j].off)).len
			if l > maxList {
				return a.giveUp()
			}
			a.units += l * b.rows[j].per
		}
		for _, off := range b.maps {
			a.units += len(*(*map[unsafe.Pointer]struct{})(unsafe.Add(p, off)))
		}
		for _, s := range b.flats {
			if *(*unsafe.Pointer)(unsafe.Add(p, s.off)) != nil {
				a.units += s.units
			}
		}
		if b.calls {
			a = b.call(p, a, maxList)
		}
	}
	return a
}

// lengths is measure for a body whose members to count are all lists
// counted by their length: member by member, element by element.
func (b *structBody) lengths(data unsafe.Pointer, length int, a sizeAcc, maxList int) sizeAcc {
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

// call measures the members of the struct at p that take a call. Each
// list's own unit and visit are counted with the struct's (work).
func (b *structBody) call(p unsafe.Pointer, a sizeAcc, maxList int) sizeAcc {
	for _, s := range b.ptrs {
		if q := *(*unsafe.Pointer)(unsafe.Add(p, s.off)); q != nil {
			if a.work >= memoFrom {
				return a
			}
			a = s.check(q, a, maxList)
		}
	}
	lists := b.lists
	for i := range lists {
		s := &lists[i]
		if l := (*reflectSlice)(unsafe.Add(p, s.off)); l.len > 0 {
			if a.work >= memoFrom {
				return a
			}
			a = s.elems(l.data, l.len, a, maxList)
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
