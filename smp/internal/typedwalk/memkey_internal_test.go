package typedwalk

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// memKeyElem has key fields of every kind readMemKey reads.
type memKeyElem struct {
	Name  string `json:"name,omitempty"`
	Port  int32  `json:"port"`
	Small int8   `json:"small,omitempty"`
	Big   uint64 `json:"big,omitempty"`
	Count uint16 `json:"count"`
}

// TestMemKeysMatchValues checks the keys read from memory against the key
// fields compared as values, on random lists keyed by a string, signed
// and unsigned integers: positionalByMemory, where it is sure, against
// positionalByValue, and baseKeys.find, where it read the keys, against
// baseElem. Strings include invalid UTF-8 and the empty (absent) one,
// numbers negative ones and values whose low bytes agree.
func TestMemKeysMatchValues(t *testing.T) {
	root, err := goval.RootFor(reflect.TypeFor[memKeyElem]())
	require.NoError(t, err)
	en := root.Node
	d := &tdiffer{Differ: &engine.Differ{Cfg: &engine.Config{}}, Scratch: goval.GetScratch()}
	defer goval.PutScratch(d.Scratch)

	r := rand.New(rand.NewPCG(7, 8))
	names := []string{"", "a", "b", "\xff", "\xfe", "c"}
	ints := []int64{0, 1, -1, 255, -255, 256, 1 << 40}
	elem := func() memKeyElem {
		n := ints[r.IntN(len(ints))]
		return memKeyElem{Name: names[r.IntN(len(names))], Port: int32(n), Small: int8(n), Big: uint64(n), Count: uint16(n)}
	}
	list := func(n int) []memKeyElem {
		l := make([]memKeyElem, n)
		for i := range l {
			l[i] = elem()
		}
		return l
	}
	counts := map[string]int{}
	for range 20000 {
		f := en.Fields[r.IntN(len(en.Fields))]
		require.True(t, f.FastKey(), "field %s", f.Name)
		ks := format.KeySet{Fields: []string{f.Name}}
		n := r.IntN(6)
		o := list(n)
		m := append([]memKeyElem(nil), o...)
		if n > 0 && r.IntN(2) == 0 {
			m[r.IntN(n)] = elem()
		}
		ov, mv := reflect.ValueOf(o), reflect.ValueOf(m)

		if ok, sure := d.positionalByMemory(ov, mv, f); sure {
			kf := []*goval.Field{f}
			require.Equal(t, d.positionalByValue(ov, mv, kf, kf, false), ok, "positional %s: %+v → %+v", f.Name, o, m)
			counts["positional, "+map[bool]string{true: "yes", false: "no"}[ok]]++
		} else {
			counts["positional unsure"]++
		}

		base := list(r.IntN(6))
		bv := reflect.ValueOf(base)
		var bk baseKeys
		bk.read(bv, en, ks)
		for i := range m {
			got, read := bk.find(bv, mv.Index(i))
			if !read {
				counts["find deferred"]++
				continue
			}
			want := d.baseElem(bv, mv.Index(i), en, ks)
			require.Equal(t, want.IsValid(), got.IsValid(), "find %s of %+v in %+v", f.Name, m[i], base)
			if want.IsValid() {
				require.Equal(t, want.UnsafeAddr(), got.UnsafeAddr(), "find %s of %+v in %+v", f.Name, m[i], base)
				counts["found"]++
			} else {
				counts["not found"]++
			}
		}
	}
	for _, c := range []string{"positional, yes", "positional, no", "positional unsure", "find deferred", "found", "not found"} {
		require.GreaterOrEqual(t, counts[c], 500, "%s: %v", c, counts)
	}
}

// TestRepeatedKeyBeyondFingerprints: keys whose fingerprints agree are
// still told apart by their values, and a repeated key is found wherever
// it is in the list, short (compared pair by pair) or long (by
// fingerprints first).
func TestRepeatedKeyBeyondFingerprints(t *testing.T) {
	short := []memKey{{s: "abcd"}, {s: "aXcd"}, {s: "abYd"}, {n: 1 << 40}, {n: 1<<40 | 1<<8}}
	require.Equal(t, short[0].fingerprint(), short[1].fingerprint(), "the test needs keys of one fingerprint")
	long := append([]memKey(nil), short...)
	for i := range 10 {
		long = append(long, memKey{n: uint64(i)})
	}
	for _, keys := range [][]memKey{short, long} {
		require.False(t, repeatedKey(keys))
		for i := range keys {
			for j := range keys {
				l := append(append([]memKey(nil), keys...), keys[j])
				l[len(l)-1], l[i] = l[i], l[len(l)-1]
				require.True(t, repeatedKey(l), "%v", l)
			}
		}
	}
}
