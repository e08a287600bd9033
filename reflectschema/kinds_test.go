package reflectschema_test

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// kValueMarshaler marshals itself with a value receiver.
type kValueMarshaler struct{ A, B int }

func (kValueMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"value"`), nil }

// kPtrMarshaler marshals itself with a pointer receiver.
type kPtrMarshaler struct{ A, B int }

func (*kPtrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"pointer"`), nil }

// kText is a text marshaller (value receiver).
type kText struct{ A, B int }

func (kText) MarshalText() ([]byte, error) { return []byte("text"), nil }

// kPtrText is a text marshaller with a pointer receiver.
type kPtrText struct{ A, B int }

func (*kPtrText) MarshalText() ([]byte, error) { return []byte("ptrtext"), nil }

// kByte is a byte that marshals itself: a slice of it is not []byte.
type kByte uint8

func (kByte) MarshalJSON() ([]byte, error) { return []byte(`"b"`), nil }

type kBytes []byte

type kStringKey string

type kKinds struct {
	Value      kValueMarshaler
	ValuePtr   *kValueMarshaler
	Ptr        kPtrMarshaler
	PtrPtr     *kPtrMarshaler
	Text       kText
	PtrText    kPtrText
	Time       time.Time
	TimePtr    *time.Time
	Raw        json.RawMessage
	Any        any
	Stringer   fmt.Stringer
	Object     map[string]any
	Matrix     [][]string
	Bytes      []byte
	NamedBytes kBytes
	OwnBytes   []kByte
	Raws       []json.RawMessage
	Times      []time.Time
	Strings    []string
	Array      [2]int
	Duration   time.Duration
	String     string
	Int        int64
	Uint       uint16
	Float      float64
	Bool       bool
	Keyed      map[kStringKey]int
	Addrs      map[netip.Addr]bool
}

func TestKinds(t *testing.T) {
	st := mustFor[kKinds](t)
	const (
		scalar  = reflectschema.Scalar
		atomic  = reflectschema.Atomic
		list    = reflectschema.List
		mapKind = reflectschema.Map
		untyped = reflectschema.Untyped
	)
	tests := []struct {
		field string
		kind  reflectschema.Kind
		elem  reflectschema.Kind // 0: no Elem
	}{
		// Types that marshal themselves are replaced whole, whatever the
		// receiver and however they are reached.
		{"Value", atomic, 0},
		{"ValuePtr", atomic, 0},
		{"Ptr", atomic, 0},
		{"PtrPtr", atomic, 0},
		{"Text", atomic, 0},
		{"PtrText", atomic, 0},
		{"Time", atomic, 0},
		{"TimePtr", atomic, 0},
		{"Raw", atomic, 0}, // a []byte with its own MarshalJSON
		{"Any", untyped, 0},
		{"Stringer", untyped, 0},
		{"Object", mapKind, untyped},
		{"Matrix", atomic, list}, // a list of lists
		{"Bytes", scalar, 0},     // base64 string
		{"NamedBytes", scalar, 0},
		{"OwnBytes", list, atomic}, // encoding/json encodes it as an array
		{"Raws", list, atomic},
		{"Times", list, atomic},
		{"Strings", list, scalar},
		{"Array", list, scalar},
		{"Duration", scalar, 0},
		{"String", scalar, 0},
		{"Int", scalar, 0},
		{"Uint", scalar, 0},
		{"Float", scalar, 0},
		{"Bool", scalar, 0},
		{"Keyed", mapKind, scalar},
		{"Addrs", mapKind, scalar},
	}
	require.Len(t, st.Fields, len(tests))
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			f := st.Field(tt.field)
			require.NotNil(t, f)
			assert.Equal(t, tt.kind, f.Type.Kind)
			if tt.elem == 0 {
				assert.Nil(t, f.Type.Elem)
			} else {
				require.NotNil(t, f.Type.Elem)
				assert.Equal(t, tt.elem, f.Type.Elem.Kind)
			}
			// Pointers are followed: the schema describes the pointee,
			// the field keeps its declared type.
			sf, ok := reflect.TypeFor[kKinds]().FieldByName(tt.field)
			require.True(t, ok)
			assert.Equal(t, sf.Type, f.GoType)
			want := sf.Type
			if want.Kind() == reflect.Pointer {
				want = want.Elem()
			}
			assert.Equal(t, want, f.Type.Go)
		})
	}
	// The inner list of [][]string is itself a list of scalars.
	assert.Equal(t, reflectschema.Scalar, st.Field("Matrix").Type.Elem.Elem.Kind)
}

