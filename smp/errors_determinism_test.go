package smp_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

// Errors under maps with many keys: the same error, at the same path,
// every run, whatever order Go visits the maps in. Where the JSON API can
// see the same input, it reports the same path.

type detDoc struct {
	Lists  map[string][]string  `json:"lists,omitempty"`
	Deep   map[string]any       `json:"deep,omitempty"`
	Nums   map[string]float64   `json:"nums,omitempty"`
	Counts map[string]int       `json:"counts,omitempty"`
	Subs   map[string]detSub    `json:"subs,omitempty"`
	Nested map[string]detNested `json:"nested,omitempty"`
}

type detSub struct {
	N    int      `json:"n"`
	Tags []string `json:"tags,omitempty"`
}

type detNested struct {
	Inner map[string]detSub `json:"inner,omitempty"`
}

const detRuns = 200

// oneAnswer runs f detRuns times and returns its one error text, failing
// when the runs disagree or one succeeds.
func oneAnswer(t *testing.T, f func() error) string {
	t.Helper()
	seen := map[string]int{}
	for range detRuns {
		err := f()
		require.Error(t, err)
		var e *smp.Error
		require.ErrorAs(t, err, &e)
		seen[string(e.Kind)+" at "+e.Path.String()]++
	}
	require.Len(t, seen, 1, "answers: %v", seen)
	for k := range seen {
		return k
	}
	return ""
}

func manyLists(n, long int) map[string][]string {
	m := map[string][]string{}
	for i := range n {
		l := []string{"a"}
		if i%3 == 1 {
			l = make([]string, long)
		}
		m[fmt.Sprintf("k%02d", i)] = l
	}
	return m
}

