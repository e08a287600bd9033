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
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
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

// tpos is what the typed walkers know of a position in a value: its
// node, its slot, and whether encoding/json quotes it (",string").
type tpos struct {
	node   *tnode
	slot   slot
	quoted bool
}

// tfield is one JSON field of a struct node.
type tfield struct {
	tpos     // slot is the field's, as slot.child returns it
	f        *reflectschema.Field
	name     string
	index    []int
	viaPtr   bool // the index path crosses an embedded pointer
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
				tpos:   tpos{node: buildNode(f.Type, built), slot: slot{Type: f.Type, Patch: f.Patch, Quoted: f.Quoted}},
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
		return typedRoot{}, errpath.Wrap(ErrSchema, err.Error(), err)
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
