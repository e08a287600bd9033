package smp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
)

// typedEdgeDoc gathers the shapes whose JSON is easy to get wrong: omitempty
// and omitzero, nil against empty, embedded structs behind pointers,
// quoted fields, bytes, floats, marshallers, untyped values, maps with
// keys that are not strings.
type typedEdgeDoc struct {
	*TypedEdgeInline // embedded pointer: its fields are absent when nil
	TypedEdgeFlat    // embedded value

	Str       string                    `json:"str"`
	OptStr    string                    `json:"optStr,omitempty"`
	Ptr       *int                      `json:"ptr"`
	OptPtr    *int                      `json:"optPtr,omitempty"`
	Slice     []string                  `json:"slice"`
	OptSlice  []string                  `json:"optSlice,omitempty"`
	Map       map[string]int            `json:"map"`
	OptMap    map[string]string         `json:"optMap,omitempty"`
	IntMap    map[int]string            `json:"intMap,omitempty"`
	TextMap   map[typedEdgeKey]int      `json:"textMap,omitempty"`
	PtrMap    map[string]*int           `json:"ptrMap,omitempty"`
	ListMap   map[string][]int          `json:"listMap,omitempty"`
	Bytes     []byte                    `json:"bytes"`
	OptBytes  []byte                    `json:"optBytes,omitempty"`
	Quoted    int                       `json:"quoted,string"`
	QuotedPtr *bool                     `json:"quotedPtr,string,omitempty"`
	QuotedStr string                    `json:"quotedStr,string,omitempty"`
	Float     float64                   `json:"float"`
	F32       float32                   `json:"f32,omitempty"`
	Uint      uint8                     `json:"uint,omitempty"`
	Time      time.Time                 `json:"time"`
	OptTime   *time.Time                `json:"optTime,omitempty"`
	ZeroTime  time.Time                 `json:"zeroTime,omitzero"`
	Zero      typedEdgeZero             `json:"zero,omitzero"`
	ZeroPlain typedEdgePlain            `json:"zeroPlain,omitzero"`
	Raw       json.RawMessage           `json:"raw,omitempty"`
	Any       any                       `json:"any,omitempty"`
	Num       json.Number               `json:"num,omitempty"`
	Arr       [2]int                    `json:"arr"`
	Matrix    [][]int                   `json:"matrix,omitempty"`
	Quantity  exampletypes.Quantity     `json:"quantity"`
	IOS       *exampletypes.IntOrString `json:"ios,omitempty"`
	Addr      typedEdgeAddr             `json:"addr"`

	Items    []typedEdgeItem     `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	PtrItems []*typedEdgeItem    `json:"ptrItems,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	MapItems []map[string]string `json:"mapItems,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Set      []int               `json:"set,omitempty" patchStrategy:"merge"`
	Union    *typedEdgeUnion     `json:"union,omitempty" patchStrategy:"retainKeys"`
	Replaced *typedEdgeItem      `json:"replaced,omitempty" patchStrategy:"replace"`
	AnyList  []any               `json:"typedAnyList,omitempty"`
	Skip     string              `json:"-"`
}

// TypedEdgeInline is embedded through a pointer.
type TypedEdgeInline struct {
	InA string `json:"inA"`
	InB int    `json:"inB,omitempty"`
}

// TypedEdgeFlat is embedded by value.
type TypedEdgeFlat struct {
	Flat string `json:"flat,omitempty"`
}

type typedEdgeItem struct {
	Name  string   `json:"name"`
	Value int      `json:"value,omitempty"`
	Tags  []string `json:"tags,omitempty" patchStrategy:"merge"`
}

type typedEdgeUnion struct {
	A *string `json:"a,omitempty"`
	B *int    `json:"b,omitempty"`
	C string  `json:"c,omitempty"`
}

// typedEdgeKey is a map key with a text form.
type typedEdgeKey struct{ A, B string }

func (k typedEdgeKey) MarshalText() ([]byte, error) { return []byte(k.A + "." + k.B), nil }

