package smp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// numItem is merged by a key held as a number literal.
type numItem struct {
	K json.Number `json:"k"`
	V string      `json:"v,omitempty"`
}

// numDoc holds numbers in the places that identify: a merge key, a set and
// a two-field key of a number and a string.
type numDoc struct {
	List  []numItem     `json:"list,omitempty" patchStrategy:"merge" patchMergeKey:"k"`
	Set   []json.Number `json:"set,omitempty" patchStrategy:"merge"`
	Pairs []numPair     `json:"pairs,omitempty" patchStrategy:"merge" patchMergeKey:"k,name"`
}

type numPair struct {
	K    json.Number `json:"k"`
	Name string      `json:"name"`
	V    string      `json:"v,omitempty"`
}

var (
	million  = "0." + strings.Repeat("7", 1_000_000)       // a million fraction digits
	million2 = "7." + strings.Repeat("7", 999_999) + "e-1" // the same value
	millionX = "0." + strings.Repeat("7", 999_999) + "8"   // another
)

// decodeDoc decodes a result, keeping numbers as text.
func decodeDoc(t *testing.T, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	return m
}

// field returns the named field of every element of a list of objects.
func field(list any, name string) []any {
	var out []any
	for _, e := range list.([]any) {
		out = append(out, e.(map[string]any)[name])
	}
	return out
}

func TestNumberSetsByValue(t *testing.T) {
	doc := []byte(`{"set":[1e99999,53,-0,1e-99999,` + million + `]}`)
	patch := []byte(`{"set":[10e99998,5.3e1,0,0.1e-99998,` + million2 + `,` + millionX + `,2]}`)
	out, err := smp.ApplyJSON(doc, patch, &numDoc{})
	require.NoError(t, err)
	set := decodeDoc(t, out)["set"].([]any)
	assert.Len(t, set, 7, "only %s and 2 are new", millionX[:10])
	assert.Contains(t, set, json.Number("2"))

	del := []byte(`{"$deleteFromPrimitiveList/set":[0.1e100000,-0.0,` + million2 + `]}`)
	out, err = smp.ApplyJSON(doc, del, &numDoc{})
	require.NoError(t, err)
	assert.Equal(t, []any{json.Number("53"), json.Number("1e-99999")}, decodeDoc(t, out)["set"])

	// The typed API, on the same values.
	var cur numDoc
	require.NoError(t, json.Unmarshal(doc, &cur))
	res, err := smp.Apply(cur, typedMustParse(t, string(del)))
	require.NoError(t, err)
	assert.Equal(t, []json.Number{"53", "1e-99999"}, res.Set)
}

func TestNumberMergeKeysByValue(t *testing.T) {
	doc := []byte(`{"list":[{"k":1e99999,"v":"a"},{"k":1e-99999,"v":"b"},{"k":53,"v":"c"},{"k":-0,"v":"d"},{"k":` + million + `,"v":"e"}]}`)
	patch := []byte(`{"list":[{"k":10e99998,"v":"A"},{"k":530e-1,"$patch":"delete"},{"k":0.0,"v":"D"},{"k":` + million2 + `,"v":"E"},{"k":` + millionX + `,"v":"F"}]}`)
	want := []any{"A", "b", "D", "E", "F"}
	out, err := smp.ApplyJSON(doc, patch, &numDoc{})
	require.NoError(t, err)
	assert.Equal(t, want, field(decodeDoc(t, out)["list"], "v"))

	var cur numDoc
	require.NoError(t, json.Unmarshal(doc, &cur))
	res, err := smp.Apply(cur, typedMustParse(t, string(patch)))
	require.NoError(t, err)
	var got []any
	for _, e := range res.List {
		got = append(got, e.V)
	}
	assert.Equal(t, want, got)

	// Two fields: a number and a string.
	doc = []byte(`{"pairs":[{"k":1e99999,"name":"x","v":"a"},{"k":1e99999,"name":"y","v":"b"},{"k":2e99999,"name":"x","v":"c"}]}`)
	patch = []byte(`{"pairs":[{"k":0.1e100000,"name":"y","v":"B"},{"k":20e99998,"name":"x","$patch":"delete"}]}`)
	out, err = smp.ApplyJSON(doc, patch, &numDoc{})
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "B"}, field(decodeDoc(t, out)["pairs"], "v"))
}

