package reflectschema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// rawExtension stands for Kubernetes' runtime.RawExtension: it marshals
// itself, so it is atomic.
type rawExtension struct{ Raw []byte }

func (r rawExtension) MarshalJSON() ([]byte, error) {
	if r.Raw == nil {
		return []byte("null"), nil
	}
	return r.Raw, nil
}

func (r *rawExtension) UnmarshalJSON(b []byte) error {
	r.Raw = append(r.Raw[:0], b...)
	return nil
}

type retainKeysStruct struct {
	Name               string            `json:"name,omitempty"`
	Value              string            `json:"value,omitempty"`
	Other              string            `json:"other,omitempty"`
	SimpleMap          map[string]string `json:"simpleMap,omitempty"`
	MergingList        []string          `json:"mergingList,omitempty" patchStrategy:"merge"`
	NonMergingList     []string          `json:"nonMergingList,omitempty"`
	MergingIntList     []int             `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	NonMergingIntList  []int             `json:"nonMergingIntList,omitempty"`
	RetainKeysMergeMap map[string]string `json:"retainKeysMergeMap,omitempty" patchStrategy:"retainKeys"`
}

// mergeItem is the test type of Kubernetes' strategicpatch package
// (patch_test.go), tags and all. Its mergeItemPtr carries a merge key and
// the merge strategy, which a struct field ignores.
type mergeItem struct {
	Name                  string            `json:"name,omitempty"`
	Value                 string            `json:"value,omitempty"`
	Other                 string            `json:"other,omitempty"`
	MergingList           []mergeItem       `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList        []mergeItem       `json:"nonMergingList,omitempty"`
	MergingIntList        []int             `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	NonMergingIntList     []int             `json:"nonMergingIntList,omitempty"`
	MergeItemPtr          *mergeItem        `json:"mergeItemPtr,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	SimpleMap             map[string]string `json:"simpleMap,omitempty"`
	ReplacingItem         rawExtension      `json:"replacingItem,omitempty" patchStrategy:"replace"`
	RetainKeysMap         retainKeysStruct  `json:"retainKeysMap,omitempty" patchStrategy:"retainKeys"`
	RetainKeysMergingList []mergeItem       `json:"retainKeysMergingList,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
}

func TestKubernetesMergeItemIsAccepted(t *testing.T) {
	st, err := reflectschema.Of(reflect.TypeOf(mergeItem{}))
	require.NoError(t, err)
	ptr := st.Field("mergeItemPtr")
	assert.Equal(t, reflectschema.PatchMeta{}, ptr.Patch, "the tags of a struct field are ignored")
	assert.Same(t, st, ptr.Type)
	// The tags that have an effect are kept.
	assert.Equal(t, []string{"name"}, st.Field("mergingList").Patch.MergeKey)
	assert.True(t, st.Field("mergingIntList").Patch.IsMergeList())
	assert.Equal(t, reflectschema.Replace, st.Field("replacingItem").Patch.Strategy)
	assert.True(t, st.Field("retainKeysMap").Patch.RetainKeys)
	assert.Equal(t, "merge,retainKeys", st.Field("retainKeysMergingList").Patch.StrategyTag())

	findings, err := reflectschema.Vet(reflect.TypeFor[*mergeItem]())
	require.NoError(t, err)
	owner := reflect.TypeFor[mergeItem]()
	assert.Equal(t, []reflectschema.Finding{
		{Type: owner, Field: "MergeItemPtr", Path: "mergeItemPtr", Tag: `patchStrategy:"merge"`, Reason: "merge has no effect: objects merge by default"},
		{Type: owner, Field: "MergeItemPtr", Path: "mergeItemPtr", Tag: `patchMergeKey:"name"`, Reason: "merge keys identify list elements; this is a struct field"},
	}, findings)
	assert.Equal(t, `mergeItemPtr (reflectschema_test.mergeItem.MergeItemPtr): patchMergeKey:"name": merge keys identify list elements; this is a struct field`,
		findings[1].String())
}

// Tags with no effect on the kind of the field carrying them.
type (
	vtKeyOnScalarList struct {
		Names []string `json:"names" patchStrategy:"merge" patchMergeKey:"name" recommendedPatchMergeKey:"name,x"`
	}
	vtKeyOnAtomicList struct {
		Quantities []vaQuantity `json:"quantities" patchMergeKey:"name"`
	}
	vtKeyOnScalar struct {
		Name string `json:"name" patchMergeKey:"name"`
	}
	vtKeyOnMap struct {
		Ports map[string]vaPort `json:"ports" patchMergeKey:"name" recommendedPatchMergeKey:"name"`
	}
	vtKeyOnStruct struct {
		Port vaPort `json:"port" patchMergeKey:"name"`
	}
	vtRecommendedOnUntyped struct {
		Extra any `json:"extra" recommendedPatchMergeKey:"a,b"`
	}
	vtMergeOnScalar struct {
		Name string `json:"name" patchStrategy:"merge"`
	}
	vtMergeRetainOnAtomic struct {
		Raw json.RawMessage `json:"raw" patchStrategy:"merge,retainKeys"`
	}
	vtReplaceRetainOnScalar struct {
		N *int `json:"n" patchStrategy:"replace|retainKeys"`
	}
	vtMergeOnListOfLists struct {
		Grid [][]string `json:"grid" patchStrategy:"merge" patchMergeKey:"x"`
	}
	vtRetainOnScalarList struct {
		Names []string `json:"names" patchStrategy:"merge,retainKeys"`
	}
	vtMergeRetainOnMap struct {
		Labels map[string]string `json:"labels" patchStrategy:"retainKeys,merge"`
	}
	VtEmbedded struct {
		Names []string `json:"names" patchMergeKey:"name"`
	}
	vtInlined struct {
		VtEmbedded
		Own string `json:"own"`
	}
)

func TestIneffectiveTagsAreIgnored(t *testing.T) {
	type finding struct{ tag, says string }
	tests := []struct {
		name     string
		typ      reflect.Type
		field    string // JSON name
		goName   string
		want     reflectschema.PatchMeta // what is kept
		findings []finding
	}{
		{"key on a list of scalars", reflect.TypeFor[vtKeyOnScalarList](), "names", "Names",
			reflectschema.PatchMeta{Strategy: reflectschema.Merge},
			[]finding{{`patchMergeKey:"name"`, "merge keys identify objects; the elements are scalars (string)"}, {`recommendedPatchMergeKey:"name,x"`, "scalars (string)"}}},
		{"key on a list of atomics", reflect.TypeFor[vtKeyOnAtomicList](), "quantities", "Quantities",
			reflectschema.PatchMeta{},
			[]finding{{`patchMergeKey:"name"`, "atomics (reflectschema_test.vaQuantity)"}}},
		{"key on a scalar", reflect.TypeFor[vtKeyOnScalar](), "name", "Name",
			reflectschema.PatchMeta{},
			[]finding{{`patchMergeKey:"name"`, "a scalar field"}}},
		{"key on a map", reflect.TypeFor[vtKeyOnMap](), "ports", "Ports",
			reflectschema.PatchMeta{},
			[]finding{{`patchMergeKey:"name"`, "a map field"}, {`recommendedPatchMergeKey:"name"`, "a map field"}}},
		{"key on a struct", reflect.TypeFor[vtKeyOnStruct](), "port", "Port",
			reflectschema.PatchMeta{},
			[]finding{{`patchMergeKey:"name"`, "a struct field"}}},
		{"recommended key alone off a list", reflect.TypeFor[vtRecommendedOnUntyped](), "extra", "Extra",
			reflectschema.PatchMeta{},
			[]finding{{`recommendedPatchMergeKey:"a,b"`, "an untyped field"}}},
		{"merge on a scalar", reflect.TypeFor[vtMergeOnScalar](), "name", "Name",
			reflectschema.PatchMeta{},
			[]finding{{`patchStrategy:"merge"`, "merge has no effect: a scalar field is replaced whole"}}},
		{"merge and retainKeys on an atomic", reflect.TypeFor[vtMergeRetainOnAtomic](), "raw", "Raw",
			reflectschema.PatchMeta{},
			[]finding{{`patchStrategy:"merge,retainKeys"`, "merge and retainKeys have no effect: an atomic field"}}},
		{"retainKeys beside replace on a scalar", reflect.TypeFor[vtReplaceRetainOnScalar](), "n", "N",
			reflectschema.PatchMeta{Strategy: reflectschema.Replace},
			[]finding{{`patchStrategy:"replace|retainKeys"`, "retainKeys has no effect"}}},
		{"merge and key on a list of lists", reflect.TypeFor[vtMergeOnListOfLists](), "grid", "Grid",
			reflectschema.PatchMeta{},
			[]finding{{`patchStrategy:"merge"`, "an atomic field"}, {`patchMergeKey:"x"`, "an atomic field"}}},
		{"retainKeys on a list of scalars", reflect.TypeFor[vtRetainOnScalarList](), "names", "Names",
			reflectschema.PatchMeta{Strategy: reflectschema.Merge},
			[]finding{{`patchStrategy:"merge,retainKeys"`, "retainKeys has no effect: the elements are scalars (string)"}}},
		{"merge beside retainKeys on a map", reflect.TypeFor[vtMergeRetainOnMap](), "labels", "Labels",
			reflectschema.PatchMeta{RetainKeys: true},
			[]finding{{`patchStrategy:"retainKeys,merge"`, "merge has no effect: objects merge by default"}}},
		{"inlined field", reflect.TypeFor[vtInlined](), "names", "VtEmbedded.Names",
			reflectschema.PatchMeta{},
			[]finding{{`patchMergeKey:"name"`, "scalars (string)"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := reflectschema.Of(tt.typ)
			require.NoError(t, err)
			f := st.Field(tt.field)
			require.NotNil(t, f)
			assert.Equal(t, tt.want, f.Patch)
			require.NoError(t, f.Validate(), "what is kept is valid")

			got, err := reflectschema.Vet(tt.typ)
			require.NoError(t, err)
			require.Len(t, got, len(tt.findings), "%v", got)
			for i, w := range tt.findings {
				assert.Equal(t, tt.typ, got[i].Type)
				assert.Equal(t, tt.goName, got[i].Field)
				assert.Equal(t, tt.field, got[i].Path)
				assert.Equal(t, w.tag, got[i].Tag)
				assert.Contains(t, got[i].Reason, w.says)
			}
		})
	}
}

type (
	vtRoot struct {
		Spec  vtSpec            `json:"spec"`
		Again *vtSpec           `json:"again"` // reported once, under spec
		Items []vtItem          `json:"items" patchStrategy:"merge" patchMergeKey:"id"`
		ByKey map[string]vtItem `json:"byKey"`
	}
	vtSpec struct {
		Template vtKeyOnStruct `json:"template" patchStrategy:"merge"`
		Self     *vtSpec       `json:"self"`
	}
	vtItem struct {
		ID   string   `json:"id"`
		Tags []string `json:"tags" patchMergeKey:"k"`
		Up   *vtRoot  `json:"up"`
	}
)

func TestVetWalksEveryTypeOnce(t *testing.T) {
	got, err := reflectschema.Vet(reflect.TypeFor[vtRoot]())
	require.NoError(t, err)
	var lines []string
	for _, f := range got {
		lines = append(lines, f.Path+" "+f.Field+" "+f.Tag)
	}
	assert.Equal(t, []string{
		`spec.template Template patchStrategy:"merge"`,
		`spec.template.port Port patchMergeKey:"name"`,
		`items[].tags Tags patchMergeKey:"k"`,
	}, lines)

	// Vet leaves Of's result alone, and says the same each time.
	st := mustFor[vtRoot](t)
	again, err := reflectschema.Vet(reflect.TypeFor[vtRoot]())
	require.NoError(t, err)
	assert.Equal(t, got, again)
	assert.Same(t, st, mustFor[vtRoot](t))

	// A root that is not a struct, and a type with nothing to report.
	got, err = reflectschema.Vet(reflect.TypeFor[map[string][]vtItem]())
	require.NoError(t, err)
	lines = nil
	for _, f := range got {
		lines = append(lines, f.Path)
	}
	assert.Equal(t, []string{"[*][].tags", "[*][].up.spec.template", "[*][].up.spec.template.port"}, lines)
	got, err = reflectschema.Vet(reflect.TypeFor[vaValidKeys]())
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestVetReturnsOfsError(t *testing.T) {
	got, err := reflectschema.Vet(reflect.TypeFor[vaKeyNotAField]())
	assert.Nil(t, got)
	requireRuleError(t, err, reflect.TypeFor[vaKeyNotAField](), "Ports", reflectschema.RuleMergeKey)
	_, err = reflectschema.Vet(nil)
	require.Error(t, err)
}
