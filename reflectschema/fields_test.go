package reflectschema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// Inlining.

type FdMeta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
}

type FdHandler struct {
	Exec    *FdExec `json:"exec,omitempty"`
	Command string  `json:"command,omitempty"`
}

type FdExec struct {
	Args []string `json:"args" patchStrategy:"merge"`
}

type FdDeep struct {
	Depth int `json:"depth"`
}

type FdMid struct {
	FdDeep
	Mid string `json:"mid"`
}

type fdHidden struct {
	Visible string `json:"visible"`
}

type fdNotStruct string

type FdNamedString string

type fdInlined struct {
	FdMeta                         // anonymous struct: inlined
	*FdHandler                     // anonymous *struct: inlined
	FdMid         `json:",inline"` // the Kubernetes spelling, as encoding/json reads it
	fdHidden                       // unexported, but its exported fields are promoted
	fdNotStruct                    // unexported non-struct: ignored
	FdNamedString                  // exported non-struct: a field named after its type
	Own           string           `json:"own"`
}

func TestInlineEmbedded(t *testing.T) {
	st := requireMatchesEncodingJSON[fdInlined](t)
	_ = fdInlined{}.fdNotStruct

	type want struct {
		goName string
		index  []int
		kind   reflectschema.Kind
	}
	// encoding/json's order: by index sequence through the embedded
	// structs.
	expected := []struct {
		name string
		want want
	}{
		{"name", want{"FdMeta.Name", []int{0, 0}, reflectschema.Scalar}},
		{"labels", want{"FdMeta.Labels", []int{0, 1}, reflectschema.Map}},
		{"exec", want{"FdHandler.Exec", []int{1, 0}, reflectschema.Struct}},
		{"command", want{"FdHandler.Command", []int{1, 1}, reflectschema.Scalar}},
		{"depth", want{"FdMid.FdDeep.Depth", []int{2, 0, 0}, reflectschema.Scalar}},
		{"mid", want{"FdMid.Mid", []int{2, 1}, reflectschema.Scalar}},
		{"visible", want{"fdHidden.Visible", []int{3, 0}, reflectschema.Scalar}},
		{"FdNamedString", want{"FdNamedString", []int{5}, reflectschema.Scalar}},
		{"own", want{"Own", []int{6}, reflectschema.Scalar}},
	}
	require.Equal(t, len(expected), len(st.Fields), "fields: %v", fieldNames(st))
	for i, e := range expected {
		f := st.Fields[i]
		assert.Equal(t, e.name, f.Name)
		assert.Equal(t, e.want.goName, f.GoName, e.name)
		assert.Equal(t, e.want.index, f.Index, e.name)
		assert.Equal(t, e.want.kind, f.Type.Kind, e.name)
		assert.Same(t, f, st.Field(e.name))
	}
	// Patch metadata of fields inside inlined structs is kept.
	exec := st.Field("exec").Type
	assert.Equal(t, reflectschema.Merge, exec.Field("args").Patch.Strategy)
}

type fdNamedEmbedded struct {
	FdMeta `json:"meta"` // a JSON name: not inlined
	FdDeep `json:"-"`    // skipped altogether
	Own    string        `json:"own"`
}

func TestNamedEmbeddedIsAField(t *testing.T) {
	st := requireMatchesEncodingJSON[fdNamedEmbedded](t)
	require.Equal(t, []string{"meta", "own"}, fieldNames(st))
	meta := st.Field("meta")
	assert.Equal(t, "FdMeta", meta.GoName)
	assert.Equal(t, reflectschema.Struct, meta.Type.Kind)
	assert.Same(t, mustFor[FdMeta](t), meta.Type)
}

type fdSelfEmbedding struct {
	*fdSelfEmbedding
	X string `json:"x"`
}

func TestEmbeddingItselfTerminates(t *testing.T) {
	// encoding/json visits each embedded type once: the second visit of
	// fdSelfEmbedding adds nothing.
	st := requireMatchesEncodingJSON[fdSelfEmbedding](t)
	assert.Equal(t, []string{"x"}, fieldNames(st))
}

// Name conflicts.

type FdName struct {
	Name  string
	Other string
}

type FdTaggedName struct {
	Renamed string `json:"Name"`
}

type FdNameB struct {
	Name string
}

type FdTwoNames struct {
	First  string `json:"Name"`
	Second string `json:"Name2"`
}

type fdShallowWins struct {
	FdName
	Name string // depth 0 hides FdName.Name at depth 1
}

type fdShallowUntaggedBeatsDeepTagged struct {
	FdTaggedName
	Name string
}

type fdTaggedWins struct {
	FdNameB      // untagged Name at depth 1
	FdTaggedName // tagged Name at depth 1: wins
}

type fdTaggedWinsOtherOrder struct {
	FdTaggedName
	FdNameB
}

type fdConflictResolvedAbove struct {
	FdName
	FdNameB
	Name string // would-be conflict at depth 1 is hidden by depth 0
}

type fdVisitedOnce struct {
	FdDeep // reached at depth 1
	FdMid  // reaches FdDeep again at depth 2: not visited again
}

