package goval_test

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// textKey is a map key that encoding/json writes through MarshalText.
type textKey struct{ A, B string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.A + "/" + k.B), nil }

func (k *textKey) UnmarshalText(b []byte) error {
	k.A, k.B, _ = strings.Cut(string(b), "/")
	return nil
}

// Inline is embedded in tricky: its fields are promoted, one shadowed.
type Inline struct {
	In     string `json:"in,omitempty"`
	Shadow int    `json:"shadow"`
}

type inner struct {
	N int     `json:"n"`
	P *string `json:"p,omitempty"`
}

// tricky has a field for each case where encoding/json's output is not
// the obvious one.
type tricky struct {
	Inline
	Shadow   string            `json:"shadow"`
	S        string            `json:"s,omitempty"`
	I        int               `json:"i,omitempty"`
	F        float64           `json:"f,omitempty"`
	G        float64           `json:"g"`
	B        bool              `json:"b,omitempty"`
	Q        int64             `json:"q,string"`
	QS       string            `json:"qs,string,omitempty"`
	QB       bool              `json:"qb,string"`
	Bytes    []byte            `json:"bytes,omitempty"`
	BytesNil []byte            `json:"bytesNil"`
	List     []string          `json:"list"`
	ListOE   []string          `json:"listOE,omitempty"`
	Map      map[string]int    `json:"map"`
	MapOE    map[string]int    `json:"mapOE,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	IntKeys  map[int]string    `json:"intKeys,omitempty"`
	UintKeys map[uint8]string  `json:"uintKeys,omitempty"`
	TextKeys map[textKey]int   `json:"textKeys,omitempty"`
	Ptr      *inner            `json:"ptr,omitempty"`
	PtrNull  *inner            `json:"ptrNull"`
	Inners   []inner           `json:"inners,omitempty"`
	Any      any               `json:"any,omitempty"`
	Num      json.Number       `json:"num,omitempty"`
	Dash     string            `json:"-"`
	skip     string
}

func strp(s string) *string { return &s }

// trickyTable is the values the conversions, equality, copy and measure
// are checked on. Some pairs encode alike though they differ in Go.
func trickyTable() map[string]tricky {
	shared := map[string]any{"a": []any{"b"}}
	return map[string]tricky{
		"shared":                   {Any: []any{shared, shared, shared}, Ptr: &inner{P: strp("s")}},
		"zero":                     {},
		"empty non-nil":            {Bytes: []byte{}, BytesNil: []byte{}, List: []string{}, ListOE: []string{}, Map: map[string]int{}, MapOE: map[string]int{}, IntKeys: map[int]string{}},
		"zero scalars":             {S: "", I: 0, F: 0, B: false, Q: 0, QS: ""},
		"left out":                 {Dash: "dash", skip: "skip"},
		"scalars":                  {S: "<a&b>\u2028", I: -7, F: 0.1, B: true, Num: json.Number("1e3")},
		"negative zero":            {G: math.Copysign(0, -1)},
		"negative zero, omitempty": {F: math.Copysign(0, -1), Any: math.Copysign(0, -1)},
		"big float":                {F: 1e21},
		"small float":              {F: 1e-7},
		"quoted":                   {Q: -5, QS: "a\"<b>", QB: true},
		"bytes":                    {Bytes: []byte("\x00\xffhi"), BytesNil: []byte("x")},
		"inline":                   {Inline: Inline{In: "in", Shadow: 3}, Shadow: "outer"},
		"inline empty":             {Inline: Inline{Shadow: 3}},
		"lists":                    {List: []string{"a", "", "\xff"}, ListOE: []string{"x"}},
		"maps":                     {Map: map[string]int{"a": 1, "<&>": 2, "": 0}, MapOE: map[string]int{"z": 0}, Labels: map[string]string{"app": "web", "x": "\xff"}},
		"maps again":               {Map: map[string]int{"a": 1, "<&>": 2, "": 1}, MapOE: map[string]int{"z": 0}, Labels: map[string]string{"app": "web", "x": "\xfe"}},
		"labels":                   {Labels: map[string]string{"app": "web", "": ""}},
		"int keys":                 {IntKeys: map[int]string{-3: "m", 0: "", 10: "t"}, UintKeys: map[uint8]string{255: "f", 0: "z"}},
		"text keys":                {TextKeys: map[textKey]int{{"a", "<b>"}: 1, {"", ""}: 2}},
		"pointers":                 {Ptr: &inner{N: 1, P: strp("p")}, PtrNull: &inner{}},
		"zero pointer":             {Ptr: &inner{}},
		"zero pointer2":            {Ptr: &inner{N: 0}},
		"lists again":              {List: []string{"a", "", "b"}, ListOE: []string{"y"}},
		"inners again":             {Inners: []inner{{N: 2}, {P: strp("")}, {}}},
		"inners":                   {Inners: []inner{{N: 1}, {P: strp("")}, {}}},
		"any struct":               {Any: inner{N: 2, P: strp("q")}},
		"any struct omits":         {Any: &inner{N: 2}},
		"any map":                  {Any: map[string]any{"x": []any{1, "y", nil, true}, "m": map[string]any{}}},
		"any int":                  {Any: 1},
		"any float":                {Any: 1.0},
		"any string":               {Any: "1"},
		"any empty":                {Any: []any{}},
	}
}

// rootOf is tricky's plan.
func rootOf(t *testing.T) goval.Root {
	t.Helper()
	root, err := goval.RootFor(reflect.TypeFor[tricky]())
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// roundTrip is what json.Unmarshal makes of json.Marshal's output for v.
func roundTrip(t fatalT, v tricky) tricky {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out tricky
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
