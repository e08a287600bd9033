package goval

import (
	"reflect"
	"unsafe"
)

// A struct is compared by a program: one step per field, the fields of
// nested structs (held by value) inlined at their offsets, and adjacent
// plain memory merged into one run of bytes. Strings, pointers and slice
// headers are compared in the loop; only what a pointer or slice reaches,
// maps and interfaces call another type's comparison.
//
// Memory equal word for word needs no step: the same string, pointer,
// slice or map is the same value. So steps that can be settled that way
// are grouped under a scan, which compares their words and runs only
// the steps whose words differ (padding that differs only costs a step).
// Where the word that differs is the data pointer of a string, or of a
// slice whose elements equal memory settles (documents built apart share
// no memory), the bytes it points to are compared first, without the
// step.

// memStep is one step of a struct's comparison.
type memStep struct {
	kind memStepKind
	// plain says a slice's elements are plain memory; words, that equal
	// memory settles the step, or a slice's elements (settledByWords).
	plain, words bool
	off, end     uintptr // the bytes compared; of a scan, its words
	n            uintptr // a slice's element size; of a scan, the index past its steps
	eq           memEq   // what a pointer or slice reaches; a call's comparison
	// prog is the program of the struct a pointer or slice reaches, run
	// without a call through eq.
	prog *memProg
}

type memStepKind uint8

const (
	stepWord memStepKind = iota // 8 bytes
	stepBytes
	stepString
	stepPointer
	stepSlice
	stepCall
	stepScan // the steps up to n, by their words first
)

// memProg is a struct type's program.
type memProg struct {
	steps []memStep
	// first holds, for each word of the struct, the index of the first
	// step that ends past the word's start (when the program scans).
	first []uint16
	// quick holds, for each word of the struct that starts a string or
	// a slice whose equal memory settles its elements (in a scan), the
	// size of an element (1 for a string's bytes) shifted left by one,
	// and 1 for a slice: when only that word differs, a comparison of
	// the bytes they point to settles it without the step (quickEq).
	quick []uint32
}

// memEqStruct compares two structs by their program.
func memEqStruct(t reflect.Type) memEq {
	p := progOf(t)
	if steps := p.steps; len(steps) == 1 && steps[0].off == 0 && steps[0].kind == stepCall {
		return steps[0].eq
	}
	return func(s *Scratch, a, b unsafe.Pointer, depth int) bool {
		return runSteps(p, s, a, b, depth)
	}
}

// progOf returns struct type t's program, building it under memEqMu. A
// program being built is returned as it is: complete before it runs.
func progOf(t reflect.Type) *memProg {
	if p, ok := progs[t]; ok {
		return p
	}
	p := &memProg{}
	progs[t] = p
	steps := mergeRuns(memSteps(t, 0, make([]memStep, 0, t.NumField())))
	if t.Align() == 8 && len(steps) < 1<<15 { // scans at most double the steps
		steps = scans(steps)
		p.first = make([]uint16, t.Size()/8)
		j := 0
		for k := range p.first {
			for j < len(steps) && (steps[j].kind == stepScan || steps[j].end <= uintptr(k)*8) {
				j++
			}
			p.first[k] = uint16(j)
		}
		p.quick = quickWords(steps, t.Size())
	}
	p.steps = steps
	return p
}

// structProg is the program of t when it is a struct, else nil.
func structProg(t reflect.Type) *memProg {
	if t.Kind() != reflect.Struct || plainMemory(t) {
		return nil
	}
	return progOf(t)
}

// memSteps appends the steps of struct type t at offset base.
func memSteps(t reflect.Type, base uintptr, steps []memStep) []memStep {
	for i := range t.NumField() {
		sf := t.Field(i)
		ft, off := sf.Type, base+sf.Offset
		end := off + ft.Size()
		switch {
		case ft.Size() == 0:
		case plainMemory(ft):
			steps = append(steps, memStep{kind: stepBytes, off: off, end: end})
		case ft.Kind() == reflect.String:
			steps = append(steps, memStep{kind: stepString, off: off, end: end})
		case ft.Kind() == reflect.Pointer:
			steps = append(steps, memStep{kind: stepPointer, off: off, end: end, eq: refMemEq(ft.Elem()), prog: structProg(ft.Elem())})
		case ft.Kind() == reflect.Slice:
			steps = append(steps, sliceStep(ft, off))
		case ft.Kind() == reflect.Struct:
			steps = memSteps(ft, off, steps)
		default:
			steps = append(steps, memStep{kind: stepCall, off: off, end: end, eq: refMemEq(ft), words: settledByWords(ft)})
		}
	}
	return steps
}