func (k *typedEdgeKey) UnmarshalText(b []byte) error {
	a, c, ok := strings.Cut(string(b), ".")
	if !ok {
		return fmt.Errorf("bad key %q", b)
	}
	*k = typedEdgeKey{a, c}
	return nil
}

// typedEdgeZero decides its own zeroness for omitzero.
type typedEdgeZero struct{ N int }

func (z typedEdgeZero) IsZero() bool { return z.N <= 0 }

type typedEdgePlain struct{ N int }

// typedEdgeAddr marshals through a pointer method only: encoding/json calls it
// only on addressable values.
type typedEdgeAddr struct{ N int }

func (a *typedEdgeAddr) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(`"n%d"`, a.N)), nil }

func (a *typedEdgeAddr) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var v struct{ N int }
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		a.N = v.N
		return nil
	}
	_, err := fmt.Sscanf(s, "n%d", &a.N)
	return err
}

func (g typedGen) intPtr(label string) *int {
	if g.flip(label + "?") {
		return nil
	}
	v := g.intn(label, 0, 2)
	return &v
}

func typedGenEdge(t *rapid.T) *typedEdgeDoc {
	g := typedGen{t}
	d := &typedEdgeDoc{
		Str:       g.pick("str", "", "a", "<b>", "é"),
		OptStr:    g.pick("optStr", "", "x"),
		Ptr:       g.intPtr("ptr"),
		OptPtr:    g.intPtr("optPtr"),
		Slice:     g.strings("slice", "a", "b"),
		OptSlice:  g.strings("optSlice", "a", "b"),
		OptMap:    g.stringMap("optMap", []string{"k1", "k2"}, []string{"", "v"}),
		Quoted:    g.intn("quoted", -1, 1),
		QuotedStr: g.pick("quotedStr", "", "q", `"<q>"`),
		Float:     rapid.SampledFrom([]float64{0, 1, -1.5, 1e21, 1e-7, 123456789.125}).Draw(t, "float"),
		F32:       rapid.SampledFrom([]float32{0, 0.1, 3e38}).Draw(t, "f32"),
		Uint:      uint8(g.intn("uint", 0, 255)),
		Zero:      typedEdgeZero{N: g.intn("zero", -1, 1)},
		ZeroPlain: typedEdgePlain{N: g.intn("zeroPlain", 0, 1)},
		Num:       json.Number(g.pick("num", "", "1", "1.0", "-2e3")),
		Arr:       [2]int{g.intn("arr0", 0, 1), g.intn("arr1", 0, 1)},
		Quantity:  g.quantity("quantity"),
		Addr:      typedEdgeAddr{N: g.intn("addr", 0, 1)},
		Skip:      g.pick("skip", "", "s"),
	}
	if g.flip("inline") {
		d.TypedEdgeInline = &TypedEdgeInline{InA: g.pick("inA", "", "a"), InB: g.intn("inB", 0, 1)}
	}
	d.Flat = g.pick("flat", "", "f")
	switch g.intn("map", 0, 2) {
	case 1:
		d.Map = map[string]int{}
	case 2:
		d.Map = map[string]int{g.pick("map.k", "a", "b"): g.intn("map.v", 0, 1)}
	}
	if g.flip("intMap") {
		d.IntMap = map[int]string{g.intn("intMap.k", -1, 1): g.pick("intMap.v", "x", "y")}
	}
	if g.flip("textMap") {
		d.TextMap = map[typedEdgeKey]int{{g.pick("tk.a", "a", "b"), "c"}: g.intn("tk.v", 0, 1)}
	}
	if g.flip("ptrMap") {
		d.PtrMap = map[string]*int{g.pick("pm.k", "a", "b"): g.intPtr("pm.v")}
	}
	if g.flip("listMap") {
		d.ListMap = map[string][]int{g.pick("lm.k", "a", "b"): rapid.SliceOfN(rapid.IntRange(0, 2), 0, 2).Draw(t, "lm.v")}
	}
	switch g.intn("bytes", 0, 2) {
	case 1:
		d.Bytes = []byte{}
	case 2:
		d.Bytes = []byte(g.pick("bytes.v", "hi", "\x00\xff"))
	}
	if g.flip("optBytes") {
		d.OptBytes = []byte("x")
	}
	if g.flip("quotedPtr") {
		b := g.flip("quotedPtr.v")
		d.QuotedPtr = &b
	}
	times := []time.Time{{}, time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC), time.Date(2024, 5, 1, 14, 0, 0, 5, time.FixedZone("X", 7200))}
	d.Time = rapid.SampledFrom(times).Draw(t, "time")
	if g.flip("optTime") {
		tt := rapid.SampledFrom(times).Draw(t, "optTime.v")
		d.OptTime = &tt
	}
	d.ZeroTime = rapid.SampledFrom(times).Draw(t, "zeroTime")
	switch g.intn("raw", 0, 3) {
	case 1:
		d.Raw = json.RawMessage(`{"b": [1, 2], "a": null}`)
	case 2:
		d.Raw = json.RawMessage(`"text"`)
	case 3:
		d.Raw = json.RawMessage(`{"a":1}`)
	}
	anys := []any{nil, "s", 1.5, true, map[string]any{"k": "v", "n": 2.0}, []any{"x", map[string]any{"y": nil}}, map[string]any{"k": map[string]any{"deep": "v"}}}
	d.Any = rapid.SampledFrom(anys).Draw(t, "any")
	if g.flip("typedAnyList") {
		d.AnyList = []any{rapid.SampledFrom(anys).Draw(t, "typedAnyList.v")}
	}
	if g.flip("matrix") {
		d.Matrix = [][]int{{g.intn("m", 0, 1)}, nil}
	}
	if g.flip("ios") {
		v := g.intOrString("ios.v")
		d.IOS = &v
	}
	for _, n := range g.names("items", []string{"a", "b", "c"}, 3) {
		d.Items = append(d.Items, typedEdgeItem{Name: n, Value: g.intn("items.v", 0, 1), Tags: g.names("items.tags", []string{"t1", "t2"}, 2)})
	}
	for _, n := range g.names("ptrItems", []string{"a", "b"}, 2) {
		if g.intn("ptrItems.nil", 0, 5) == 0 {
			d.PtrItems = append(d.PtrItems, nil)
			continue
		}
		d.PtrItems = append(d.PtrItems, &typedEdgeItem{Name: n, Value: g.intn("ptrItems.v", 0, 1)})
	}
	for _, n := range g.names("mapItems", []string{"a", "b"}, 2) {
		d.MapItems = append(d.MapItems, map[string]string{"name": n, "v": g.pick("mapItems.v", "1", "2")})
	}
	d.Set = rapid.SliceOfN(rapid.IntRange(1, 3), 0, 3).Draw(t, "set")
	if g.flip("union") {
		d.Union = &typedEdgeUnion{C: g.pick("union.c", "", "c")}
		if g.flip("union.a") {
			a := g.pick("union.a.v", "", "a")
			d.Union.A = &a
		}
		if g.flip("union.b") {
			d.Union.B = g.intPtr("union.b.v")
		}
	}
	if g.flip("replaced") {
		d.Replaced = &typedEdgeItem{Name: g.pick("replaced.name", "r", "s"), Tags: g.strings("replaced.tags", "t")}
	}
	return d
}

func TestTypedEdge(t *testing.T) { typedProperties(t, typedGenEdge) }

// TestTypedEdgeValues checks the same documents passed by value, where no
// field is addressable (so typedEdgeAddr encodes by its fields, as
// encoding/json encodes it).
func TestTypedEdgeValues(t *testing.T) {
	typedProperties(t, func(rt *rapid.T) typedEdgeDoc {
		if d := typedGenEdge(rt); d != nil {
			return *d
		}
		return typedEdgeDoc{}
	})
}