func TestErrorsAreDeterministic(t *testing.T) {
	short := smp.WithLimits(smp.Limits{MaxListLength: 4})
	listDoc := detDoc{Lists: manyLists(40, 9)}

	t.Run("typed list limit", func(t *testing.T) {
		want := "Limit at lists.k01"
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Apply(listDoc, smp.Patch{}, short); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Diff(listDoc, detDoc{}, short); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.ThreeWay(listDoc, detDoc{}, detDoc{}, short); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error {
			_, err := smp.ApplyJSON(typedMarshal(t, listDoc), []byte(`{}`), detDoc{}, short)
			return err
		}))
	})

	t.Run("typed depth limit", func(t *testing.T) {
		deep := map[string]any{}
		for i := range 30 {
			var v any = "leaf"
			if i%4 == 3 {
				v = map[string]any{"x": map[string]any{"y": map[string]any{"z": 1}}}
			}
			deep[fmt.Sprintf("d%02d", i)] = v
		}
		doc := detDoc{Deep: deep, Subs: map[string]detSub{"s": {N: 1}}}
		shallow := smp.WithLimits(smp.Limits{MaxDepth: 3})
		want := "Limit at deep.d03.x.y"
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Apply(doc, smp.Patch{}, shallow); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Diff(detDoc{}, doc, shallow); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error {
			_, err := smp.DiffJSON([]byte(`{}`), typedMarshal(t, doc), detDoc{}, shallow)
			return err
		}))
	})

	t.Run("patch limit", func(t *testing.T) {
		body := `{"lists":{`
		for i := range 40 {
			if i > 0 {
				body += ","
			}
			if i%5 == 2 {
				body += fmt.Sprintf(`"p%02d":["1","2","3","4","5","6"]`, i)
			} else {
				body += fmt.Sprintf(`"p%02d":["1"]`, i)
			}
		}
		body += "}}"
		p := typedMustParse(t, body)
		want := "Limit at lists.p02"
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Apply(detDoc{}, p, short); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.ApplyJSON([]byte(`{}`), []byte(body), detDoc{}, short); return err }))
	})

	t.Run("type errors in a patch", func(t *testing.T) {
		body := `{"counts":{`
		for i := range 40 {
			if i > 0 {
				body += ","
			}
			if i%7 == 5 {
				body += fmt.Sprintf(`"c%02d":"not a number"`, i)
			} else {
				body += fmt.Sprintf(`"c%02d":%d`, i, i)
			}
		}
		body += `},"nested":{"b":{"inner":{"y":{"n":"x"},"x":{"n":true}}},"a":{"inner":{"z":{"n":[]}}}}}`
		p := typedMustParse(t, body)
		// Each representation in its own subtest, so that a failure of one
		// does not hide the other's.
		var typed, checked, jsonErr string
		t.Run("typed unchecked", func(t *testing.T) {
			typed = oneAnswer(t, func() error { _, err := smp.Apply(detDoc{}, p, smp.WithTypeChecks(false)); return err })
			assert.Equal(t, "TypeMismatch at counts.c05", typed)
		})
		t.Run("typed", func(t *testing.T) {
			checked = oneAnswer(t, func() error { _, err := smp.Apply(detDoc{}, p); return err })
		})
		t.Run("json", func(t *testing.T) {
			jsonErr = oneAnswer(t, func() error { _, err := smp.ApplyJSON([]byte(`{}`), []byte(body), detDoc{}); return err })
		})
		assert.Equal(t, jsonErr, checked)
	})

	t.Run("values JSON cannot hold", func(t *testing.T) {
		nums := map[string]float64{}
		subs := map[string]detNested{}
		for i := range 40 {
			nums[fmt.Sprintf("n%02d", i)] = float64(i)
			if i%6 == 4 {
				nums[fmt.Sprintf("n%02d", i)] = math.NaN()
			}
		}
		subs["q"] = detNested{}
		doc := detDoc{Nums: nums, Nested: subs}
		want := "InvalidValue at nums.n04"
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Diff(detDoc{}, doc); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Apply(doc, smp.Patch{}); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.ThreeWay(detDoc{}, doc, detDoc{}); return err }))

		anyDoc := detDoc{Deep: map[string]any{}}
		for i := range 40 {
			var v any = float64(i)
			if i%9 == 7 {
				v = map[string]any{"inf": math.Inf(1), "nan": math.NaN()}
			}
			anyDoc.Deep[fmt.Sprintf("a%02d", i)] = v
		}
		want = "InvalidValue at deep.a07.inf"
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Diff(detDoc{}, anyDoc); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error {
			_, err := smp.DiffMap(smp.JSONMap{}, smp.JSONMap{"deep": anyDoc.Deep}, detDoc{})
			return err
		}))
		assert.Equal(t, want, oneAnswer(t, func() error {
			_, err := smp.ApplyMap(smp.JSONMap{"deep": anyDoc.Deep}, smp.JSONMap{}, detDoc{})
			return err
		}))
	})

	t.Run("values JSON cannot hold, both sides", func(t *testing.T) {
		o, m := detDoc{Nums: map[string]float64{}}, detDoc{Nums: map[string]float64{}}
		for i := range 40 {
			k := fmt.Sprintf("b%02d", i)
			o.Nums[k], m.Nums[k] = 1, 2
			if i%8 == 3 {
				m.Nums[k] = math.Inf(-1)
			}
			if i%10 == 6 {
				m.Nums[k+"new"] = math.NaN()
			}
		}
		want := "InvalidValue at nums.b03"
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.Diff(o, m); return err }))
		assert.Equal(t, want, oneAnswer(t, func() error { _, err := smp.ThreeWay(o, m, o); return err }))
	})

	t.Run("bad directives", func(t *testing.T) {
		body := `{"subs":{"s":{"n":1}},"$patchMergeKey":"x","$zz":1,"$setElementOrder/nope":[1],"$deleteFromPrimitiveList/lists":3,"$aa":1}`
		typed := oneAnswer(t, func() error { _, err := smp.Apply(detDoc{}, typedMustParse(t, body)); return err })
		jsonErr := oneAnswer(t, func() error { _, err := smp.ApplyJSON([]byte(`{}`), []byte(body), detDoc{}); return err })
		assert.Equal(t, "UnknownDirective at $aa", typed)
		assert.Equal(t, typed, jsonErr)
	})
}
