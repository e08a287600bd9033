package reflectschema_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

func jsonString() *rs.Type { return &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONString} }

func TestSealIndexesAndChecks(t *testing.T) {
	node := &rs.Type{Kind: rs.Struct, Name: "Node"}
	node.Fields = []*rs.Field{
		{Name: "name", Type: jsonString()},
		{Name: "children", Type: &rs.Type{Kind: rs.List, Elem: node}, Patch: rs.PatchMeta{Strategy: rs.Merge, MergeKey: []string{"name"}}},
		{Name: "Label", Type: jsonString()},
	}
	err := node.Validate()
	require.Error(t, err, "a struct without an index")
	assert.Contains(t, err.Error(), "reflectschema.Seal")

	require.NoError(t, rs.Seal(node), "a recursive schema seals")
	require.NoError(t, node.Validate())
	assert.Same(t, node.Fields[0], node.Field("name"))
	assert.Same(t, node.Fields[2], node.Field("label"), "case-insensitive fallback, as encoding/json")
	assert.Nil(t, node.Field("missing"))
	require.NoError(t, rs.Seal(node), "sealing twice is harmless")
}

func TestValidateChangesNothing(t *testing.T) {
	st := &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{{Name: "a", Type: jsonString()}}}
	require.Error(t, st.Validate())
	require.Error(t, st.Validate(), "Validate does not index or seal")
	assert.NotNil(t, st.Fields[0])
}

func TestSealErrorsNameThePath(t *testing.T) {
	elem := &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{
		{Name: "port", Type: &rs.Type{Kind: rs.Scalar, JSONType: rs.JSONInteger}},
		{Name: "meta", Type: &rs.Type{Kind: rs.Untyped}},
	}}
	list := func(keys ...string) *rs.Type {
		return &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{{Name: "spec", Type: &rs.Type{Kind: rs.Struct, Fields: []*rs.Field{
			{Name: "ports", Type: &rs.Type{Kind: rs.List, Elem: elem}, Patch: rs.PatchMeta{Strategy: rs.Merge, MergeKey: keys}},
		}}}}}
	}
	cases := []struct {
		root *rs.Type
		rule rs.Rule
		path string
		msg  string
	}{
		{list("protocol"), rs.RuleMergeKey, "spec.ports", `"protocol" is not a field`},
		{list("meta"), rs.RuleMergeKey, "spec.ports", `key field "meta" of object is an untyped, not a scalar`},
		{list(), rs.RuleMergeKey, "spec.ports", "without a merge key"},
		{&rs.Type{Kind: rs.Map, Elem: &rs.Type{Kind: rs.List, Elem: &rs.Type{Kind: rs.List}}}, rs.RuleIncomplete, "[*][]", "a list without an element type"},
		{&rs.Type{Kind: rs.Struct, Fields: []*rs.Field{{Name: "s", Type: jsonString(), Patch: rs.PatchMeta{Strategy: rs.Merge}}}}, rs.RuleStrategy, "s", `patch strategy "merge" on a scalar field`},
		{&rs.Type{Kind: rs.Struct, Fields: []*rs.Field{{Name: "m", Type: &rs.Type{Kind: rs.Map, Elem: jsonString()}, Patch: rs.PatchMeta{MergeKey: []string{"k"}}}}}, rs.RuleMergeKey, "m", "merge keys identify elements of lists"},
		{&rs.Type{Kind: rs.Struct, Fields: []*rs.Field{{Name: "l", Type: &rs.Type{Kind: rs.List, Elem: elem}, Patch: rs.PatchMeta{Strategy: rs.Merge, MergeKey: []string{"port"}, RecommendedMergeKey: []string{"meta"}}}}}, rs.RuleRecommended, "l", "must start with the merge key"},
		{&rs.Type{Kind: rs.Struct, Fields: []*rs.Field{{Name: "l", Type: &rs.Type{Kind: rs.List, Elem: jsonString()}, Patch: rs.PatchMeta{Strategy: rs.Merge, RetainKeys: true}}}}, rs.RuleStrategy, "l", "retainKeys on a list of scalars"},
		{&rs.Type{Kind: rs.Struct, Fields: []*rs.Field{{Name: "x", Type: &rs.Type{Kind: 9}}}}, rs.RuleIncomplete, "x", "invalid kind 9"},
	}
	for _, c := range cases {
		err := rs.Seal(c.root)
		require.Error(t, err, c.msg)
		var e *rs.Error
		require.True(t, errors.As(err, &e))
		assert.Equal(t, c.rule, e.Rule, err.Error())
		assert.Equal(t, c.path, e.Path, err.Error())
		assert.Nil(t, e.Type)
		assert.Contains(t, err.Error(), c.msg)
		assert.Contains(t, err.Error(), "reflectschema: "+c.path+": ")
	}
	require.Error(t, rs.Seal(nil))
	require.Error(t, (*rs.Type)(nil).Validate())
}