// sliceStep is the step of a slice of type t at offset off.
func sliceStep(t reflect.Type, off uintptr) memStep {
	e := t.Elem()
	return memStep{kind: stepSlice, off: off, end: off + t.Size(), n: e.Size(), eq: refMemEq(e),
		plain: plainMemory(e), words: settledByWords(e), prog: structProg(e)}
}

// mergeRuns joins adjacent runs of bytes, and marks 8-byte runs as words.
func mergeRuns(steps []memStep) []memStep {
	out := steps[:0]
	for _, st := range steps {
		if k := len(out) - 1; st.kind == stepBytes && k >= 0 && out[k].kind == stepBytes && out[k].end == st.off {
			out[k].end = st.end
			continue
		}
		out = append(out, st)
	}
	for i := range out {
		if out[i].kind == stepBytes && out[i].end-out[i].off == 8 {
			out[i].kind = stepWord
		}
	}
	return out
}

// scans puts each run of two or more steps that equal words settle
// under a scan of their words. The struct must be 8-byte aligned, so
// that every word the steps touch is in it.
func scans(steps []memStep) []memStep {
	n := len(steps) + 1 // a scan at most before each step no scan settles, and one at the end
	for i := range steps {
		if steps[i].kind == stepCall && !steps[i].words {
			n++
		}
	}
	out := make([]memStep, 0, n)
	for i := 0; i < len(steps); {
		j := i
		for j < len(steps) && (steps[j].kind != stepCall || steps[j].words) {
			j++
		}
		if j-i < 2 {
			out = append(out, steps[i])
			i++
			continue
		}
		out = append(out, memStep{kind: stepScan, off: steps[i].off &^ 7, end: (steps[j-1].end + 7) &^ 7,
			n: uintptr(len(out) + 1 + j - i)})
		out = append(out, steps[i:j]...)
		i = j
	}
	return out
}

// settledByWords reports whether two values of t are equal when their
// memory is: all but an interface's (its value may be a NaN, unequal to
// itself), also inside an array or struct.
func settledByWords(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return false
	case reflect.Array:
		return settledByWords(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !settledByWords(t.Field(i).Type) {
				return false
			}
		}
	}
	return true
}

// runSteps compares the structs at a and b. A negative depth (the
// comparison SameMemoryUpTo starts) records in s.failAt the offset of the
// step that finds them different.
func runSteps(p *memProg, s *Scratch, a, b unsafe.Pointer, depth int) bool {
	steps := p.steps
	record := depth < 0
	if record {
		depth = 0
	}
	for i := 0; i < len(steps); {
		st := &steps[i]
		if st.kind != stepScan {
			if !stepEq(st, s, a, b, depth) {
				return failed(s, st, record)
			}
			i++
			continue
		}
		// Skip the words that are equal; run the steps that touch the
		// first word that is not, and scan on from the next step.
		j, end := i+1, int(st.n)
		w, last := st.off, st.end
		for {
			// The next step's first word is often the one that differs.
			if w < last && *(*uint64)(unsafe.Add(a, w)) == *(*uint64)(unsafe.Add(b, w)) {
				w = equalWords(a, b, w+8, last)
			}
			if w == last {
				break
			}
			if q := p.quick[w/8]; q != 0 && quickEq(a, b, w, q) {
				w += 16 + 8*uintptr(q&1)
				continue
			}
			j = max(j, int(p.first[w/8]))
			for ; j < end && steps[j].off < w+8; j++ {
				if !stepEq(&steps[j], s, a, b, depth) {
					return failed(s, &steps[j], record)
				}
			}
			if j == end {
				break
			}
			w = steps[j].off &^ 7
		}
		i = end
	}
	return true
}

// quickWords is memProg.quick of a scanning program's steps, of a
// struct of size bytes.
func quickWords(steps []memStep, size uintptr) []uint32 {
	quick := make([]uint32, size/8)
	scanned := 0 // steps up to this index are under a scan
	for i, st := range steps {
		switch {
		case st.kind == stepScan:
			scanned = int(st.n)
		case i >= scanned:
		case st.kind == stepString:
			quick[st.off/8] = 1 << 1
		case st.kind == stepSlice && st.words && st.n < 1<<30:
			quick[st.off/8] = uint32(st.n)<<1 | 1
		}
	}
	return quick
}

