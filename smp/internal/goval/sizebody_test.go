package goval

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// bodyLeaf's members to count are all lists counted by their length.
type bodyLeaf struct {
	Tags  []string   `json:"tags"`
	Flats []sizeFlat `json:"flats"`
	N     int        `json:"n"`
}

// bodyMixed has members of every kind the measure counts or calls.
type bodyMixed struct {
	Tags   []string       `json:"tags"`
	Flats  []sizeFlat     `json:"flats"`
	M      map[string]int `json:"m"`
	F      *sizeFlat      `json:"f"`
	Leaf   *bodyLeaf      `json:"leaf"`
	Leaves []bodyLeaf     `json:"leaves"`
	Ptrs   []*bodyLeaf    `json:"ptrs"`
	Arr    [2]bodyLeaf    `json:"arr"`
	Nested [][]bodyLeaf   `json:"nested"`
}

// bodyTwoLists is two visits to the measure: itself and its list L.
type bodyTwoLists struct {
	P *bodyLeaf  `json:"p"`
	L []bodyLeaf `json:"l"`
	T []string   `json:"t"`
}

type bodyDoc struct {
	Mixed  []bodyMixed `json:"mixed"`
	One    bodyMixed   `json:"one"`
	Leaves []bodyLeaf  `json:"leaves"`
	Ptr    *bodyMixed  `json:"ptr"`
	Leaf   *bodyLeaf   `json:"leaf"`
}

// TestSizeBodiesAreTheWalks: on random values of types that take every
// path of the compiled measure (lists of structs measured in one call,
// structs behind pointers, in arrays, in lists of lists), the measure
// counts what the walk counts (but for nil lists and maps, counted as
// empty), and gives up exactly when a list is longer than maxList.
func TestSizeBodiesAreTheWalks(t *testing.T) {
	n := nodeFor(t, reflect.TypeFor[bodyDoc]())
	require.True(t, n.size.ok)
	rapid.Check(t, func(t *rapid.T) {
		v := genBodyDoc(t)
		maxList := rapid.IntRange(1, 3).Draw(t, "maxList")
		x := reflect.ValueOf(&v).Elem()
		_, ok := fastSize(x, n, maxList)
		longest := longestList(x)
		if ok != (longest <= maxList) {
			t.Fatalf("longest list %d, maxList %d: measured %v", longest, maxList, ok)
		}
		fast, ok := fastSize(x, n, 100)
		require.True(t, ok)
		b := NewBudget(jsonval.Limits{MaxNodes: 1 << 20})
		require.NoError(t, b.MeasureTyped(x, n, "doc"))
		require.Equal(t, b.max-b.left+nilContainers(x), fast)
	})
}

// TestSizeBodiesGiveUpAtMemoFrom: the measure gives up once it has
// visited memoFrom structs and lists, the visits of a list of structs
// counted element by element: a struct, its list and n leaves are n+2
// visits; a struct, its list and n elements of two lists each are
// 2n+2.
func TestSizeBodiesGiveUpAtMemoFrom(t *testing.T) {
	type leaves struct {
		L []bodyLeaf `json:"l"`
	}
	type lists struct {
		L []bodyTwoLists `json:"l"`
	}
	ln, mn := nodeFor(t, reflect.TypeFor[leaves]()), nodeFor(t, reflect.TypeFor[lists]())
	for _, c := range []struct {
		n    *Node
		v    reflect.Value
		want bool
	}{
		{ln, reflect.ValueOf(&leaves{L: make([]bodyLeaf, memoFrom-3)}).Elem(), true},
		{ln, reflect.ValueOf(&leaves{L: make([]bodyLeaf, memoFrom-2)}).Elem(), false},
		{mn, reflect.ValueOf(&lists{L: make([]bodyTwoLists, (memoFrom-3)/2)}).Elem(), true},
		{mn, reflect.ValueOf(&lists{L: make([]bodyTwoLists, (memoFrom-1)/2)}).Elem(), false},
	} {
		fast, ok := fastSize(c.v, c.n, memoFrom)
		require.Equal(t, c.want, ok, "%v of %d", c.v.Type(), c.v.Field(0).Len())
		if ok {
			b := NewBudget(jsonval.Limits{MaxNodes: 1 << 20})
			require.NoError(t, b.MeasureTyped(c.v, c.n, "doc"))
			require.Equal(t, b.max-b.left+nilContainers(c.v), fast)
		}
	}
}

// longestList is the length of the longest slice or array v reaches.
func longestList(v reflect.Value) int {
	k := 0
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			k = longestList(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			k = max(k, longestList(v.Field(i)))
		}
	case reflect.Slice, reflect.Array:
		k = v.Len()
		for i := range v.Len() {
			k = max(k, longestList(v.Index(i)))
		}
	}
	return k
}

