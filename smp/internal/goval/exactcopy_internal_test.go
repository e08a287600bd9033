package goval

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

type fixBase struct {
	Kind string `json:"kind"`
}

type fixLeaf struct {
	Name  string   `json:"name"`
	Tags  []string `json:"tags,omitempty"`
	Raw   []byte   `json:"raw,omitempty"`
	Score float64  `json:"score"`
}

// fixZero is zero, to omitzero, whenever N is.
type fixZero struct {
	N     int `json:"n"`
	Extra int `json:"extra"`
}

func (z fixZero) IsZero() bool { return z.N == 0 }

type fixDoc struct {
	fixBase
	Title   string                   `json:"title"`
	Labels  map[string]string        `json:"labels,omitempty"`
	Amounts map[string]countedAmount `json:"amounts,omitempty"`
	Amount  countedAmount            `json:"amount"`
	PAmount *countedAmount           `json:"pAmount,omitempty"`
	Leaves  []fixLeaf                `json:"leaves"`
	Items   []fixLeaf                `json:"items,omitempty"`
	PLeaf   *fixLeaf                 `json:"pLeaf,omitempty"`
	Opt     *string                  `json:"opt,omitempty"`
	Count   int32                    `json:"count,omitempty"`
	When    fixZero                  `json:"when,omitzero"`
	Inner   fixInner                 `json:"inner"`
}

// fixInner is a struct held in place, whose fields are fixed at their
// offsets in the struct that holds it.
type fixInner struct {
	N    int32   `json:"n"`
	Leaf fixLeaf `json:"leaf"`
	Note string  `json:"note"`
}

// TestFixPlainCopyIsCopyValue checks FixPlainCopy against CopyValue on
// random values: strings valid or not, slices and maps nil, empty or
// not under omitempty and without, marshallers whose round trip changes
// them (remembered, or holding a pointer and so made anew), omitzero,
// floats that are not finite. Wherever FixPlainCopy takes a plain deep
// copy, it must become CopyValue's copy; it must decline wherever
// CopyValue fails; the value copied is never changed.
func TestFixPlainCopyIsCopyValue(t *testing.T) {
	n, err := planOfGo(reflect.TypeFor[fixDoc]())
	if err != nil {
		t.Fatal(err)
	}
	if !PlainCopies(n) {
		t.Fatal("no plan for fixDoc")
	}
	r := rand.New(rand.NewPCG(5, 6))
	var fixed, changed, declined int
	for range 5000 {
		src := randFixDoc(r)
		ok, diff, werr := fixAgainstCopy(t, n, src)
		switch {
		case werr != nil && ok:
			t.Fatalf("fixed a copy of %+v, which CopyValue refuses: %v", src, werr)
		case werr != nil || !ok:
			declined++
			if werr == nil {
				t.Fatalf("declined %+v, which CopyValue copies", src)
			}
			continue
		}
		fixed++
		if diff {
			changed++
		}
	}
	if fixed < 3000 || changed < 2000 || declined < 50 {
		t.Fatalf("fixed %d copies (%d changed), declined %d: too few to compare", fixed, changed, declined)
	}
}

// fixAgainstCopy fixes a plain deep copy of src, a pointer to a struct of
// node n, and copies src through CopyValue: ok is what FixPlainCopy
// answers, changed whether it changed the copy, werr CopyValue's error.
// It fails the test where src changed, or where both succeed and the
// fixed copy is not CopyValue's.
func fixAgainstCopy(t *testing.T, n *Node, src any) (ok, changed bool, werr error) {
	t.Helper()
	sv := reflect.ValueOf(src)
	before := plainDeepCopy(sv).Interface()
	var c Copier
	want := reflect.New(n.GoType).Elem()
	werr = c.CopyValue(want, sv.Elem(), n)
	c.Release()
	cp := plainDeepCopy(sv)
	ok = FixPlainCopy(n, cp.Elem())
	if !reflect.DeepEqual(src, before) {
		t.Fatalf("the value copied changed: %+v, was %+v", src, before)
	}
	if ok && werr == nil && !reflect.DeepEqual(cp.Elem().Interface(), want.Interface()) {
		t.Fatalf("fixed copy of %+v:\n%+v\nwant\n%+v", src, cp.Elem().Interface(), want.Interface())
	}
	return ok, !reflect.DeepEqual(cp.Interface(), before), werr
}