// quickEq reports whether the string or slice (quick word q) at offset w
// of a and b, whose first words (data pointers) differ, are equal by the
// bytes they point to: then their step need not run. False is not an
// answer: the step runs.
func quickEq(a, b unsafe.Pointer, w uintptr, q uint32) bool {
	pa, pb := unsafe.Add(a, w), unsafe.Add(b, w)
	n := *(*int)(unsafe.Add(pa, 8))
	if n != *(*int)(unsafe.Add(pb, 8)) || *(*unsafe.Pointer)(pa) == nil || *(*unsafe.Pointer)(pb) == nil {
		return false
	}
	size := uintptr(n) * uintptr(q>>1)
	return unsafe.String(*(**byte)(pa), size) == unsafe.String(*(**byte)(pb), size)
}

// equalWords returns the offset of the first word from w up to last at
// which a and b differ, or last.
func equalWords(a, b unsafe.Pointer, w, last uintptr) uintptr {
	for ; w+32 <= last; w += 32 {
		pa, pb := unsafe.Add(a, w), unsafe.Add(b, w)
		if (*(*uint64)(pa)^*(*uint64)(pb))|(*(*uint64)(unsafe.Add(pa, 8))^*(*uint64)(unsafe.Add(pb, 8)))|
			(*(*uint64)(unsafe.Add(pa, 16))^*(*uint64)(unsafe.Add(pb, 16)))|(*(*uint64)(unsafe.Add(pa, 24))^*(*uint64)(unsafe.Add(pb, 24))) != 0 {
			break
		}
	}
	for w < last && *(*uint64)(unsafe.Add(a, w)) == *(*uint64)(unsafe.Add(b, w)) {
		w += 8
	}
	return w
}

// failed records, when asked to, where a comparison failed.
func failed(s *Scratch, st *memStep, record bool) bool {
	if record {
		s.failAt = st.off
	}
	return false
}

// stepEq runs one step on the structs at a and b.
func stepEq(st *memStep, s *Scratch, a, b unsafe.Pointer, depth int) bool {
	pa, pb := unsafe.Add(a, st.off), unsafe.Add(b, st.off)
	switch st.kind {
	case stepWord:
		return *(*uint64)(pa) == *(*uint64)(pb)
	case stepBytes:
		n := st.end - st.off
		return unsafe.String((*byte)(pa), n) == unsafe.String((*byte)(pb), n)
	case stepString:
		// One string's two copies share their bytes: no call.
		sa, sb := (*reflectString)(pa), (*reflectString)(pb)
		return sa.len == sb.len && (sa.data == sb.data || *(*string)(pa) == *(*string)(pb))
	case stepPointer:
		qa, qb, settled, same := pointerWords(pa, pb, depth)
		if settled {
			return same
		}
		if st.prog != nil {
			return runSteps(st.prog, s, qa, qb, depth+1)
		}
		return st.eq(s, qa, qb, depth+1)
	case stepSlice:
		// As one run of bytes first when equal memory settles the
		// elements (which settles plain elements either way), then
		// element by element.
		sa, sb := (*reflectSlice)(pa), (*reflectSlice)(pb)
		if sa.len != sb.len || (sa.data == nil) != (sb.data == nil) {
			return false
		}
		if sa.data == sb.data || sa.len == 0 {
			return true
		}
		if n := uintptr(sa.len) * st.n; st.words && unsafe.String((*byte)(sa.data), n) == unsafe.String((*byte)(sb.data), n) {
			return true
		}
		return !st.plain && elemsEq(s, sa, sb, st, depth)
	}
	return st.eq(s, pa, pb, depth)
}

// reflectString is a string's header.
type reflectString struct {
	data unsafe.Pointer
	len  int
}

// elemsEq compares two slices of one length, by a slice step, element
// by element.
func elemsEq(s *Scratch, sa, sb *reflectSlice, st *memStep, depth int) bool {
	elem, size := st.eq, st.n
	if depth > maxDepth {
		return false
	}
	if p := st.prog; p != nil {
		for i := range sa.len {
			off := uintptr(i) * size
			if !runSteps(p, s, unsafe.Add(sa.data, off), unsafe.Add(sb.data, off), depth+1) {
				return false
			}
		}
		return true
	}
	for i := range sa.len {
		off := uintptr(i) * size
		if !elem(s, unsafe.Add(sa.data, off), unsafe.Add(sb.data, off), depth+1) {
			return false
		}
	}
	return true
}
