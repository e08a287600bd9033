package format

import (
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// keyFieldValue is one key field of an element: absent, or a JSON scalar.
type keyFieldValue struct {
	present bool
	v       any
}

// drawKeyValue draws a key field's value from a small alphabet of
// strings rich in the bytes identities are built of, numbers in several
// spellings, booleans, null, and absence.
func drawKeyValue(t *rapid.T, label string) keyFieldValue {
	switch rapid.IntRange(0, 9).Draw(t, label+".kind") {
	case 0:
		return keyFieldValue{}
	case 1:
		return keyFieldValue{true, nil}
	case 2:
		return keyFieldValue{true, rapid.Bool().Draw(t, label+".bool")}
	case 3, 4:
		return keyFieldValue{true, json.Number(rapid.SampledFrom([]string{
			"0", "-0", "1", "1.0", "10e-1", "53", "5.3e1", "2", "1e99999", "10e99998", "-1e-99999",
		}).Draw(t, label+".number"))}
	}
	alphabet := rapid.SampledFrom([]rune{0, 1, 2, 3, 0x1f, ';', 's', 'n', 'z', 'a', 'x', 'N', '1', 'e', '?', 'é'})
	if rapid.Bool().Draw(t, label+".tiny") { // the bytes of a separator and a tag: splices are likely
		alphabet = rapid.SampledFrom([]rune{0, 's'})
		return keyFieldValue{true, string(rapid.SliceOfN(alphabet, 0, 2).Draw(t, label+".tiny"))}
	}
	return keyFieldValue{true, string(rapid.SliceOfN(alphabet, 0, 6).Draw(t, label+".string"))}
}

// sameKeyValue is the identity's specification: equal JSON scalars, with
// numbers compared by value (big.Rat, on small exponents only).
func sameKeyValue(a, b keyFieldValue) bool {
	if a.present != b.present {
		return false
	}
	an, aNum := a.v.(json.Number)
	bn, bNum := b.v.(json.Number)
	if aNum && bNum {
		if an == bn {
			return true
		}
		ra, okA := new(big.Rat).SetString(string(an))
		rb, okB := new(big.Rat).SetString(string(bn))
		huge := len(an) > 6 || len(bn) > 6 // 1e99999 and kin: equal to their own class only
		if huge {
			cls := map[string]int{"1e99999": 1, "10e99998": 1, "-1e-99999": 2}
			return cls[string(an)] != 0 && cls[string(an)] == cls[string(bn)]
		}
		return okA && okB && ra.Cmp(rb) == 0
	}
	return a.v == b.v
}

func elementOf(fields []string, vals []keyFieldValue) map[string]any {
	m := map[string]any{"other": "x"}
	for i, f := range fields {
		if vals[i].present {
			m[f] = vals[i].v
		}
	}
	return m
}

// TestIdentityInjective: two elements share an identity under a key set
// exactly when their key fields are equal JSON values, for one, two and
// three fields, for decoded and raw elements alike.
func TestIdentityInjective(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 3).Draw(t, "fields")
		ks := KeySet{Fields: []string{"a", "b", "c"}[:n]}
		// Values come from a small pool, so that equal values and values
		// rearranged across fields are common.
		pool := make([]keyFieldValue, 3)
		for i := range pool {
			pool[i] = drawKeyValue(t, fmt.Sprintf("pool%d", i))
		}
		pick := rapid.IntRange(0, len(pool)-1)
		elems := make([][]keyFieldValue, 10)
		for i := range elems {
			elems[i] = make([]keyFieldValue, n)
			for j := range n {
				elems[i][j] = pool[pick.Draw(t, fmt.Sprintf("e%d.%d", i, j))]
			}
		}
		for i, a := range elems {
			ea := elementOf(ks.Fields, a)
			ida, _ := ks.ID(ea)
			checkRawID(t, ks, ea, ida)
			for _, b := range elems[i+1:] {
				same := true
				for j := range n {
					same = same && sameKeyValue(a[j], b[j])
				}
				eb := elementOf(ks.Fields, b)
				idb, _ := ks.ID(eb)
				if (ida == idb) != same {
					t.Fatalf("%#v and %#v: identities %q and %q, equal values: %v", ea, eb, ida, idb, same)
				}
			}
		}
	})
}

// checkRawID checks that the element, encoded, has the identity id and
// that it is not the identity of a non-object.
func checkRawID(t *rapid.T, ks KeySet, e map[string]any, id string) {
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if raw := ks.RawID(jsonval.Raw(data)); raw != id {
		t.Fatalf("%s: raw identity %q, decoded %q", data, raw, id)
	}
	if id == "\x02" {
		t.Fatalf("%#v has the identity of a non-object", e)
	}
}

