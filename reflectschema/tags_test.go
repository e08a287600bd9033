package reflectschema_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

type tgJSON struct {
	Plain      string
	Named      string `json:"named"`
	Empty      string `json:"empty,omitempty"`
	Zero       int32  `json:"zero,omitzero"`
	Both       int    `json:"both,omitempty,omitzero"`
	Quoted     int64  `json:"quoted,string"`
	NoName     string `json:",omitempty"`
	Skipped    string `json:"-"`
	Dash       string `json:"-,"`
	Other      string `yaml:"alias"`
	unexported string
}

func TestJSONTagForms(t *testing.T) {
	st := requireMatchesEncodingJSON[tgJSON](t)
	_ = tgJSON{}.unexported

	// Untagged and empty-named fields keep the Go name; "-" skips; "-,"
	// names the field "-"; other tag keys are ignored; unexported fields
	// are not JSON fields.
	require.Equal(t, []string{"Plain", "named", "empty", "zero", "both", "quoted", "NoName", "-", "Other"}, fieldNames(st))

	type opts struct{ omitEmpty, omitZero, quoted bool }
	want := map[string]opts{
		"Plain":  {},
		"named":  {},
		"empty":  {omitEmpty: true},
		"zero":   {omitZero: true},
		"both":   {omitEmpty: true, omitZero: true},
		"quoted": {quoted: true},
		"NoName": {omitEmpty: true},
		"-":      {},
		"Other":  {},
	}
	for name, w := range want {
		f := st.Field(name)
		require.NotNil(t, f, name)
		assert.Equal(t, name, f.Name)
		assert.Equal(t, w, opts{f.OmitEmpty, f.OmitZero, f.Quoted}, "options of %q", name)
		assert.Zero(t, f.Patch, "patch metadata of %q", name)
	}
	assert.Equal(t, "Dash", st.Field("-").GoName)
	assert.Equal(t, "Empty", st.Field("empty").GoName)
	assert.Nil(t, st.Field("Skipped"))
	assert.Nil(t, st.Field("unexported"))
	assert.Nil(t, st.Field("alias"), "only the json tag names fields")
}

func TestWhitespaceOnlyTag(t *testing.T) {
	// A tag of only spaces has no keys: the field keeps its Go name.
	typ := reflect.StructOf([]reflect.StructField{
		{Name: "Spaces", Type: reflect.TypeFor[string](), Tag: "   "},
		{Name: "Next", Type: reflect.TypeFor[[]string](), Tag: ` json:"next" `},
	})
	st, err := reflectschema.Of(typ)
	require.NoError(t, err)
	assert.Equal(t, []string{"Spaces", "next"}, fieldNames(st))
}

type tgItem struct {
	Name     string `json:"name"`
	Port     int32  `json:"port"`
	Protocol string `json:"protocol"`
}

type tgUnion struct {
	Type  string  `json:"type"`
	Local *string `json:"local,omitempty"`
}

