package smp

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// tnode is what the typed walkers know of one schema type, computed once:
// a struct's fields in the two orders they are visited in, how an atomic
// value marshals, and shortcuts for common shapes.
type tnode struct {
	t      *reflectschema.Type
	kind   reflectschema.Kind
	goType reflect.Type // never a pointer

	// Struct.
	fields []*tfield // encoding/json's order
	sorted []*tfield // by JSON name: the order patches are built in
	byName map[string]*tfield

	// List, Map, and lists of lists.
	elem *tnode

	// Scalar.
	bytes    bool // []byte: a base64 string
	isNumber bool // json.Number: a number literal

	// Map.
	stringMap bool // convertible to map[string]string
	keyMode   keyMode
	// keyArr and valArr are [smallMap]K and [smallMap]V: scratch space to
	// read a small map's entries into.
	keyArr, valArr reflect.Type

	// Atomic.
	marshaler bool // Atomic through a marshaller (not a list of lists)
	plainCopy bool // a copy of the Go value is a deep copy
	implM     bool // the type implements json.Marshaler
	ptrM      bool // its pointer does
	implT     bool // the type implements encoding.TextMarshaler
	ptrT      bool // its pointer does
	unmarshal bool // its pointer implements json.Unmarshaler

	// addrSensitive reports that a value encodes differently when
	// addressable: a marshaller with pointer methods only is reachable
	// through fields and arrays.
	addrSensitive bool

	// For the limits: whether a list (or untyped value) is reachable, the
	// fields through which one is, and the deepest level below a value
	// that walkLimits visits (-1: unbounded, for recursive and untyped
	// types).
	listReach  bool
	listFields []*tfield
	depth      int

	// memEq compares two values of the Go type in memory (typed_deepeq.go).
	memEq memEq
	// plainNow reports whether a marshaller's value holds no pointer,
	// slice or map at the moment, so that a shallow copy of it is deep.
	plainNow func(unsafe.Pointer) bool
}

// tfield is one JSON field of a struct node.
type tfield struct {
	f      *reflectschema.Field
	name   string
	index  []int
	viaPtr bool // the index path crosses an embedded pointer
	node   *tnode
	slot   slot // the field's slot, as slot.child returns it
	// quoted is the json ",string" option as encoding/json applies it.
	quoted   bool
	zeroMode zeroMode
	// fast and offset read the field from memory (typed_fast.go).
	fast   fastKind
	offset uintptr
}

// keyMode says how a map key becomes JSON text.
type keyMode uint8

const (
	keyString keyMode = iota
	keyText           // encoding.TextMarshaler
	keyInt
	keyUint
)

// zeroMode says how omitzero decides a field is zero.
type zeroMode uint8

const (
	zeroReflect zeroMode = iota // reflect.Value.IsZero
	zeroMethodIface
	zeroMethodPtr
	zeroMethodValue
	zeroMethodAddr
)

var (
	planCache       sync.Map // *reflectschema.Type -> *tnode
	planBuildMu     sync.Mutex
	numberType      = reflect.TypeFor[json.Number]()
	timeType        = reflect.TypeFor[time.Time]()
	mapSSType       = reflect.TypeFor[map[string]string]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	isZeroerType    = reflect.TypeFor[interface{ IsZero() bool }]()
)

// planOf returns the node of a schema type, building the nodes of every
// type it reaches on first use.
func planOf(t *reflectschema.Type) *tnode {
	if n, ok := planCache.Load(t); ok {
		return n.(*tnode)
	}
	planBuildMu.Lock()
	defer planBuildMu.Unlock()
	if n, ok := planCache.Load(t); ok {
		return n.(*tnode)
	}
	built := map[*reflectschema.Type]*tnode{}
	n := buildNode(t, built)
	for _, bn := range built {
		markAddr(bn, map[*tnode]bool{})
		markLists(bn, map[*tnode]bool{})
	}
	for _, bn := range built {
		bn.memEq = memEqOf(bn.goType)
		bn.depth = depthBound(bn, map[*tnode]bool{})
		for _, f := range bn.fields {
			if f.node.listReach {
				bn.listFields = append(bn.listFields, f)
			}
		}
	}
	for bt, bn := range built {
		planCache.Store(bt, bn)
	}
	return n
}

// planOfGo returns the node of a Go type, for the dynamic type of an
// untyped value. It fails where reflectschema has no schema.
func planOfGo(t reflect.Type) (*tnode, error) {
	st, err := reflectschema.Of(t)
	if err != nil {
		return nil, err
	}
	return planOf(st), nil
}

