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

// memStep is one step of a struct's comparison.
type memStep struct {
	kind memStepKind
	off  uintptr
	n    uintptr // bytes of a run; a slice's element size
	eq   memEq   // what a pointer or slice reaches; a call's comparison
	// plain says a slice's elements are plain memory.
	plain bool
}

type memStepKind uint8

const (
	stepWord memStepKind = iota // 8 bytes
	stepBytes
	stepString
	stepPointer
	stepSlice
	stepCall
)

// memEqStruct compares two structs by their program.
func memEqStruct(t reflect.Type) memEq {
	steps := mergeRuns(memSteps(t, 0, nil))
	if len(steps) == 1 && steps[0].off == 0 && steps[0].kind == stepCall {
		return steps[0].eq
	}
	return func(s *Scratch, a, b unsafe.Pointer, depth int) bool {
		return runSteps(steps, s, a, b, depth)
	}
}

// memSteps appends the steps of struct type t at offset base.
func memSteps(t reflect.Type, base uintptr, steps []memStep) []memStep {
	for i := range t.NumField() {
		sf := t.Field(i)
		ft, off := sf.Type, base+sf.Offset
		switch {
		case ft.Size() == 0:
		case plainMemory(ft):
			steps = append(steps, memStep{kind: stepBytes, off: off, n: ft.Size()})
		case ft.Kind() == reflect.String:
			steps = append(steps, memStep{kind: stepString, off: off})
		case ft.Kind() == reflect.Pointer:
			steps = append(steps, memStep{kind: stepPointer, off: off, eq: refMemEq(ft.Elem())})
		case ft.Kind() == reflect.Slice:
			steps = append(steps, memStep{kind: stepSlice, off: off, n: ft.Elem().Size(), eq: refMemEq(ft.Elem()), plain: plainMemory(ft.Elem())})
		case ft.Kind() == reflect.Struct:
			steps = memSteps(ft, off, steps)
		default:
			steps = append(steps, memStep{kind: stepCall, off: off, eq: refMemEq(ft)})
		}
	}
	return steps
}

// mergeRuns joins adjacent runs of bytes, and marks 8-byte runs as words.
func mergeRuns(steps []memStep) []memStep {
	out := steps[:0]
	for _, st := range steps {
		if k := len(out) - 1; st.kind == stepBytes && k >= 0 && out[k].kind == stepBytes && out[k].off+out[k].n == st.off {
			out[k].n += st.n
			continue
		}
		out = append(out, st)
	}
	for i := range out {
		if out[i].kind == stepBytes && out[i].n == 8 {
			out[i].kind = stepWord
		}
	}
	return out
}

// runSteps compares the structs at a and b. A negative depth (the
// comparison SameMemoryUpTo starts) records in s.failAt the offset of the
// step that finds them different.
func runSteps(steps []memStep, s *Scratch, a, b unsafe.Pointer, depth int) bool {
	record := depth < 0
	if record {
		depth = 0
	}
	for i := range steps {
		st := &steps[i]
		pa, pb := unsafe.Add(a, st.off), unsafe.Add(b, st.off)
		var eq bool
		switch st.kind {
		case stepWord:
			eq = *(*uint64)(pa) == *(*uint64)(pb)
		case stepBytes:
			eq = unsafe.String((*byte)(pa), st.n) == unsafe.String((*byte)(pb), st.n)
		case stepString:
			// One string's two copies share their bytes: no call.
			sa, sb := (*reflectString)(pa), (*reflectString)(pb)
			eq = sa.len == sb.len && (sa.data == sb.data || *(*string)(pa) == *(*string)(pb))
		case stepPointer:
			qa, qb, settled, same := pointerWords(pa, pb, depth)
			eq = settled && same || !settled && st.eq(s, qa, qb, depth+1)
		case stepSlice:
			sa, sb := (*reflectSlice)(pa), (*reflectSlice)(pb)
			if eq = sa.len == sb.len && (sa.data == nil) == (sb.data == nil); eq && sa.len != 0 && sa.data != sb.data {
				eq = sliceEq(s, sa, sb, st, depth)
			}
		default:
			eq = st.eq(s, pa, pb, depth)
		}
		if !eq {
			if record {
				s.failAt = st.off
			}
			return false
		}
	}
	return true
}

// reflectString is a string's header.
type reflectString struct {
	data unsafe.Pointer
	len  int
}

// sliceEq compares two slices by a slice step: element by element, or
// as one run of bytes when the elements are plain.
func sliceEq(s *Scratch, sa, sb *reflectSlice, st *memStep, depth int) bool {
	elem, size := st.eq, st.n
	if sa.len != sb.len || (sa.data == nil) != (sb.data == nil) {
		return false
	}
	if sa.data == sb.data || sa.len == 0 {
		return true
	}
	if st.plain {
		n := uintptr(sa.len) * size
		return unsafe.String((*byte)(sa.data), n) == unsafe.String((*byte)(sb.data), n)
	}
	if depth > maxDepth {
		return false
	}
	for i := range sa.len {
		off := uintptr(i) * size
		if !elem(s, unsafe.Add(sa.data, off), unsafe.Add(sb.data, off), depth+1) {
			return false
		}
	}
	return true
}