func TestNameConflictsFollowEncodingJSON(t *testing.T) {
	t.Run("shallower wins", func(t *testing.T) {
		st := requireMatchesEncodingJSON[fdShallowWins](t)
		assert.Equal(t, []string{"Other", "Name"}, fieldNames(st))
		assert.Equal(t, "Name", st.Field("Name").GoName)
		assert.Equal(t, []int{1}, st.Field("Name").Index)
		assert.Equal(t, "FdName.Other", st.Field("Other").GoName)
	})
	t.Run("shallower untagged beats deeper tagged", func(t *testing.T) {
		st := requireMatchesEncodingJSON[fdShallowUntaggedBeatsDeepTagged](t)
		assert.Equal(t, []string{"Name"}, fieldNames(st))
		assert.Equal(t, "Name", st.Field("Name").GoName)
	})
	t.Run("tagged beats untagged at equal depth", func(t *testing.T) {
		st := requireMatchesEncodingJSON[fdTaggedWins](t)
		assert.Equal(t, []string{"Name"}, fieldNames(st))
		assert.Equal(t, "FdTaggedName.Renamed", st.Field("Name").GoName)
		assert.Equal(t, []int{1, 0}, st.Field("Name").Index)

		st = requireMatchesEncodingJSON[fdTaggedWinsOtherOrder](t)
		assert.Equal(t, "FdTaggedName.Renamed", st.Field("Name").GoName)
		assert.Equal(t, []int{0, 0}, st.Field("Name").Index)
	})
	t.Run("conflict hidden by a shallower field", func(t *testing.T) {
		st := requireMatchesEncodingJSON[fdConflictResolvedAbove](t)
		assert.Equal(t, "Name", st.Field("Name").GoName)
		// FdName.Other has no rival.
		assert.Equal(t, "FdName.Other", st.Field("Other").GoName)
	})
	t.Run("embedded type visited once", func(t *testing.T) {
		st := requireMatchesEncodingJSON[fdVisitedOnce](t)
		assert.Equal(t, []string{"depth", "mid"}, fieldNames(st))
		assert.Equal(t, "FdDeep.Depth", st.Field("depth").GoName)
	})
}

type fdUntaggedConflict struct {
	FdName
	FdNameB
}

// fdTaggedConflict is struct{ FdTaggedName; FdTwoNames }, built at run
// time because go vet rejects the repeated json tag it is about.
var fdTaggedConflict = reflect.StructOf([]reflect.StructField{
	{Name: "FdTaggedName", Type: reflect.TypeFor[FdTaggedName](), Anonymous: true},
	{Name: "FdTwoNames", Type: reflect.TypeFor[FdTwoNames](), Anonymous: true},
})

type FdShared struct {
	Name  string
	Count int
}

type FdLeft struct{ FdShared }
type FdRight struct{ FdShared }

type fdSameTypeTwice struct {
	FdLeft
	FdRight
	Own string `json:"own"`
}

func TestDroppedConflictIsAnError(t *testing.T) {
	tests := []struct {
		name    string
		typ     reflect.Type
		jsonKey string   // the key encoding/json silently drops
		first   string   // the Go field the error is reported on
		both    []string // the Go fields the message names
	}{
		{"untagged at equal depth", reflect.TypeFor[fdUntaggedConflict](), "Name",
			"FdName.Name", []string{"FdName.Name", "FdNameB.Name"}},
		{"tagged at equal depth", fdTaggedConflict, "Name",
			"FdTaggedName.Renamed", []string{"FdTaggedName.Renamed", "FdTwoNames.First"}},
		// Both of FdShared's fields are dropped; the error names the first
		// by JSON name, Count.
		{"one struct reached twice", reflect.TypeFor[fdSameTypeTwice](), "Count",
			"FdLeft.FdShared.Count", []string{"FdLeft.FdShared.Count", "FdRight.FdShared.Count"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// encoding/json drops the key: the schema must not guess.
			v := reflect.New(tt.typ).Elem()
			n := 0
			fillDistinct(v, &n, 0)
			data, err := json.Marshal(v.Interface())
			require.NoError(t, err)
			var obj map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(data, &obj))
			require.NotContains(t, obj, tt.jsonKey, "encoding/json keeps %q after all", tt.jsonKey)

			_, err = reflectschema.Of(tt.typ)
			requireRuleError(t, err, tt.typ, tt.first, reflectschema.RuleConflict)
			for _, f := range tt.both {
				assert.Contains(t, err.Error(), f)
			}
			assert.Contains(t, err.Error(), `"`+tt.jsonKey+`"`)
		})
	}
}

// Field lookup.

type fdLookup struct {
	Lower    string `json:"key"`
	Upper    string `json:"Key"`
	APIGroup string `json:"apiGroup"`
}

func TestFieldLookup(t *testing.T) {
	st := mustFor[fdLookup](t)
	// Exact matches first.
	assert.Equal(t, "Lower", st.Field("key").GoName)
	assert.Equal(t, "Upper", st.Field("Key").GoName)
	assert.Equal(t, "APIGroup", st.Field("apiGroup").GoName)
	// Then a case-insensitive match.
	assert.Equal(t, "APIGroup", st.Field("APIGROUP").GoName)
	assert.Equal(t, "APIGroup", st.Field("apigroup").GoName)
	// Not a Go name lookup, and no partial matches.
	assert.Nil(t, st.Field("Lower"))
	assert.Nil(t, st.Field("api"))
	assert.Nil(t, st.Field(""))

	// With two case-insensitive candidates, encoding/json's decoder picks
	// the first field; so does Field.
	var v fdLookup
	require.NoError(t, json.Unmarshal([]byte(`{"KEY":"x"}`), &v))
	got := st.Field("KEY")
	require.NotNil(t, got)
	fv := reflect.ValueOf(v).FieldByIndex(got.Index)
	assert.Equal(t, "x", fv.String(), "encoding/json stored KEY in another field than %s", got.GoName)

	// Only structs have fields.
	list := mustFor[[]fdLookup](t)
	assert.Nil(t, list.Field("key"))
	assert.Nil(t, (*reflectschema.Type)(nil).Field("key"))
}
