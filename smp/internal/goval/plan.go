package goval

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

// Node is what the typed walkers know of one schema type, computed once:
// a struct's fields in the two orders they are visited in, how an atomic
// value marshals, and shortcuts for common shapes.
type Node struct {
	Schema *reflectschema.Type
	Kind   reflectschema.Kind
	GoType reflect.Type // never a pointer

	// Struct.
	Fields []*Field // encoding/json's order
	Sorted []*Field // by JSON name: the order patches are built in
	ByName map[string]*Field

	// List, Map, and lists of lists.
	Elem *Node

	// Scalar.
	bytes    bool // []byte: a base64 string
	IsNumber bool // json.Number: a number literal

	// Map.
	StringMap bool // convertible to map[string]string
	keyMode   keyMode
	// keyArr and valArr are [SmallMap]K and [SmallMap]V: scratch space to
	// read a small map's entries into.
	keyArr, valArr reflect.Type

	// Atomic.
	Marshaler bool // Atomic through a marshaller (not a list of lists)
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
	// that jsonval.WalkLimits visits (-1: unbounded, for recursive and untyped
	// types).
	listReach  bool
	listFields []*Field
	depth      int
	lens       lenPlan  // the list-length limit compiled (limitsfast.go)
	size       sizePlan // the measure compiled (sizefast.go)

	// memEq compares two values of the Go type in memory (typed_deepeq.go).
	memEq memEq
	// plainNow reports whether a marshaller's value holds no pointer,
	// slice or map at the moment, so that a shallow copy of it is deep.
	plainNow func(unsafe.Pointer) bool
	// trips remembers a marshaller's round trips (roundtrips.go); nil
	// where they are not remembered.
	trips *roundTrips
}

// Pos is what the typed walkers know of a position in a value: its
// node, its slot, and whether encoding/json quotes it (",string").
type Pos struct {
	Node   *Node
	Slot   slot
	Quoted bool
}

