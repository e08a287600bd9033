package goval

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/smallmap"
)

// Two values that are equal in memory, deeply, encode to the same JSON
// and yield an empty diff, so the differ skips them after one comparison:
// a function compiled per Go type that reads memory directly.
// It answers false when unsure (functions, channels, nesting too deep),
// which only costs the full comparison.

// memEq compares the values of one type at a and b.
type memEq func(s *Scratch, a, b unsafe.Pointer, depth int) bool

var (
	memEqs   sync.Map // reflect.Type -> *memEqEntry, published when built
	memEqMu  sync.Mutex
	building = map[reflect.Type]*memEqEntry{} // under memEqMu
	progs    = map[reflect.Type]*memProg{}    // under memEqMu
	maxDepth = 64
)

type memEqEntry struct{ fn memEq }

// memEqOf returns the comparison for type t.
func memEqOf(t reflect.Type) memEq {
	if e, ok := memEqs.Load(t); ok {
		return e.(*memEqEntry).fn
	}
	memEqMu.Lock()
	defer memEqMu.Unlock()
	fn := refMemEq(t)
	for bt, e := range building {
		memEqs.Store(bt, e) // every function built is complete now
		delete(building, bt)
	}
	return fn
}

// refMemEq returns the comparison for t, building it under memEqMu. A
// type being built is referred to through its entry, so recursive types
// terminate.
func refMemEq(t reflect.Type) memEq {
	if e, ok := memEqs.Load(t); ok {
		return e.(*memEqEntry).fn
	}
	if e, ok := building[t]; ok {
		return func(s *Scratch, a, b unsafe.Pointer, depth int) bool { return e.fn(s, a, b, depth) }
	}
	entry := &memEqEntry{}
	building[t] = entry
	entry.fn = compileMemEq(t)
	return entry.fn
}

func compileMemEq(t reflect.Type) memEq {
	if plainMemory(t) {
		return memEqBytes(t.Size())
	}
	switch t.Kind() {
	case reflect.String:
		return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool { return *(*string)(a) == *(*string)(b) }
	case reflect.Pointer:
		return memEqPointer(t)
	case reflect.Slice:
		return memEqSlice(t)
	case reflect.Array:
		return memEqArray(t)
	case reflect.Struct:
		return memEqStruct(t)
	case reflect.Map:
		return memEqMap(t)
	case reflect.Interface:
		return memEqInterface(t)
	}
	return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool {
		return *(*unsafe.Pointer)(a) == *(*unsafe.Pointer)(b) // func, chan, unsafe.Pointer
	}
}

// pointerWords reads the pointer words at a and b (pointers, maps) and
// says whether their comparison is settled without looking further, and
// how: the same pointer is equal; a nil one, or one past maxDepth, is not.
func pointerWords(a, b unsafe.Pointer, depth int) (pa, pb unsafe.Pointer, settled, eq bool) {
	pa, pb = *(*unsafe.Pointer)(a), *(*unsafe.Pointer)(b)
	if pa == pb {
		return pa, pb, true, true
	}
	if pa == nil || pb == nil || depth > maxDepth {
		return pa, pb, true, false
	}
	return pa, pb, false, false
}

// memEqPointer compares what two pointers point at.
func memEqPointer(t reflect.Type) memEq {
	elem := refMemEq(t.Elem())
	return func(s *Scratch, a, b unsafe.Pointer, depth int) bool {
		pa, pb, settled, eq := pointerWords(a, b, depth)
		if settled {
			return eq
		}
		return elem(s, pa, pb, depth+1)
	}
}

// memEqSlice compares two slices element by element.
func memEqSlice(t reflect.Type) memEq {
	st := new(sliceStep(t, 0))
	return func(s *Scratch, a, b unsafe.Pointer, depth int) bool {
		return stepEq(st, s, a, b, depth)
	}
}

// memEqArray compares two arrays element by element.
func memEqArray(t reflect.Type) memEq {
	elem, size, n := refMemEq(t.Elem()), t.Elem().Size(), t.Len()
	return func(s *Scratch, a, b unsafe.Pointer, depth int) bool {
		depth = max(depth, 0) // elements record nothing (runSteps)
		for i := range n {
			off := uintptr(i) * size
			if !elem(s, unsafe.Add(a, off), unsafe.Add(b, off), depth) {
				return false
			}
		}
		return true
	}
}

// plainMemory reports a type whose values are equal exactly when their
// bytes are: booleans and numbers (floats by their bits, so -0 and 0
// differ, as in JSON), and arrays and structs of them without padding.
func plainMemory(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return plainMemory(t.Elem())
	case reflect.Struct:
		var size uintptr
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Offset != size || !plainMemory(f.Type) {
				return false
			}
			size += f.Type.Size()
		}
		return size == t.Size()
	}
	return false
}