// numberDocs are an original and a modified document whose numbers change
// spelling, value, or neither.
func numberDocs() (original, modified numDoc) {
	original = numDoc{
		List:  []numItem{{K: "1e99999", V: "a"}, {K: "1e-99999", V: "b"}, {K: json.Number(million), V: "c"}, {K: "-0", V: "d"}},
		Set:   []json.Number{"1e99999", json.Number(million), "53"},
		Pairs: []numPair{{K: "1e99999", Name: "\x00", V: "a"}, {K: "1e99999", Name: "x", V: "b"}},
	}
	modified = numDoc{
		List:  []numItem{{K: "10e99998", V: "A"}, {K: json.Number(million2), V: "c"}, {K: "0", V: "D"}, {K: "2e99999", V: "new"}},
		Set:   []json.Number{"1e99999", json.Number(millionX), "5.3e1"},
		Pairs: []numPair{{K: "0.1e100000", Name: "x", V: "B"}},
	}
	return original, modified
}

// sameNumber compares json.Numbers by value, as an independent check: the
// significant digits and the exponent, computed with big.Int. A re-spelled
// merge key or set element is the same element, and a patch keeps its
// spelling.
var sameNumber = cmp.Comparer(func(a, b json.Number) bool {
	norm := func(s string) string {
		mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
		neg := strings.HasPrefix(mant, "-")
		mant = strings.TrimPrefix(mant, "-")
		intPart, frac, _ := strings.Cut(mant, ".")
		if exp == "" {
			exp = "0"
		}
		e, _ := new(big.Int).SetString(strings.TrimPrefix(exp, "+"), 10)
		digits := intPart + frac
		lead := len(digits) - len(strings.TrimLeft(digits, "0"))
		digits = strings.TrimRight(digits[lead:], "0")
		if digits == "" {
			return "0"
		}
		e.Add(e, big.NewInt(int64(len(intPart)-lead)))
		return fmt.Sprint(neg, digits, e)
	}
	return norm(string(a)) == norm(string(b))
})

func TestNumberDiffRoundTrip(t *testing.T) {
	o, m := numberDocs()
	p, err := smp.Diff(o, m)
	require.NoError(t, err)
	got, err := smp.Apply(o, p)
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(m, got, sameNumber), "typed: patch %.300s", p)

	od, _ := json.Marshal(o)
	md, _ := json.Marshal(m)
	jp, err := smp.DiffJSON(od, md, &numDoc{})
	require.NoError(t, err)
	res, err := smp.ApplyJSON(od, jp, &numDoc{})
	require.NoError(t, err)
	var back numDoc
	require.NoError(t, json.Unmarshal(res, &back))
	assert.Empty(t, cmp.Diff(m, back, sameNumber), "JSON: patch %.300s", jp)

	// Three-way, with current equal to original.
	tp, err := smp.ThreeWay(o, m, o)
	require.NoError(t, err)
	got, err = smp.Apply(o, tp)
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(m, got, sameNumber), "typed three-way: patch %.300s", tp)
	jp, err = smp.ThreeWayJSON(od, md, od, &numDoc{}, smp.WithOverwrite(false))
	require.NoError(t, err)
	res, err = smp.ApplyJSON(od, jp, &numDoc{})
	require.NoError(t, err)
	back = numDoc{}
	require.NoError(t, json.Unmarshal(res, &back))
	assert.Empty(t, cmp.Diff(m, back, sameNumber), "JSON three-way: patch %.300s", jp)
}