// Field is one JSON field of a struct node.
type Field struct {
	Pos      // slot is the field's, as slot.child returns it
	Meta     *reflectschema.Field
	Name     string
	Index    []int
	ViaPtr   bool // the index path crosses an embedded pointer
	zeroMode zeroMode
	// Fast and Offset read the field from memory (fast.go); Offset is
	// set for every field not behind an embedded pointer.
	Fast     fastKind
	Offset   uintptr
	copyMode copyMode // how copyStructAt copies it (copyat.go)
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
	planCache       sync.Map // *reflectschema.Type -> *Node
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
func planOf(t *reflectschema.Type) *Node {
	if n, ok := planCache.Load(t); ok {
		return n.(*Node)
	}
	planBuildMu.Lock()
	defer planBuildMu.Unlock()
	if n, ok := planCache.Load(t); ok {
		return n.(*Node)
	}
	built := map[*reflectschema.Type]*Node{}
	n := buildNode(t, built)
	for _, bn := range built {
		markAddr(bn, map[*Node]bool{})
		markLists(bn, map[*Node]bool{})
	}
	for _, bn := range built {
		bn.memEq = memEqOf(bn.GoType)
		bn.depth = depthBound(bn, map[*Node]bool{})
		for _, f := range bn.Fields {
			f.copyMode = copyModeOf(f)
			if f.Node.listReach {
				bn.listFields = append(bn.listFields, f)
			}
		}
	}
	for _, bn := range built {
		compileLens(bn)
		compileSize(bn)
	}
	for bt, bn := range built {
		planCache.Store(bt, bn)
	}
	return n
}

// planOfGo returns the node of a Go type, for the dynamic type of an
// untyped value. It fails where reflectschema has no schema.
func planOfGo(t reflect.Type) (*Node, error) {
	st, err := reflectschema.Of(t)
	if err != nil {
		return nil, err
	}
	return planOf(st), nil
}

func buildNode(t *reflectschema.Type, built map[*reflectschema.Type]*Node) *Node {
	if n, ok := planCache.Load(t); ok {
		return n.(*Node)
	}
	if n, ok := built[t]; ok {
		return n
	}
	n := &Node{Schema: t, Kind: t.Kind, GoType: t.Go}
	built[t] = n
	if t.Elem != nil {
		n.Elem = buildNode(t.Elem, built)
	}
	switch t.Kind {
	case reflectschema.Scalar:
		n.bytes = t.Go.Kind() == reflect.Slice
		n.IsNumber = t.Go == numberType
	case reflectschema.Atomic:
		n.Marshaler = t.Elem == nil
		n.plainCopy = n.Marshaler && (t.Go == timeType || pointerFree(t.Go, 0))
		pt := reflect.PointerTo(t.Go)
		n.implM, n.ptrM = t.Go.Implements(jsonMarshaler), pt.Implements(jsonMarshaler)
		n.implT, n.ptrT = t.Go.Implements(textMarshaler), pt.Implements(textMarshaler)
		n.unmarshal = pt.Implements(jsonUnmarshaler) && t.Go.Kind() != reflect.Interface
		n.addrSensitive = n.Marshaler && (n.ptrM && !n.implM || n.ptrT && !n.implT && !n.implM)
		n.plainNow = plainCheck(t.Go)
		if n.Marshaler && !n.plainCopy && !n.addrSensitive {
			n.trips = newRoundTrips(t.Go)
		}
	case reflectschema.Map:
		n.StringMap = t.Go.ConvertibleTo(mapSSType)
		kt := t.Go.Key()
		n.keyArr, n.valArr = reflect.ArrayOf(SmallMap, kt), reflect.ArrayOf(SmallMap, t.Go.Elem())
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
		n.ByName = make(map[string]*Field, len(t.Fields))
		for _, f := range t.Fields {
			tf := &Field{
				Meta: f, Name: f.Name, Index: f.Index,
				Pos:    Pos{Node: buildNode(f.Type, built), Slot: slot{Type: f.Type, Patch: f.Patch, Quoted: f.Quoted}},
				ViaPtr: crossesPointer(t.Go, f.Index),
			}
			tf.Quoted = f.Quoted && quotable(f.GoType) && f.Type.Kind == reflectschema.Scalar
			if f.OmitZero {
				tf.zeroMode = zeroModeOf(f.GoType)
			}
			tf.Fast = fastKindOf(f, tf.Node, tf.ViaPtr)
			if !tf.ViaPtr {
				tf.Offset = fieldOffset(t.Go, f.Index)
			}
			n.Fields = append(n.Fields, tf)
			n.ByName[f.Name] = tf
		}
		n.Sorted = slices.Clone(n.Fields)
		slices.SortFunc(n.Sorted, func(a, b *Field) int { return strings.Compare(a.Name, b.Name) })
	}
	return n
}

// Root is the schema of a type parameter T: a struct reached through
// ptrs pointers.
type Root struct {
	Node *Node
	Ptrs int
	Type reflect.Type
}

// RootFor resolves T, which must be a struct or a pointer to one.
func RootFor(typ reflect.Type) (Root, error) {
	st, err := reflectschema.Of(typ)
	if err != nil {
		return Root{}, errpath.Wrap(errpath.ErrSchema, err.Error(), err)
	}
	if st.Kind != reflectschema.Struct {
		return Root{}, &errpath.Error{Kind: errpath.ErrSchema, Msg: "type " + typ.String() + " is not a struct or a pointer to one (schema kind " + st.Kind.String() + ")"}
	}
	ptrs := 0
	for t := typ; t.Kind() == reflect.Pointer; t = t.Elem() {
		ptrs++
	}
	return Root{Node: planOf(st), Ptrs: ptrs, Type: typ}, nil
}

// Value returns the struct a root value holds, invalid when a pointer on
// the way is nil (the empty object).
func (r Root) Value(v reflect.Value) reflect.Value {
	for range r.Ptrs {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// Slot returns the root's slot.
func (r Root) Slot() slot { return slot{Type: r.Node.Schema} }

// Wrap turns a pointer to a new root struct into a T.
func (r Root) Wrap(p reflect.Value) reflect.Value {
	if r.Ptrs == 0 {
		return p.Elem()
	}
	types := make([]reflect.Type, r.Ptrs)
	t := r.Type
	for i := range types {
		types[i] = t
		t = t.Elem()
	}
	v := p.Convert(types[r.Ptrs-1])
	for i := r.Ptrs - 2; i >= 0; i-- {
		q := reflect.New(types[i+1])
		q.Elem().Set(v)
		v = q.Convert(types[i])
	}
	return v
}
