package goval

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

type sizeFlat struct {
	X int    `json:"x"`
	Y string `json:"y"`
}

type sizeInner struct {
	A []string       `json:"a"`
	M map[string]int `json:"m"`
	F *sizeFlat      `json:"f"`
	P *sizeInner     `json:"p"`
}

type sizeOuter struct {
	L    []string          `json:"l"`
	M    map[string]string `json:"m"`
	F    *sizeFlat         `json:"f"`
	P    *sizeInner        `json:"p"`
	In   sizeInner         `json:"in"`
	Fs   []sizeFlat        `json:"fs"`
	Deep []sizeInner       `json:"deep"`
	Name string            `json:"name"`
}

// TestFastSizeIsTheWalks: the compiled measure counts what the walk
// counts, with lists, maps and pointers nil, empty or set, but for one
// unit for each nil list or map, which it counts as empty (a bound).
func TestFastSizeIsTheWalks(t *testing.T) {
	n := nodeFor(t, reflect.TypeFor[sizeOuter]())
	require.True(t, n.size.ok)
	full := sizeInner{A: []string{"a", "b"}, M: map[string]int{"k": 1}, F: &sizeFlat{}, P: &sizeInner{A: []string{}}}
	for i, v := range []sizeOuter{
		{},
		{L: []string{}, M: map[string]string{}, Fs: []sizeFlat{}, Deep: []sizeInner{}, In: sizeInner{A: []string{}, M: map[string]int{}}},
		{L: []string{"x"}, M: map[string]string{"a": "b", "c": "d"}, F: &sizeFlat{}, P: &full, In: full, Fs: []sizeFlat{{}, {}}, Deep: []sizeInner{{}, full}},
		{P: &sizeInner{}, Deep: []sizeInner{{P: &full}}},
	} {
		x := reflect.ValueOf(&v).Elem()
		fast, ok := fastSize(x, n, 100)
		require.True(t, ok)
		b := NewBudget(jsonval.Limits{MaxNodes: 1 << 20})
		require.NoError(t, b.MeasureTyped(x, n, "doc"))
		require.Equal(t, b.max-b.left+nilContainers(x), fast, "value %d", i)
	}
}

// nilContainers counts the nil slices and maps v reaches.
func nilContainers(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		return nilContainers(v.Elem())
	case reflect.Struct:
		k := 0
		for i := range v.NumField() {
			k += nilContainers(v.Field(i))
		}
		return k
	case reflect.Slice, reflect.Map, reflect.Array:
		if v.Kind() != reflect.Array && v.IsNil() {
			return 1
		}
		k := 0
		if v.Kind() != reflect.Map {
			for i := range v.Len() {
				k += nilContainers(v.Index(i))
			}
		}
		return k
	}
	return 0
}