// memEqBytes compares n bytes of plain memory.
func memEqBytes(n uintptr) memEq {
	switch n {
	case 1:
		return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool { return *(*uint8)(a) == *(*uint8)(b) }
	case 2:
		return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool { return *(*uint16)(a) == *(*uint16)(b) }
	case 4:
		return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool { return *(*uint32)(a) == *(*uint32)(b) }
	case 8:
		return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool { return *(*uint64)(a) == *(*uint64)(b) }
	case 16:
		return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool { return *(*[2]uint64)(a) == *(*[2]uint64)(b) }
	}
	return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool {
		return unsafe.String((*byte)(a), n) == unsafe.String((*byte)(b), n)
	}
}

// memEqMap compares two maps: map[string]string directly, others through a map view or reflect.
func memEqMap(t reflect.Type) memEq {
	if t.ConvertibleTo(mapSSType) {
		inPlace := smallmap.Readable()
		return func(_ *Scratch, a, b unsafe.Pointer, _ int) bool {
			ma, mb := *(*map[string]string)(a), *(*map[string]string)(b)
			if (ma == nil) != (mb == nil) || len(ma) != len(mb) {
				return false
			}
			if len(ma) == 0 {
				return true
			}
			if inPlace {
				if ga, gb, ok := smallmap.Pair(a, b, 16); ok {
					return smallStringsEq(ga, gb)
				}
			}
			for k, va := range ma {
				if vb, ok := mb[k]; !ok || va != vb {
					return false
				}
			}
			return true
		}
	}
	if v := mapViewFor(t); v != nil {
		e := &viewElem{eq: refMemEq(t.Elem()), size: t.Elem().Size(), words: settledByWords(t.Elem()), inPlace: smallmap.Readable()}
		return func(s *Scratch, a, b unsafe.Pointer, depth int) bool {
			if _, _, settled, eq := pointerWords(a, b, depth); settled {
				return eq
			}
			if e.inPlace {
				if ga, gb, ok := smallmap.Pair(a, b, e.size); ok {
					return smallMapsEq(s, ga, gb, e, depth)
				}
			}
			return v.eq(s, a, b, e, depth)
		}
	}
	mt := &memMapType{
		elem:   refMemEq(t.Elem()),
		keyArr: reflect.ArrayOf(SmallMap, t.Key()),
		valArr: reflect.ArrayOf(SmallMap, t.Elem()),
		size:   t.Elem().Size(),
	}
	return func(s *Scratch, a, b unsafe.Pointer, depth int) bool {
		if _, _, settled, eq := pointerWords(a, b, depth); settled {
			return eq
		}
		return s.memEqMaps(reflect.NewAt(t, a).Elem(), reflect.NewAt(t, b).Elem(), mt, depth)
	}
}

// memEqInterface compares two interface values through DeepEqualGo.
func memEqInterface(t reflect.Type) memEq {
	return func(s *Scratch, a, b unsafe.Pointer, depth int) bool {
		va, vb := reflect.NewAt(t, a).Elem(), reflect.NewAt(t, b).Elem()
		if va.IsNil() || vb.IsNil() {
			return va.IsNil() == vb.IsNil()
		}
		return depth <= maxDepth && DeepEqualGo(va.Elem(), vb.Elem(), depth)
	}
}

// memMapType is what comparing maps of one type needs.
type memMapType struct {
	elem           memEq
	keyArr, valArr reflect.Type // [SmallMap]K, [SmallMap]V
	size           uintptr      // of V
}

// memEqMaps compares two non-nil maps of one type entry by entry.
func (s *Scratch) memEqMaps(a, b reflect.Value, mt *memMapType, depth int) bool {
	if a.Len() != b.Len() {
		return false
	}
	if a.Len() > SmallMap {
		return DeepEqualGo(a, b, depth)
	}
	t := a.Type()
	key, va := s.Take(t.Key()), s.Take(t.Elem())
	keys, vals := s.Take(mt.keyArr), s.Take(mt.valArr)
	defer func() { s.Give(key); s.Give(va); s.Give(keys); s.Give(vals) }()
	e := MapEntries{Keys: keys, Vals: vals}
	var it reflect.MapIter
	it.Reset(b)
	for it.Next() {
		e.Keys.Index(e.Len).SetIterKey(&it)
		e.Vals.Index(e.Len).SetIterValue(&it)
		e.Len++
	}
	pa, pv := unsafe.Pointer(va.UnsafeAddr()), unsafe.Pointer(vals.UnsafeAddr())
	it.Reset(a)
	for it.Next() {
		key.SetIterKey(&it)
		va.SetIterValue(&it)
		j := e.Find(key)
		if j < 0 || !mt.elem(s, pa, unsafe.Add(pv, uintptr(j)*mt.size), depth+1) {
			return false
		}
	}
	return true
}