// allocated returns the bytes f allocates: the least of three runs, as
// the process's count also holds what other goroutines allocate meanwhile.
func allocated(f func()) uint64 {
	least := uint64(1<<64 - 1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// TestHugeNumbersCostLinear: issue #14's inputs (documents and patches of
// numbers such as 1e99999, a million fraction digits) cost memory linear
// in their size, through every entry point. Before, the 9 KB document
// allocated 682 MB to apply a patch, 1.4 GB to diff.
func TestHugeNumbersCostLinear(t *testing.T) {
	exps := hugeExponentDoc(9 << 10)
	bigExp := []byte(`{"metadata":{"finalizers":[1e` + strings.Repeat("9", 100_000) + `,1e-` + strings.Repeat("9", 100_000) + `]}}`)
	var ports strings.Builder
	for i := range 200 { // a 2 KB patch the type check rejects
		fmt.Fprintf(&ports, `{"containerPort":%de99999},`, i+1)
	}
	portPatch := []byte(`{"spec":{"containers":[{"name":"c","ports":[` + strings.TrimSuffix(ports.String(), ",") + `]}]}}`)
	pod := []byte(`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":1e99999}]}]}}`)
	frac := longFractionDoc(1_000_000)
	x := []byte(`{"metadata":{"finalizers":["x"]}}`)
	cases := []struct {
		name string
		in   int
		run  func() error
	}{
		{"apply to exponents", len(exps), func() error { _, err := smp.ApplyJSON(exps, x, &exampletypes.ConfigMap{}); return err }},
		{"apply exponents", len(exps), func() error {
			_, err := smp.ApplyJSON(x, exps, &exampletypes.ConfigMap{}, smp.WithTypeChecks(false))
			return err
		}},
		{"diff exponents", len(exps), func() error { _, err := smp.DiffJSON(exps, x, &exampletypes.ConfigMap{}); return err }},
		{"three-way exponents", 2 * len(exps), func() error {
			_, err := smp.ThreeWayJSON(x, exps, exps, &exampletypes.ConfigMap{}, smp.WithOverwrite(false))
			return err
		}},
		{"long exponents", len(bigExp), func() error { _, err := smp.DiffJSON(bigExp, x, &exampletypes.ConfigMap{}); return err }},
		{"rejected ports", len(portPatch) + len(pod), func() error {
			_, err := smp.ApplyJSON(pod, portPatch, &exampletypes.Pod{})
			if smp.KindOf(err) != smp.ErrInvalidValue {
				return fmt.Errorf("want InvalidValue, got %v", err)
			}
			return nil
		}},
		{"apply to fraction", len(frac), func() error { _, err := smp.ApplyJSON(frac, x, &exampletypes.ConfigMap{}); return err }},
		{"diff fraction", len(frac), func() error { _, err := smp.DiffJSON(frac, x, &exampletypes.ConfigMap{}); return err }},
	}
	for _, c := range cases {
		var err error
		n := allocated(func() { err = c.run() })
		require.NoError(t, err, c.name)
		assert.LessOrEqual(t, n, uint64(64*c.in+1<<20), "%s: %d bytes of input", c.name, c.in)
	}
}

// TestHugeNumbersTypedFields: a typed field refuses a number it cannot
// hold, as docs/compat.md says; a number field keeps any.
func TestHugeNumbersTypedFields(t *testing.T) {
	type fields struct {
		F float64     `json:"f,omitempty"`
		I int32       `json:"i,omitempty"`
		N json.Number `json:"n,omitempty"`
	}
	for _, p := range []string{`{"f":1e99999}`, `{"f":-1e400}`, `{"i":1e99999}`, `{"i":1e1}`} {
		_, err := smp.ApplyJSON([]byte(`{}`), []byte(p), &fields{})
		assert.Equal(t, smp.ErrInvalidValue, smp.KindOf(err), "%s: %v", p, err)
	}
	out, err := smp.ApplyJSON([]byte(`{"n":1}`), []byte(`{"n":1e99999}`), &fields{})
	require.NoError(t, err)
	assert.Equal(t, `{"n":1e99999}`, string(out))
}