// Schemas built from Go types validate at once and are not changed.
func TestValidateGoTypes(t *testing.T) {
	st, err := rs.For[oaPod]()
	require.NoError(t, err)
	require.NoError(t, st.Validate())
	require.NoError(t, rs.Seal(st))
	assert.Equal(t, reflect.TypeFor[oaPod](), st.Go)
}

// A deep chain of types seals and validates without deep recursion.
func TestSealDeepChain(t *testing.T) {
	const depth = 50_000
	root := &rs.Type{Kind: rs.Struct}
	cur := root
	for range depth {
		next := &rs.Type{Kind: rs.Struct}
		cur.Fields = []*rs.Field{{Name: "n", Type: next}}
		cur = next
	}
	cur.Fields = []*rs.Field{{Name: "x", Type: &rs.Type{Kind: rs.Scalar, JSONType: "bogus"}}}
	err := rs.Seal(root)
	require.Error(t, err)
	var e *rs.Error
	require.True(t, errors.As(err, &e))
	assert.Len(t, e.Path, 2*depth+1, "n.n.…n.x")
}

func TestStringWithoutGoType(t *testing.T) {
	assert.Equal(t, "io.k8s.api.core.v1.PodSpec", (&rs.Type{Kind: rs.Struct, Name: "io.k8s.api.core.v1.PodSpec"}).String())
	assert.Equal(t, "int32", (&rs.Type{Kind: rs.Scalar, JSONType: rs.JSONInteger, Format: "int32"}).String())
	assert.Equal(t, "boolean", (&rs.Type{Kind: rs.Scalar, JSONType: rs.JSONBoolean}).String())
	assert.Equal(t, "object", (&rs.Type{Kind: rs.Map}).String())
	assert.Equal(t, "array", (&rs.Type{Kind: rs.List}).String())
	assert.Equal(t, "atomic value", (&rs.Type{Kind: rs.Atomic}).String())
}

func TestParsePatchMeta(t *testing.T) {
	m, err := rs.ParsePatchMeta("merge,retainKeys", "containerPort, protocol", "containerPort,protocol,hostIP")
	require.NoError(t, err)
	assert.Equal(t, rs.PatchMeta{Strategy: rs.Merge, RetainKeys: true, MergeKey: []string{"containerPort", "protocol"},
		RecommendedMergeKey: []string{"containerPort", "protocol", "hostIP"}}, m)
	m, err = rs.ParsePatchMeta("", "", "")
	require.NoError(t, err)
	assert.Equal(t, rs.PatchMeta{}, m)
	for _, bad := range [][3]string{{"merge,replace", "", ""}, {"mrege", "", ""}, {"", "a,,b", ""}, {"", "a,a", ""}, {"", "", "x,x"}} {
		_, err := rs.ParsePatchMeta(bad[0], bad[1], bad[2])
		assert.Error(t, err, "%q", bad)
	}
}