// TestIdentityExhaustive: over every tuple of one to three fields drawn
// from values built of the identities' own bytes, identities and values
// are in one-to-one correspondence.
func TestIdentityExhaustive(t *testing.T) {
	universe := []keyFieldValue{{}, {true, nil}, {true, true}, {true, false}, {true, ""}, {true, "\x00"}, {true, "s"},
		{true, "\x00s"}, {true, "s\x00"}, {true, "\x00s\x00"}, {true, "\x01"}, {true, "\x02"}, {true, "t"}, {true, "1"},
		{true, "n1;"}, {true, json.Number("1")}, {true, json.Number("1.0")}, {true, json.Number("10")}, {true, json.Number("?")}}
	// oracle names a value: its type and, for numbers, big.Rat's form.
	oracle := func(v keyFieldValue) string {
		if n, ok := v.v.(json.Number); ok {
			if r, ok := new(big.Rat).SetString(string(n)); ok {
				return "number " + r.RatString()
			}
		}
		return fmt.Sprintf("%v %T %q", v.present, v.v, v.v)
	}
	for n := 1; n <= 3; n++ {
		ks := KeySet{Fields: []string{"a", "b", "c"}[:n]}
		byID := map[string]string{}
		byValue := map[string]string{}
		tuple := make([]keyFieldValue, n)
		var walk func(i int)
		walk = func(i int) {
			if i < n {
				for _, v := range universe {
					tuple[i] = v
					walk(i + 1)
				}
				return
			}
			var name string
			for _, v := range tuple {
				name += oracle(v) + "|"
			}
			id, _ := ks.ID(elementOf(ks.Fields, tuple))
			if prev, ok := byID[id]; ok && prev != name {
				t.Fatalf("%s and %s share the identity %q", prev, name, id)
			}
			if prev, ok := byValue[name]; ok && prev != id {
				t.Fatalf("%s has the identities %q and %q", name, prev, id)
			}
			byID[id], byValue[name] = name, id
		}
		walk(0)
	}
}

func TestIdentityCollisions(t *testing.T) {
	ks := KeySet{Fields: []string{"a", "b"}}
	pairs := [][2][]any{
		{{"x\x00sy", "z"}, {"x", "y\x00sz"}}, // issue #14
		{{"p\x00sq\x00sr", "s"}, {"p", "q\x00sr\x00ss"}},
		{{"\x01", "b"}, {nil, "b"}},
		{{"", "\x00"}, {"\x00", ""}},
		{{"1", "t"}, {json.Number("1"), true}},
		{{"n1;", "x"}, {json.Number("1"), "x"}},
		{{"?1", "x"}, {json.Number("?1"), "x"}},
	}
	for _, p := range pairs {
		a := map[string]any{"a": p[0][0], "b": p[0][1]}
		b := map[string]any{"a": p[1][0], "b": p[1][1]}
		ida, _ := ks.ID(a)
		idb, _ := ks.ID(b)
		assert.NotEqual(t, ida, idb, "%q and %q", p[0], p[1])
	}
	// One absent field differs from every value, "\x01" included.
	absent, _ := ks.ID(map[string]any{"b": "b"})
	for _, v := range []any{"\x01", "", nil, "a"} {
		id, _ := ks.ID(map[string]any{"a": v, "b": "b"})
		assert.NotEqual(t, absent, id, "%q", v)
	}
}

func TestKeySetSigInjective(t *testing.T) {
	sets := [][]string{{"a"}, {"a", "b"}, {"a\x00b"}, {"\x00a"}, {"\x00", "a"}, {""}, {"", ""}, {"ab"}, {"a", "b", "c"}, {"a", "b\x00c"}, {"\x01a"}}
	seen := map[string][]string{}
	for _, s := range sets {
		sig := KeySet{Fields: s}.Sig()
		if prev, ok := seen[sig]; ok {
			t.Errorf("%q and %q share the signature %q", s, prev, sig)
		}
		seen[sig] = s
	}
	assert.Zero(t, testing.AllocsPerRun(10, func() { _ = KeySet{Fields: []string{"name"}}.Sig() }))
}

// TestSingleKeyNoAllocation: the one-field identity of a plain string is
// the string itself.
func TestSingleKeyNoAllocation(t *testing.T) {
	ks := KeySet{Fields: []string{"name"}}
	elem := map[string]any{"name": "nginx"}
	assert.Zero(t, testing.AllocsPerRun(10, func() { _, _ = ks.ID(elem) }))
}
