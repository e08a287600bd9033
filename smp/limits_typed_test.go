package smp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/typedpatch/typedpatch/smp"
)

type limitsLeaf struct {
	Tags []string `json:"tags,omitempty"`
}

// hiddenLeaf is left out by omitzero while it says it is zero, whatever
// its lists hold: the limits do not see it, as they do not see it in JSON.
type hiddenLeaf struct {
	Tags []string `json:"tags"`
}

func (h hiddenLeaf) IsZero() bool { return len(h.Tags) > 0 && h.Tags[0] == "hidden" }

// limitsDoc's limits are checked by code compiled for the type,
// limitsDocWalked's (with a map and an untyped value) by a walk.
type limitsDoc struct {
	Direct []string      `json:"direct,omitempty"`
	Ptr    *limitsLeaf   `json:"ptr,omitempty"`
	PtrPtr **limitsLeaf  `json:"ptrPtr,omitempty"`
	Inline limitsLeaf    `json:"inline"`
	Elems  []*limitsLeaf `json:"elems,omitempty"`
	Array  [1]limitsLeaf `json:"array"`
	Nested [][]string    `json:"nested,omitempty"`
	Hidden hiddenLeaf    `json:"hidden,omitzero"`
}

type limitsDocWalked struct {
	limitsDoc
	Map     map[string]limitsLeaf `json:"map,omitempty"`
	Untyped map[string]any        `json:"untyped,omitempty"`
}

// TestTypedListLimitsAsJSON: wherever a list longer than the limit sits,
// typed Diff, ThreeWay and Apply fail as the JSON functions do, with the
// same path; and a list JSON leaves out breaks no limit.
func TestTypedListLimitsAsJSON(t *testing.T) {
	long := []string{"a", "b", "c"}
	leaf := &limitsLeaf{Tags: long}
	cases := map[string]func(d *limitsDocWalked){
		"none":       func(d *limitsDocWalked) {},
		"direct":     func(d *limitsDocWalked) { d.Direct = long },
		"pointer":    func(d *limitsDocWalked) { d.Ptr = leaf },
		"pointers":   func(d *limitsDocWalked) { d.PtrPtr = &leaf },
		"inline":     func(d *limitsDocWalked) { d.Inline.Tags = long },
		"elements":   func(d *limitsDocWalked) { d.Elems = []*limitsLeaf{nil, {}, leaf} },
		"too many":   func(d *limitsDocWalked) { d.Elems = []*limitsLeaf{nil, nil, nil} },
		"array":      func(d *limitsDocWalked) { d.Array[0].Tags = long },
		"nested":     func(d *limitsDocWalked) { d.Nested = [][]string{{}, long} },
		"hidden":     func(d *limitsDocWalked) { d.Hidden.Tags = []string{"hidden", "b", "c"} },
		"not hidden": func(d *limitsDocWalked) { d.Hidden.Tags = long },
		"map":        func(d *limitsDocWalked) { d.Map = map[string]limitsLeaf{"k": *leaf} },
		"untyped":    func(d *limitsDocWalked) { d.Untyped = map[string]any{"k": []any{1, 2, 3}} },
	}
	for name, set := range cases {
		t.Run(name, func(t *testing.T) {
			var d limitsDocWalked
			set(&d)
			wantErr := name != "none" && name != "hidden"
			checkListLimits(t, &d, wantErr)
			if d.Map == nil && d.Untyped == nil {
				checkListLimits(t, &d.limitsDoc, wantErr)
			}
		})
	}
}

func checkListLimits[T any](t *testing.T, d *T, wantErr bool) {
	tight := smp.WithLimits(smp.Limits{MaxListLength: 2})
	empty := new(T)
	_, jerr := smp.DiffJSON(typedMarshal(t, d), []byte(`{}`), empty, tight)
	assert.Equal(t, wantErr, jerr != nil, "%v", jerr)
	_, err := smp.Diff(d, empty, tight)
	assertSameError(t, jerr, err, "Diff")
	_, err = smp.ThreeWay(empty, empty, d, tight)
	assertSameError(t, jerr, err, "ThreeWay")
	_, err = smp.Apply(d, smp.Patch{}, tight)
	assertSameError(t, jerr, err, "Apply")
}

func assertSameError(t *testing.T, want, got error, op string) {
	t.Helper()
	if want == nil {
		assert.NoError(t, got, op)
		return
	}
	if assert.Error(t, got, op) {
		assert.Equal(t, smp.ErrLimit, smp.KindOf(got), "%s: %v", op, got)
		assert.Equal(t, want.(*smp.Error).Path.String(), got.(*smp.Error).Path.String(), "%s: %v", op, got)
	}
}
