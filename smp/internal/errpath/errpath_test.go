package errpath

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// keyNamer names an element by its "name" field.
type keyNamer struct{}

func (keyNamer) KeyStep(elem map[string]any) KeyStep {
	return KeyStep{{Name: "name", Value: fmt.Sprint(elem["name"])}}
}

func TestNodePath(t *testing.T) {
	var root *Node
	require.Equal(t, "<root>", root.Path().String())
	at := root.Field("spec").Field("containers").Keyed(keyNamer{}, map[string]any{"name": "nginx"}).Field("ports").Index(2)
	require.Equal(t, "spec.containers[name=nginx].ports[2]", at.Path().String())
	require.Equal(t, "ports", at.parent.Name())
	require.Equal(t, Path{FieldStep("a"), IndexStep(1)}, root.Field("a").Append(IndexStep(1)).Path())
}

func TestPathQuotesInput(t *testing.T) {
	cases := map[string]Path{
		`"a.b".c`:                      {FieldStep("a.b"), FieldStep("c")},
		`"<root>"`:                     {FieldStep("<root>")},
		`x[name="a,b"]`:                {FieldStep("x"), KeyStep{{Name: "name", Value: "a,b"}}},
		`x[name="line\nbreak"]`:        {FieldStep("x"), KeyStep{{Name: "name", Value: "line\nbreak"}}},
		`x[name=""]`:                   {FieldStep("x"), KeyStep{{Name: "name", Value: ""}}},
		`x["k=v"=1]`:                   {FieldStep("x"), KeyStep{{Name: "k=v", Value: "1"}}},
		`x[port=80,protocol=TCP][3].y`: {FieldStep("x"), KeyStep{{Name: "port", Value: "80"}, {Name: "protocol", Value: "TCP"}}, IndexStep(3), FieldStep("y")},
	}
	for want, p := range cases {
		require.Equal(t, want, p.String())
	}
}

func TestNewQuotesAndBoundsInput(t *testing.T) {
	long := strings.Repeat("9", 100000)
	err := New(ErrInvalidValue, (*Node)(nil).Field("n"), "number %s (%q) is out of range", json.Number(long), "\x1b[31mred")
	msg := err.Error()
	require.True(t, strings.HasPrefix(msg, "n: number "), msg)
	require.Less(t, len(msg), 400, "the 100,000-digit number is cut")
	require.NotContains(t, msg, "\x1b", "no terminal escape reaches the message")
	require.Equal(t, ErrInvalidValue, KindOf(fmt.Errorf("wrapped: %w", err)))
	require.Equal(t, ErrorKind(""), KindOf(errors.New("plain")))
}

func TestWrapUnwraps(t *testing.T) {
	cause := errors.New("cause")
	err := Wrap(ErrSchema, "bad schema", cause)
	require.ErrorIs(t, err, cause)
	require.Equal(t, "<root>: bad schema", err.Error())
}

func TestUnderPrependsSteps(t *testing.T) {
	err := New(ErrTypeMismatch, (*Node)(nil).Field("leaf"), "wrong")
	Under(err, IndexStep(0))
	UnderPath(err, (*Node)(nil).Field("spec"))
	require.Equal(t, "spec[0].leaf", err.Path.String())
	require.NoError(t, Under(nil, FieldStep("x")))
}

func TestCompareOrdersSteps(t *testing.T) {
	a := Path{FieldStep("a")}
	require.Negative(t, Compare(a, Path{FieldStep("b")}))
	require.Negative(t, Compare(a, append(Path{FieldStep("a")}, IndexStep(0))), "a path before its extensions")
	require.Negative(t, Compare(Path{FieldStep("z")}, Path{KeyStep{{Name: "a", Value: "1"}}}), "fields before keys")
	require.Negative(t, Compare(Path{KeyStep{{Name: "a", Value: "1"}}}, Path{IndexStep(0)}), "keys before indexes")
	require.Negative(t, Compare(Path{IndexStep(2)}, Path{IndexStep(10)}), "indexes by number")
	require.Zero(t, Compare(a, Path{FieldStep("a")}))
}

func TestListed(t *testing.T) {
	items := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	require.Equal(t, "1, 2, 3", Listed(items[:3], func(i int) string { return fmt.Sprint(i) }, ", "))
	require.Equal(t, "1 2 3 4 5 6 7 8 …", Listed(items, func(i int) string { return fmt.Sprint(i) }, " "))
}

// TestUnderBuildsPathsInOrder: steps put under an error one by one, as a
// walk unwinds, give the path from the top; an Error copied midway keeps
// its own path when both grow.
func TestUnderBuildsPathsInOrder(t *testing.T) {
	e := New(ErrLimit, nil, "deep")
	var want, wantCopy Path
	var c Error
	for i := range 100 {
		Under(e, IndexStep(i))
		want = append(Path{IndexStep(i)}, want...)
		if i == 50 {
			c = *e
			Under(&c, FieldStep("copy"))
			wantCopy = append(Path{FieldStep("copy")}, want...)
		}
	}
	require.Equal(t, want, e.Path)
	require.Equal(t, wantCopy, c.Path)
	UnderPath(e, (*Node)(nil).Field("a").Field("b"))
	require.Equal(t, append(Path{FieldStep("a"), FieldStep("b")}, want...), e.Path)
}
