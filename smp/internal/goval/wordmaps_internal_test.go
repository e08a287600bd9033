package goval

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf8"
)

type wordKey string

type (
	wordVal2 struct{ S string }
	wordVal7 struct {
		A    int64
		B    int32
		P    *int
		S, T string
	}
	words4    struct{ A, B, C, D int64 }
	wordVal16 struct {
		W1, W2, W3 words4
		S, T       string
	}
	wordVal17 struct { // past maxWordValue: read through reflect
		W1, W2, W3 words4
		X, Y, Z    int64
		S          string
	}
)

type wordDoc struct {
	M2  map[string]wordVal2             `json:"m2"`
	M7  map[wordKey]wordVal7            `json:"m7"`
	M16 map[string]wordVal16            `json:"m16"`
	M17 map[string]wordVal17            `json:"m17"`
	MM  map[string]map[string]wordVal2  `json:"mm"`
	MA  map[string]countedAmount        `json:"ma"`
	MP  map[string]*wordVal7            `json:"mp"`
	ML  map[string][]wordVal2           `json:"ml"`
	MI  map[string]int64                `json:"mi"`
	MMA map[string]map[string]wordVal16 `json:"mma"`
	// Past maxWordDepth: the innermost maps are read through reflect.
	MD map[string]map[string]map[string]map[string]map[string]wordVal2 `json:"md"`
}