func genBodyDoc(t *rapid.T) bodyDoc {
	return bodyDoc{
		Mixed:  genList(t, "mixed", genBodyMixed),
		One:    genBodyMixed(t),
		Leaves: genList(t, "leaves", genBodyLeaf),
		Ptr:    genPtr(t, "ptr", genBodyMixed),
		Leaf:   genPtr(t, "leaf", genBodyLeaf),
	}
}

func genBodyMixed(t *rapid.T) bodyMixed {
	var m map[string]int
	switch rapid.IntRange(0, 2).Draw(t, "map") {
	case 1:
		m = map[string]int{}
	case 2:
		m = map[string]int{"a": 1, "b": 2}
	}
	return bodyMixed{
		Tags:   genList(t, "tags", func(*rapid.T) string { return "t" }),
		Flats:  genList(t, "flats", func(*rapid.T) sizeFlat { return sizeFlat{} }),
		M:      m,
		F:      genPtr(t, "f", func(*rapid.T) sizeFlat { return sizeFlat{} }),
		Leaf:   genPtr(t, "leaf", genBodyLeaf),
		Leaves: genList(t, "leaves", genBodyLeaf),
		Ptrs:   genList(t, "ptrs", func(t *rapid.T) *bodyLeaf { return genPtr(t, "p", genBodyLeaf) }),
		Arr:    [2]bodyLeaf{genBodyLeaf(t), genBodyLeaf(t)},
		Nested: genList(t, "nested", func(t *rapid.T) []bodyLeaf { return genList(t, "in", genBodyLeaf) }),
	}
}

func genBodyLeaf(t *rapid.T) bodyLeaf {
	return bodyLeaf{
		Tags:  genList(t, "tags", func(*rapid.T) string { return "t" }),
		Flats: genList(t, "flats", func(*rapid.T) sizeFlat { return sizeFlat{} }),
	}
}

// genList draws a nil, empty or short list of gen's values.
func genList[T any](t *rapid.T, label string, gen func(*rapid.T) T) []T {
	n := rapid.IntRange(-1, 3).Draw(t, label)
	if n < 0 {
		return nil
	}
	l := make([]T, n)
	for i := range l {
		l[i] = gen(t)
	}
	return l
}

func genPtr[T any](t *rapid.T, label string, gen func(*rapid.T) T) *T {
	if !rapid.Bool().Draw(t, label) {
		return nil
	}
	v := gen(t)
	return &v
}

// TestSizeBodiesGiveUpOnLongLists: a list one longer than maxList makes
// the measure give up wherever it sits, in the last of several elements
// too; one of maxList elements does not.
func TestSizeBodiesGiveUpOnLongLists(t *testing.T) {
	n := nodeFor(t, reflect.TypeFor[bodyDoc]())
	const maxList = 2
	for name, set := range map[string]func(d *bodyDoc, l int){
		"leaf tags":        func(d *bodyDoc, l int) { d.Leaves[1].Tags = make([]string, l) },
		"leaf flats":       func(d *bodyDoc, l int) { d.Leaves[1].Flats = make([]sizeFlat, l) },
		"leaves":           func(d *bodyDoc, l int) { d.Leaves = make([]bodyLeaf, l) },
		"mixed tags":       func(d *bodyDoc, l int) { d.Mixed[1].Tags = make([]string, l) },
		"mixed flats":      func(d *bodyDoc, l int) { d.Mixed[1].Flats = make([]sizeFlat, l) },
		"pointed leaf":     func(d *bodyDoc, l int) { d.Leaf = &bodyLeaf{Flats: make([]sizeFlat, l)} },
		"leaf in mixed":    func(d *bodyDoc, l int) { d.Mixed[1].Leaf = &bodyLeaf{Tags: make([]string, l)} },
		"array's leaf":     func(d *bodyDoc, l int) { d.Mixed[1].Arr[1].Flats = make([]sizeFlat, l) },
		"nested":           func(d *bodyDoc, l int) { d.Mixed[1].Nested = [][]bodyLeaf{nil, make([]bodyLeaf, l)} },
		"nested leaf tags": func(d *bodyDoc, l int) { d.Mixed[1].Nested = [][]bodyLeaf{{{}, {Tags: make([]string, l)}}} },
		"pointed mixed":    func(d *bodyDoc, l int) { d.Ptr = &bodyMixed{Ptrs: []*bodyLeaf{nil, {Tags: make([]string, l)}}} },
	} {
		for _, l := range []int{maxList, maxList + 1} {
			d := bodyDoc{Leaves: make([]bodyLeaf, 2), Mixed: make([]bodyMixed, 2)}
			set(&d, l)
			_, ok := fastSize(reflect.ValueOf(&d).Elem(), n, maxList)
			require.Equal(t, l <= maxList, ok, "%s of %d", name, l)
		}
	}
}