func buildNode(t *reflectschema.Type, built map[*reflectschema.Type]*tnode) *tnode {
	if n, ok := planCache.Load(t); ok {
		return n.(*tnode)
	}
	if n, ok := built[t]; ok {
		return n
	}
	n := &tnode{t: t, kind: t.Kind, goType: t.Go}
	built[t] = n
	if t.Elem != nil {
		n.elem = buildNode(t.Elem, built)
	}
	switch t.Kind {
	case reflectschema.Scalar:
		n.bytes = t.Go.Kind() == reflect.Slice
		n.isNumber = t.Go == numberType
	case reflectschema.Atomic:
		n.marshaler = t.Elem == nil
		n.plainCopy = n.marshaler && (t.Go == timeType || pointerFree(t.Go, 0))
		pt := reflect.PointerTo(t.Go)
		n.implM, n.ptrM = t.Go.Implements(jsonMarshaler), pt.Implements(jsonMarshaler)
		n.implT, n.ptrT = t.Go.Implements(textMarshaler), pt.Implements(textMarshaler)
		n.unmarshal = pt.Implements(jsonUnmarshaler) && t.Go.Kind() != reflect.Interface
		n.addrSensitive = n.marshaler && (n.ptrM && !n.implM || n.ptrT && !n.implT && !n.implM)
		n.plainNow = plainCheck(t.Go, 0)
	case reflectschema.Map:
		n.stringMap = t.Go.ConvertibleTo(mapSSType)
		kt := t.Go.Key()
		n.keyArr, n.valArr = reflect.ArrayOf(smallMap, kt), reflect.ArrayOf(smallMap, t.Go.Elem())
		switch {
		case kt.Kind() == reflect.String:
			n.keyMode = keyString
		case kt.Implements(textMarshaler):
			n.keyMode = keyText
		case kt.Kind() >= reflect.Int && kt.Kind() <= reflect.Int64:
			n.keyMode = keyInt
		default:
			n.keyMode = keyUint
		}
	case reflectschema.Struct:
		n.byName = make(map[string]*tfield, len(t.Fields))
		for _, f := range t.Fields {
			tf := &tfield{
				f: f, name: f.Name, index: f.Index,
				node:   buildNode(f.Type, built),
				slot:   slot{Type: f.Type, Patch: f.Patch, Quoted: f.Quoted},
				viaPtr: crossesPointer(t.Go, f.Index),
			}
			tf.quoted = f.Quoted && quotable(f.GoType) && f.Type.Kind == reflectschema.Scalar
			if f.OmitZero {
				tf.zeroMode = zeroModeOf(f.GoType)
			}
			if tf.fast = fastKindOf(f, tf.node, tf.viaPtr); tf.fast != fastNone {
				tf.offset = fieldOffset(t.Go, f.Index)
			}
			n.fields = append(n.fields, tf)
			n.byName[f.Name] = tf
		}
		n.sorted = slices.Clone(n.fields)
		slices.SortFunc(n.sorted, func(a, b *tfield) int { return strings.Compare(a.name, b.name) })
	}
	return n
}

// markAddr sets addrSensitive on structs and arrays that hold an
// addressability-sensitive value directly (not through a pointer, slice,
// map or interface, whose elements are addressable or not either way).
func markAddr(n *tnode, seen map[*tnode]bool) bool {
	if n.addrSensitive || seen[n] {
		return n.addrSensitive
	}
	seen[n] = true
	switch n.kind {
	case reflectschema.Struct:
		for _, f := range n.fields {
			if f.f.GoType.Kind() != reflect.Pointer && markAddr(f.node, seen) {
				n.addrSensitive = true
			}
		}
	case reflectschema.List, reflectschema.Atomic:
		if n.elem != nil && n.goType.Kind() == reflect.Array && n.goType.Elem().Kind() != reflect.Pointer {
			n.addrSensitive = markAddr(n.elem, seen)
		}
	}
	return n.addrSensitive
}

// detach returns a value that encodes as v does when it is not
// addressable, as encoding/json sees map values.
func detach(v reflect.Value, n *tnode) reflect.Value {
	if n.addrSensitive && v.CanAddr() {
		return reflect.ValueOf(v.Interface())
	}
	return v
}

// markLists sets listReach on n if a list or an untyped value is
// reachable from it.
func markLists(n *tnode, seen map[*tnode]bool) bool {
	if n.listReach || seen[n] {
		return n.listReach
	}
	seen[n] = true
	switch n.kind {
	case reflectschema.List, reflectschema.Untyped:
		n.listReach = true
	case reflectschema.Atomic:
		n.listReach = !n.marshaler
	case reflectschema.Struct:
		for _, f := range n.fields {
			if markLists(f.node, seen) {
				n.listReach = true
			}
		}
	case reflectschema.Map:
		n.listReach = markLists(n.elem, seen)
	}
	return n.listReach
}