// SameMemory reports whether two values of node n (not pointers) are
// deeply equal in memory. Both must be addressable; it answers false
// otherwise.
func (s *Scratch) SameMemory(a, b reflect.Value, n *Node) bool {
	if !a.CanAddr() || !b.CanAddr() || a.Type() != n.GoType {
		return false
	}
	pa, pb := unsafe.Pointer(a.UnsafeAddr()), unsafe.Pointer(b.UnsafeAddr())
	if pa == pb {
		return true
	}
	return n.memEq(s, pa, pb, 0)
}

// SameMemoryUpTo is SameMemory for two structs of node n that also says,
// when they differ, where: their memory is equal below offset upTo, so
// that a field ending there is equal (upTo 0 when not known).
func (s *Scratch) SameMemoryUpTo(a, b reflect.Value, n *Node) (same bool, upTo uintptr) {
	if !a.CanAddr() || !b.CanAddr() || a.Type() != n.GoType {
		return false, 0
	}
	return s.SameMemoryAt(unsafe.Pointer(a.UnsafeAddr()), unsafe.Pointer(b.UnsafeAddr()), n)
}

// SameMemoryAt is SameMemoryUpTo for two structs of node n's Go type at
// a and b.
func (s *Scratch) SameMemoryAt(a, b unsafe.Pointer, n *Node) (same bool, upTo uintptr) {
	if a == b {
		return true, 0
	}
	s.failAt = 0
	if n.memEq(s, a, b, -1) {
		return true, 0
	}
	return false, s.failAt
}

// A map whose keys are strings (of any string type) is read here through
// a view of the same layout: map[string][N]uint64 has the same slots,
// hash and key comparison as map[K]V when V has the size and alignment of
// [N]uint64. The view is only read. Values are copied out into memory the
// garbage collector does not scan, which is safe because the maps keep
// what they point to alive while the comparison runs; they are then
// compared as the V they are, unless equal memory settles them. Maps of
// up to eight entries are compared in place instead (smallmaps.go).

// mapView compares two non-nil maps of one type.
type mapView interface {
	eq(s *Scratch, a, b unsafe.Pointer, e *viewElem, depth int) bool
}

// viewElem is what a view needs of the map's values: their comparison,
// size, and whether values equal in memory are equal (settledByWords);
// and whether small maps are compared in place (smallmap.Readable).
type viewElem struct {
	eq             memEq
	size           uintptr
	words, inPlace bool
}

type viewOf[W comparable] struct{}

func (viewOf[W]) eq(s *Scratch, a, b unsafe.Pointer, e *viewElem, depth int) bool {
	ma, mb := *(*map[string]W)(a), *(*map[string]W)(b)
	if len(ma) != len(mb) {
		return false
	}
	buf, mark := s.words(2 * int(e.size/8))
	pa, pb := unsafe.Pointer(&buf[0]), unsafe.Pointer(&buf[e.size/8])
	same := true
	for k, va := range ma {
		vb, ok := mb[k]
		if !ok {
			same = false
			break
		}
		if e.words && sameWords(unsafe.Pointer(&va), unsafe.Pointer(&vb), e.size) {
			continue
		}
		*(*W)(pa), *(*W)(pb) = va, vb
		if !e.eq(s, pa, pb, depth+1) {
			same = false
			break
		}
	}
	s.release(mark)
	return same
}

// mapViews holds a view for each value size up to 128 bytes, by words.
var mapViews = [...]mapView{
	nil, viewOf[[1]uint64]{}, viewOf[[2]uint64]{}, viewOf[[3]uint64]{}, viewOf[[4]uint64]{},
	viewOf[[5]uint64]{}, viewOf[[6]uint64]{}, viewOf[[7]uint64]{}, viewOf[[8]uint64]{},
	viewOf[[9]uint64]{}, viewOf[[10]uint64]{}, viewOf[[11]uint64]{}, viewOf[[12]uint64]{},
	viewOf[[13]uint64]{}, viewOf[[14]uint64]{}, viewOf[[15]uint64]{}, viewOf[[16]uint64]{},
}

// mapViewFor returns the view for map type t, or nil: keys must be
// strings, values 8-byte aligned and at most 128 bytes.
func mapViewFor(t reflect.Type) mapView {
	if t.Key().Kind() != reflect.String || t.Key().Size() != 16 {
		return nil
	}
	e := t.Elem()
	if e.Align() != 8 || e.Size() == 0 || e.Size()%8 != 0 || e.Size() > 128 {
		return nil
	}
	return mapViews[e.Size()/8]
}