// TestPlainCopiesRefuses: types whose copy a plain deep copy cannot be
// made into have no plan.
func TestPlainCopiesRefuses(t *testing.T) {
	type unexported struct {
		Name string `json:"name"`
		note string
	}
	type skipped struct {
		Name string `json:"name"`
		Skip string `json:"-"`
	}
	type untyped struct {
		Any any `json:"any"`
	}
	type intKeys struct {
		M map[int]string `json:"m"`
	}
	type quoted struct {
		N int `json:"n,string"`
	}
	type recursive struct {
		Next *recursive `json:"next"`
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[unexported](), reflect.TypeFor[skipped](), reflect.TypeFor[untyped](),
		reflect.TypeFor[intKeys](), reflect.TypeFor[quoted](), reflect.TypeFor[recursive](),
	} {
		n, err := planOfGo(typ)
		if err != nil {
			t.Fatal(err)
		}
		if PlainCopies(n) {
			t.Errorf("%v has a plan", typ)
		}
	}
}

// randFixDoc draws a fixDoc.
func randFixDoc(r *rand.Rand) *fixDoc {
	str := func() string {
		return []string{"", "a", "Web", "caf\xe9", "\xff\xfe", "ok-name"}[r.IntN(6)]
	}
	amount := func() countedAmount {
		a := countedAmount{Unit: []string{"Ki", "mi", "M", "", "\xff"}[r.IntN(5)]}
		if r.IntN(4) == 0 {
			a.ref = new(int) // not plain data now: made anew every time
		}
		return a
	}
	leaf := func() fixLeaf {
		l := fixLeaf{Name: str(), Score: float64(r.IntN(5))}
		switch r.IntN(3) {
		case 0:
			l.Tags = []string{}
		case 1:
			l.Tags = []string{str(), str()}
		}
		switch r.IntN(3) {
		case 0:
			l.Raw = []byte{}
		case 1:
			l.Raw = []byte(str())
		}
		if r.IntN(150) == 0 {
			l.Score = math.Inf(1 - 2*r.IntN(2)) // NaN would not equal itself below
		}
		return l
	}
	leaves := func() []fixLeaf {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []fixLeaf{}
		}
		out := make([]fixLeaf, 1+r.IntN(3))
		for i := range out {
			out[i] = leaf()
		}
		return out
	}
	d := &fixDoc{fixBase: fixBase{Kind: str()}, Title: str(), Amount: amount(), Leaves: leaves(), Items: leaves(),
		Count: int32(r.IntN(3)), When: fixZero{N: r.IntN(2), Extra: r.IntN(2)},
		Inner: fixInner{N: int32(r.IntN(3)), Leaf: leaf(), Note: str()}}
	switch r.IntN(3) {
	case 0:
		d.Labels = map[string]string{}
	case 1:
		d.Labels = map[string]string{"app": str(), "tier": str()}
	}
	switch r.IntN(3) {
	case 0:
		d.Amounts = map[string]countedAmount{}
	case 1:
		d.Amounts = map[string]countedAmount{"cpu": amount(), "memory": amount()}
	}
	if r.IntN(2) == 0 {
		a := amount()
		d.PAmount = &a
	}
	if r.IntN(2) == 0 {
		l := leaf()
		d.PLeaf = &l
	}
	if r.IntN(2) == 0 {
		s := str()
		d.Opt = &s
	}
	return d
}

// plainDeepCopy copies v as generated DeepCopyInto code does: every
// pointer, slice and map anew, nil kept nil and empty kept empty,
// unexported fields as they are.
func plainDeepCopy(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			out.Set(plainDeepCopy(v.Elem()).Addr())
		}
	case reflect.Slice:
		if !v.IsNil() {
			out.Set(reflect.MakeSlice(v.Type(), v.Len(), v.Len()))
			for i := range v.Len() {
				out.Index(i).Set(plainDeepCopy(v.Index(i)))
			}
		}
	case reflect.Map:
		if !v.IsNil() {
			out.Set(reflect.MakeMapWithSize(v.Type(), v.Len()))
			for it := v.MapRange(); it.Next(); {
				out.SetMapIndex(it.Key(), plainDeepCopy(it.Value()))
			}
		}
	case reflect.Struct:
		out.Set(v)
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out.Field(i).Set(plainDeepCopy(v.Field(i)))
			}
		}
	default:
		out.Set(v)
	}
	return out
}

// TestValidUTF8 checks the ASCII fast path against utf8.ValidString: at
// every length to 20, a byte past ASCII (alone, or the start of a valid
// rune) at every position.
func TestValidUTF8(t *testing.T) {
	for n := range 21 {
		ascii := strings.Repeat("a", n)
		if !validUTF8(ascii) {
			t.Fatalf("%q: not valid", ascii)
		}
		for i := range n {
			for _, bad := range []string{"\xff", "\xc3", "\xe9"} {
				s := ascii[:i] + bad + ascii[i+1:]
				if validUTF8(s) != utf8.ValidString(s) {
					t.Fatalf("%q: valid %v, utf8.ValidString %v", s, validUTF8(s), utf8.ValidString(s))
				}
			}
			if s := ascii[:i] + "é" + ascii[i:]; !validUTF8(s) {
				t.Fatalf("%q: not valid", s)
			}
		}
	}
}