// TestWordMapsFixAsReflect checks maps read as words against CopyValue:
// values of 2 to 17 words (past the bound: through reflect), maps in
// maps (five deep: past maxWordDepth), pointers and slices as values,
// marshallers remembered or not;
// maps of up to 40 entries, with strings that are not UTF-8 at every
// place of a value, and keys that are not (then the fix declines).
func TestWordMapsFixAsReflect(t *testing.T) {
	if !wordMapsRead() {
		t.Fatal("maps are not read as words")
	}
	n, err := planOfGo(reflect.TypeFor[wordDoc]())
	if err != nil {
		t.Fatal(err)
	}
	plan := plainCopyPlan(n)
	if plan == nil {
		t.Fatal("no plan for wordDoc")
	}
	read := map[reflect.Type]bool{}
	for _, f := range plan.fields {
		read[f.plan.mapT] = f.plan.ranger != nil
	}
	for typ, want := range map[reflect.Type]bool{
		reflect.TypeFor[map[string]wordVal2](): true, reflect.TypeFor[map[wordKey]wordVal7](): true,
		reflect.TypeFor[map[string]wordVal16](): true, reflect.TypeFor[map[string]wordVal17](): false,
		reflect.TypeFor[map[string]map[string]wordVal2](): true,
	} {
		if read[typ] != want {
			t.Errorf("%v read as words: %v, want %v", typ, read[typ], want)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	var fixed, changed, declined int
	for range 3000 {
		src := randWordDoc(r)
		ok, diff, err := fixAgainstCopy(t, n, src)
		if err != nil {
			t.Fatal(err)
		}
		if bad := badKeys(reflect.ValueOf(src).Elem()); ok == bad {
			t.Fatalf("fixed %v with keys not UTF-8 %v: %+v", ok, bad, src)
		}
		if !ok {
			declined++
			continue
		}
		fixed++
		if diff {
			changed++
		}
	}
	if fixed < 1000 || changed < 500 || declined < 100 || fixed-changed < 200 {
		t.Fatalf("fixed %d copies (%d changed), declined %d: too few to compare", fixed, changed, declined)
	}
}

// badKeys reports whether a map key in v is not valid UTF-8.
func badKeys(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if !utf8.ValidString(it.Key().String()) || badKeys(it.Value()) {
				return true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && badKeys(v.Field(i)) {
				return true
			}
		}
	case reflect.Pointer, reflect.Slice:
		if v.Kind() == reflect.Pointer && !v.IsNil() {
			return badKeys(v.Elem())
		}
		for i := 0; v.Kind() == reflect.Slice && i < v.Len(); i++ {
			if badKeys(v.Index(i)) {
				return true
			}
		}
	}
	return false
}

// randWordDoc draws a wordDoc whose strings are rarely not UTF-8, so
// that most maps read as words need no change.
func randWordDoc(r *rand.Rand) *wordDoc {
	str := func() string {
		if r.IntN(60) == 0 {
			return "caf\xe9"
		}
		return []string{"", "a", "web", "ok-name", "café"}[r.IntN(5)]
	}
	key := func(i int) string {
		if r.IntN(400) == 0 {
			return "\xff" + string(rune('a'+i))
		}
		return string(rune('a'+i%26)) + []string{"", "x", "yz"}[i/26%3]
	}
	size := func() int {
		switch r.IntN(4) {
		case 0:
			return -1 // nil
		case 1:
			return 1 + r.IntN(3)
		case 2:
			return 8 + r.IntN(33) // past one group of the runtime's
		}
		return 0
	}
	v2 := func() wordVal2 { return wordVal2{str()} }
	x := 3
	v7 := func() wordVal7 {
		v := wordVal7{A: r.Int64(), B: r.Int32(), S: str(), T: str()}
		if r.IntN(2) == 0 {
			v.P = &x
		}
		return v
	}
	v16 := func() wordVal16 { return wordVal16{W1: words4{A: r.Int64()}, W3: words4{D: 3}, S: str(), T: str()} }
	d := &wordDoc{}
	fill(r, &d.M2, size(), key, func() wordVal2 { return v2() })
	fill(r, &d.M7, size(), func(i int) wordKey { return wordKey(key(i)) }, v7)
	fill(r, &d.M16, size(), key, v16)
	fill(r, &d.M17, size(), key, func() wordVal17 { return wordVal17{W2: words4{B: r.Int64()}, Z: 1, S: str()} })
	fill(r, &d.MM, size(), key, func() map[string]wordVal2 {
		var m map[string]wordVal2
		fill(r, &m, size(), key, v2)
		return m
	})
	fill(r, &d.MA, size(), key, func() countedAmount {
		a := countedAmount{Unit: []string{"ki", "m", "Mi"}[r.IntN(3)]} // "Mi" decodes as "mi"
		if r.IntN(10) == 0 {
			a.ref = &x // made anew
		}
		return a
	})
	fill(r, &d.MP, size(), key, func() *wordVal7 {
		if r.IntN(3) == 0 {
			return nil
		}
		v := v7()
		return &v
	})
	fill(r, &d.ML, size(), key, func() []wordVal2 { return []wordVal2{v2(), v2()} })
	fill(r, &d.MI, size(), key, func() int64 { return r.Int64() })
	fill(r, &d.MMA, size(), key, func() map[string]wordVal16 {
		var m map[string]wordVal16
		fill(r, &m, size(), key, v16)
		return m
	})
	few := func() int { return r.IntN(3) }
	fill(r, &d.MD, few(), key, func() map[string]map[string]map[string]map[string]wordVal2 {
		var m3 map[string]map[string]map[string]map[string]wordVal2
		fill(r, &m3, few(), key, func() map[string]map[string]map[string]wordVal2 {
			var m2 map[string]map[string]map[string]wordVal2
			fill(r, &m2, few(), key, func() map[string]map[string]wordVal2 {
				var m1 map[string]map[string]wordVal2
				fill(r, &m1, few(), key, func() map[string]wordVal2 {
					var m map[string]wordVal2
					fill(r, &m, 1+few(), key, v2)
					return m
				})
				return m1
			})
			return m2
		})
		return m3
	})
	return d
}

// fill sets *m to a map of n entries (nil for -1).
func fill[K comparable, V any](r *rand.Rand, m *map[K]V, n int, key func(int) K, val func() V) {
	if n < 0 {
		return
	}
	*m = make(map[K]V, r.IntN(n+1))
	for i := range n {
		(*m)[key(i)] = val()
	}
}