// depthBound is the deepest level, below a value of n, at which
// walkLimits checks the depth: one more for each object member that is an
// object or array and for each array element. It is -1 for types that
// nest without bound.
func depthBound(n *tnode, onPath map[*tnode]bool) int {
	if onPath[n] {
		return -1
	}
	onPath[n] = true
	defer delete(onPath, n)
	below := func(c *tnode) int {
		if !composite(c) {
			return 0
		}
		d := depthBound(c, onPath)
		if d < 0 {
			return -1
		}
		return d + 1
	}
	switch n.kind {
	case reflectschema.Untyped:
		return -1
	case reflectschema.Struct:
		deepest := 0
		for _, f := range n.fields {
			d := below(f.node)
			if d < 0 {
				return -1
			}
			deepest = max(deepest, d)
		}
		return deepest
	case reflectschema.Map:
		return below(n.elem)
	case reflectschema.List, reflectschema.Atomic:
		if n.kind == reflectschema.Atomic && n.marshaler {
			return 0
		}
		d := below(n.elem)
		if d < 0 {
			return -1
		}
		return max(d, 1) // scalar elements are checked one level down too
	}
	return 0
}

// crossesPointer reports whether an index path goes through an embedded
// pointer, which may be nil.
func crossesPointer(t reflect.Type, index []int) bool {
	for i, x := range index {
		if t.Kind() == reflect.Pointer {
			return true
		}
		if i < len(index)-1 {
			t = t.Field(x).Type
		}
	}
	return false
}

// quotable reports whether encoding/json honours ",string" on a field of
// type t: strings, numbers and booleans, or an unnamed pointer to one.
func quotable(t reflect.Type) bool {
	if t.Name() == "" && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// zeroModeOf picks the IsZero rule encoding/json uses for omitzero.
func zeroModeOf(t reflect.Type) zeroMode {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return zeroMethodIface
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return zeroMethodPtr
	case t.Implements(isZeroerType):
		return zeroMethodValue
	case reflect.PointerTo(t).Implements(isZeroerType):
		return zeroMethodAddr
	}
	return zeroReflect
}

// pointerFree reports whether a value of t holds no pointer, slice, map,
// interface, channel or function, so that assigning it copies it deeply.
func pointerFree(t reflect.Type, depth int) bool {
	if depth > 32 {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return pointerFree(t.Elem(), depth+1)
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// plainCheck compiles, for type t, the test that a value of it holds no
// non-nil pointer, slice, map, interface, channel or function: then
// assigning it copies it deeply. Types nested too deep are never plain.
func plainCheck(t reflect.Type, depth int) func(unsafe.Pointer) bool {
	always := func(unsafe.Pointer) bool { return true }
	if depth > 32 {
		return func(unsafe.Pointer) bool { return false }
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*reflectSlice)(p).data == nil }
	case reflect.Interface:
		return func(p unsafe.Pointer) bool { return *(*[2]unsafe.Pointer)(p) == [2]unsafe.Pointer{} }
	case reflect.Array:
		if pointerFree(t, 0) {
			return always
		}
		elem, size, n := plainCheck(t.Elem(), depth+1), t.Elem().Size(), t.Len()
		return func(p unsafe.Pointer) bool {
			for i := range n {
				if !elem(unsafe.Add(p, uintptr(i)*size)) {
					return false
				}
			}
			return true
		}
	case reflect.Struct:
		if pointerFree(t, 0) {
			return always
		}
		type field struct {
			off   uintptr
			plain func(unsafe.Pointer) bool
		}
		var fields []field
		for i := range t.NumField() {
			sf := t.Field(i)
			if !pointerFree(sf.Type, 0) {
				fields = append(fields, field{sf.Offset, plainCheck(sf.Type, depth+1)})
			}
		}
		return func(p unsafe.Pointer) bool {
			for _, f := range fields {
				if !f.plain(unsafe.Add(p, f.off)) {
					return false
				}
			}
			return true
		}
	}
	return always
}

// typedRoot is the schema of a type parameter T: a struct reached through
// ptrs pointers.
type typedRoot struct {
	node *tnode
	ptrs int
	typ  reflect.Type
}

// rootFor resolves T, which must be a struct or a pointer to one.
func rootFor(typ reflect.Type) (typedRoot, error) {
	st, err := reflectschema.Of(typ)
	if err != nil {
		return typedRoot{}, &Error{Kind: ErrSchema, Msg: err.Error(), err: err}
	}
	if st.Kind != reflectschema.Struct {
		return typedRoot{}, &Error{Kind: ErrSchema, Msg: "type " + typ.String() + " is not a struct or a pointer to one (schema kind " + st.Kind.String() + ")"}
	}
	ptrs := 0
	for t := typ; t.Kind() == reflect.Pointer; t = t.Elem() {
		ptrs++
	}
	return typedRoot{node: planOf(st), ptrs: ptrs, typ: typ}, nil
}

// value returns the struct a root value holds, invalid when a pointer on
// the way is nil (the empty object).
func (r typedRoot) value(v reflect.Value) reflect.Value {
	for range r.ptrs {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// slot returns the root's slot.
func (r typedRoot) slot() slot { return slot{Type: r.node.t} }