func TestTopLevelKinds(t *testing.T) {
	tests := []struct {
		typ  reflect.Type
		kind reflectschema.Kind
	}{
		{reflect.TypeFor[string](), reflectschema.Scalar},
		{reflect.TypeFor[*int](), reflectschema.Scalar},
		{reflect.TypeFor[**bool](), reflectschema.Scalar},
		{reflect.TypeFor[[]byte](), reflectschema.Scalar},
		{reflect.TypeFor[time.Time](), reflectschema.Atomic},
		{reflect.TypeFor[json.RawMessage](), reflectschema.Atomic},
		{reflect.TypeFor[[][]string](), reflectschema.Atomic},
		{reflect.TypeFor[map[string]any](), reflectschema.Map},
		{reflect.TypeFor[[]string](), reflectschema.List},
		{reflect.TypeFor[any](), reflectschema.Untyped},
		{reflect.TypeFor[kKinds](), reflectschema.Struct},
		{reflect.TypeFor[*kKinds](), reflectschema.Struct},
	}
	for _, tt := range tests {
		st, err := reflectschema.Of(tt.typ)
		require.NoError(t, err, "%v", tt.typ)
		assert.Equal(t, tt.kind, st.Kind, "%v", tt.typ)
		assert.NotEqual(t, reflect.Pointer, st.Go.Kind(), "%v: schema of a pointer", tt.typ)
		assert.Equal(t, st.Go.String(), st.String())
	}
	assert.Equal(t, "<nil>", (*reflectschema.Type)(nil).String())
}

// TestMapKeysAgreeWithEncodingJSON checks that a map type is accepted
// exactly when encoding/json can encode it.
func TestMapKeysAgreeWithEncodingJSON(t *testing.T) {
	type strKey string
	type intKey int8
	maps := []reflect.Type{
		reflect.TypeFor[map[string]int](),
		reflect.TypeFor[map[strKey]int](),
		reflect.TypeFor[map[int]int](),
		reflect.TypeFor[map[intKey]int](),
		reflect.TypeFor[map[uint64]int](),
		reflect.TypeFor[map[uintptr]int](),
		reflect.TypeFor[map[netip.Addr]int](),
		reflect.TypeFor[map[kText]int](),
		reflect.TypeFor[map[kPtrText]int](), // MarshalText is not in the key's method set
		reflect.TypeFor[map[bool]int](),
		reflect.TypeFor[map[float64]int](),
		reflect.TypeFor[map[[2]int]int](),
		reflect.TypeFor[map[struct{ A int }]int](),
	}
	for _, mt := range maps {
		_, jsonErr := json.Marshal(reflect.MakeMap(mt).Interface())
		st, err := reflectschema.Of(mt)
		if jsonErr == nil {
			require.NoError(t, err, "%v: encoding/json encodes it", mt)
			assert.Equal(t, reflectschema.Map, st.Kind)
			continue
		}
		var e *reflectschema.Error
		require.ErrorAs(t, err, &e, "%v: encoding/json fails with %v", mt, jsonErr)
		assert.Equal(t, reflectschema.RuleUnsupported, e.Rule)
		assert.Equal(t, mt, e.Type)
		assert.Contains(t, err.Error(), mt.Key().String())
	}
}

// TestUnsupportedKindsAgreeWithEncodingJSON checks that the kinds the
// schema rejects are those encoding/json cannot encode.
func TestUnsupportedKindsAgreeWithEncodingJSON(t *testing.T) {
	values := []any{
		make(chan int),
		func() {},
		complex(1, 2),
		[]chan int{make(chan int)},
	}
	for _, v := range values {
		typ := reflect.TypeOf(v)
		_, jsonErr := json.Marshal(v)
		require.Error(t, jsonErr, "%v", typ)
		_, err := reflectschema.Of(typ)
		var e *reflectschema.Error
		require.ErrorAs(t, err, &e, "%v", typ)
		assert.Equal(t, reflectschema.RuleUnsupported, e.Rule, "%v", typ)
	}
	_, err := reflectschema.Of(nil)
	var e *reflectschema.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, reflectschema.RuleUnsupported, e.Rule)
}
