package smp_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// normAmount is a marshaller that rewrites its value as Kubernetes'
// resource.Quantity does: its unit is lowercased, and an amount too large
// for Value is held in a pointer. Its pointer makes a copy go through its
// methods (a shallow copy would share it), and the copy of a value without
// one is remembered by content, across calls.
type normAmount struct {
	Value int64
	Unit  string
	Note  string // dropped by the round trip
	big   *big.Int
}

func (a normAmount) MarshalJSON() ([]byte, error) {
	n := strconv.FormatInt(a.Value, 10)
	if a.big != nil {
		n = a.big.String()
	}
	return json.Marshal(n + strings.ToLower(a.Unit))
}

func (a *normAmount) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(s)
	}
	v, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return fmt.Errorf("amount %q: %w", s, err)
	}
	*a = normAmount{Value: v, Unit: s[i:]}
	return nil
}

type amountsDoc struct {
	One   normAmount            `json:"one"`
	List  []normAmount          `json:"list"`
	Items map[string]normAmount `json:"items"`
}

// genAmount draws amounts that share lengths and values, so that two
// contents differ only in a string's bytes or in a word.
func genAmount(t *rapid.T, label string) normAmount {
	a := normAmount{
		Value: rapid.Int64Range(0, 3).Draw(t, label+".value"),
		Unit:  rapid.SampledFrom([]string{"Ki", "KI", "Mi", "mi", "Gi", ""}).Draw(t, label+".unit"),
		Note:  rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, label+".note"),
	}
	if rapid.IntRange(0, 9).Draw(t, label+".big") == 0 {
		a.big = big.NewInt(a.Value)
	}
	return a
}

func genAmounts(t *rapid.T) *amountsDoc {
	d := &amountsDoc{One: genAmount(t, "one")}
	for i := range rapid.IntRange(0, 4).Draw(t, "list") {
		d.List = append(d.List, genAmount(t, fmt.Sprint("list", i)))
	}
	if n := rapid.IntRange(0, 4).Draw(t, "items"); n > 0 {
		d.Items = map[string]normAmount{}
		for i := range n {
			d.Items[fmt.Sprint("k", i)] = genAmount(t, fmt.Sprint("item", i))
		}
	}
	return d
}

// jsonRoundTrip is what encoding/json makes of d.
func jsonRoundTrip(t *rapid.T, d *amountsDoc) *amountsDoc {
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var out amountsDoc
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// TestApplyCopiesMarshallersByContent: the values a patch leaves are the
// JSON round trip's, however many earlier calls met values of the same
// lengths and numbers but other strings.
func TestApplyCopiesMarshallersByContent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genAmounts(t)
		got, err := smp.Apply(d, smp.Patch{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(jsonRoundTrip(t, d), got, cmp.AllowUnexported(normAmount{})); diff != "" {
			t.Fatalf("Apply of an empty patch differs from the JSON round trip (-want +got):\n%s", diff)
		}
	})
}

// TestApplyCopiesMarshallersConcurrently runs the copies of many values
// at once (the remembered round trips are shared): each is the JSON round
// trip's.
func TestApplyCopiesMarshallersConcurrently(t *testing.T) {
	var docs []*amountsDoc
	rapid.Check(t, func(t *rapid.T) { docs = append(docs, genAmounts(t)) })
	var wg sync.WaitGroup
	errs := make(chan string, len(docs))
	for _, d := range docs {
		wg.Go(func() {
			got, err := smp.Apply(d, smp.Patch{})
			if err != nil {
				errs <- err.Error()
				return
			}
			want := &amountsDoc{}
			b, _ := json.Marshal(d)
			if err := json.Unmarshal(b, want); err != nil {
				errs <- err.Error()
				return
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(normAmount{})); diff != "" {
				errs <- diff
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatalf("a concurrent copy differs from the JSON round trip:\n%s", e)
	}
}
