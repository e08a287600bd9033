package smp_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Maps whose values hold maps of structs: comparing the inner values
// must not disturb the outer ones, or a change beside an inner map is
// lost. Strings are cloned so that equal ones sit at other addresses.
type nestedLeaf struct {
	S    string  `json:"s"`
	Pad  [12]int `json:"pad"`
	Last string  `json:"last"`
}

type nestedInner struct {
	M map[string]nestedLeaf `json:"m"`
	S string                `json:"s"`
	N int                   `json:"n"`
}

type nestedDoc struct {
	Outer map[string]map[string]nestedInner `json:"outer"`
}

func nestedDocOf(s string, n int) nestedDoc {
	c := strings.Clone
	return nestedDoc{Outer: map[string]map[string]nestedInner{"o": {
		"k": {M: map[string]nestedLeaf{"x": {S: c("v"), Last: c("end")}}, S: c(s), N: n},
	}}}
}

func TestTypedDiffMapsOfMaps(t *testing.T) {
	a := nestedDocOf("hello", 7)
	for _, tc := range []struct {
		b    nestedDoc
		want string
	}{
		{nestedDocOf("hello", 7), `{}`},
		{nestedDocOf("world", 7), `{"outer":{"o":{"k":{"s":"world"}}}}`},
		{nestedDocOf("hello", 8), `{"outer":{"o":{"k":{"n":8}}}}`},
	} {
		p := checkTypedDiff(t, a, tc.b)
		assert.Equal(t, tc.want, p.String())
		three, err := checkTypedThreeWay(t, a, tc.b, a)
		require.NoError(t, err)
		assert.Equal(t, tc.want, three.String())
	}
}

// FuzzTypedMapsOfMaps runs the typed fuzz checks (against the JSON
// engine, Apply and the round trip) on maps of maps of structs, a shape
// the fixtures types do not have.
func FuzzTypedMapsOfMaps(f *testing.F) {
	a, b := mustMarshal(nestedDocOf("hello", 7)), mustMarshal(nestedDocOf("world", 8))
	f.Add(byte(0), a, b, a)
	f.Add(byte(16), b, a, []byte(`{"outer":{"o":{"k":{"m":{"y":{"s":"w"}}}}}}`))
	f.Fuzz(func(t *testing.T, opts byte, original, modified, current []byte) {
		fuzzTypedDiff[nestedDoc](t, opts, original, modified)
		fuzzTypedThreeWay[nestedDoc](t, opts, original, modified, current)
	})
}