type tgStrategies struct {
	Merged         []tgItem          `json:"merged" patchStrategy:"merge" patchMergeKey:"name"`
	MergedPtrs     []*tgItem         `json:"mergedPtrs" patchStrategy:"merge" patchMergeKey:"name"`
	Replaced       []tgItem          `json:"replaced" patchStrategy:"replace"`
	Union          tgUnion           `json:"union" patchStrategy:"retainKeys"`
	K8sSpelling    []tgItem          `json:"k8s" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	BarSpelling    []tgItem          `json:"bar" patchStrategy:"merge|retainKeys" patchMergeKey:"name"`
	MultiKey       []tgItem          `json:"multi" patchStrategy:"merge" patchMergeKey:"port,protocol"`
	SpacedKey      []tgItem          `json:"spaced" patchStrategy:"merge" patchMergeKey:"port, protocol"`
	Recommended    []tgItem          `json:"recommended" patchStrategy:"merge" patchMergeKey:"port" recommendedPatchMergeKey:"port,protocol"`
	RecommendedEq  []tgItem          `json:"recommendedEq" patchStrategy:"merge" patchMergeKey:"port" recommendedPatchMergeKey:"port"`
	Set            []string          `json:"set" patchStrategy:"merge"`
	ReplacedSet    []string          `json:"replacedSet" patchStrategy:"replace"`
	Plain          []tgItem          `json:"plain"`
	KeyOnly        []tgItem          `json:"keyOnly" patchMergeKey:"name"`
	MergedMap      map[string]string `json:"mergedMap" patchStrategy:"merge"`
	MergedStruct   tgUnion           `json:"mergedStruct" patchStrategy:"merge"`
	ReplacedStruct tgUnion           `json:"replacedStruct" patchStrategy:"replace"`
	ReplacedMap    map[string]string `json:"replacedMap" patchStrategy:"replace"`
	MergedAny      any               `json:"mergedAny" patchStrategy:"merge"`
	MapsByKey      []map[string]any  `json:"mapsByKey" patchStrategy:"merge" patchMergeKey:"id"`
}

func TestPatchTagForms(t *testing.T) {
	st := mustFor[tgStrategies](t)
	M, R, D := reflectschema.Merge, reflectschema.Replace, reflectschema.Default
	tests := []struct {
		name      string
		want      reflectschema.PatchMeta
		mergeList bool
		tag       string
	}{
		{"merged", reflectschema.PatchMeta{Strategy: M, MergeKey: []string{"name"}}, true, "merge"},
		{"mergedPtrs", reflectschema.PatchMeta{Strategy: M, MergeKey: []string{"name"}}, true, "merge"},
		{"replaced", reflectschema.PatchMeta{Strategy: R}, false, "replace"},
		{"union", reflectschema.PatchMeta{Strategy: D, RetainKeys: true}, false, "retainKeys"},
		// Kubernetes' and seed 003's spellings mean the same.
		{"k8s", reflectschema.PatchMeta{Strategy: M, RetainKeys: true, MergeKey: []string{"name"}}, true, "merge,retainKeys"},
		{"bar", reflectschema.PatchMeta{Strategy: M, RetainKeys: true, MergeKey: []string{"name"}}, true, "merge,retainKeys"},
		{"multi", reflectschema.PatchMeta{Strategy: M, MergeKey: []string{"port", "protocol"}}, true, "merge"},
		{"spaced", reflectschema.PatchMeta{Strategy: M, MergeKey: []string{"port", "protocol"}}, true, "merge"},
		{"recommended", reflectschema.PatchMeta{Strategy: M, MergeKey: []string{"port"}, RecommendedMergeKey: []string{"port", "protocol"}}, true, "merge"},
		{"recommendedEq", reflectschema.PatchMeta{Strategy: M, MergeKey: []string{"port"}, RecommendedMergeKey: []string{"port"}}, true, "merge"},
		{"set", reflectschema.PatchMeta{Strategy: M}, true, "merge"},
		{"replacedSet", reflectschema.PatchMeta{Strategy: R}, false, "replace"},
		{"plain", reflectschema.PatchMeta{}, false, ""},
		{"keyOnly", reflectschema.PatchMeta{MergeKey: []string{"name"}}, false, ""},
		// Objects merge anyway: "merge" on them is accepted and dropped.
		{"mergedMap", reflectschema.PatchMeta{}, false, ""},
		{"mergedStruct", reflectschema.PatchMeta{}, false, ""},
		{"mergedAny", reflectschema.PatchMeta{}, false, ""},
		{"replacedStruct", reflectschema.PatchMeta{Strategy: R}, false, "replace"},
		{"replacedMap", reflectschema.PatchMeta{Strategy: R}, false, "replace"},
		{"mapsByKey", reflectschema.PatchMeta{Strategy: M, MergeKey: []string{"id"}}, true, "merge"},
	}
	require.Len(t, st.Fields, len(tests))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := st.Field(tt.name)
			require.NotNil(t, f)
			assert.Equal(t, tt.want, f.Patch)
			assert.Equal(t, tt.mergeList, f.Patch.IsMergeList())
			assert.Equal(t, tt.tag, f.Patch.StrategyTag())
		})
	}
}

func TestStrategyTag(t *testing.T) {
	tests := []struct {
		meta reflectschema.PatchMeta
		want string
	}{
		{reflectschema.PatchMeta{}, ""},
		{reflectschema.PatchMeta{Strategy: reflectschema.Merge}, "merge"},
		{reflectschema.PatchMeta{Strategy: reflectschema.Replace}, "replace"},
		{reflectschema.PatchMeta{RetainKeys: true}, "retainKeys"},
		{reflectschema.PatchMeta{Strategy: reflectschema.Merge, RetainKeys: true}, "merge,retainKeys"},
		{reflectschema.PatchMeta{Strategy: reflectschema.Merge, MergeKey: []string{"a", "b"}}, "merge"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.meta.StrategyTag(), "%+v", tt.meta)
	}
}

func TestKindAndStrategyNames(t *testing.T) {
	assert.Equal(t, "scalar", reflectschema.Scalar.String())
	assert.Equal(t, "atomic", reflectschema.Atomic.String())
	assert.Equal(t, "struct", reflectschema.Struct.String())
	assert.Equal(t, "map", reflectschema.Map.String())
	assert.Equal(t, "list", reflectschema.List.String())
	assert.Equal(t, "untyped", reflectschema.Untyped.String())
	assert.Equal(t, "invalid", reflectschema.Kind(0).String())
	assert.Equal(t, "invalid", reflectschema.Kind(200).String())

	assert.Equal(t, "", reflectschema.Default.String())
	assert.Equal(t, "merge", reflectschema.Merge.String())
	assert.Equal(t, "replace", reflectschema.Replace.String())
}
