package smp_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// composeSame composes patches with ComposeJSON and ComposeMap, checks
// that both give one patch, and that on every document the patches apply
// to in turn, the composed patch gives the same. It returns the composed
// patch, decoded.
func composeSame(t *testing.T, dataStruct any, docs []string, patches ...string) map[string]any {
	t.Helper()
	raw := make([][]byte, len(patches))
	maps := make([]smp.JSONMap, len(patches))
	for i, p := range patches {
		raw[i] = []byte(p)
		require.NoError(t, json.Unmarshal(raw[i], &maps[i]))
	}
	before := jsonText(t, maps)
	got, err := smp.ComposeJSON(dataStruct, raw...)
	require.NoError(t, err)
	gotMap, err := smp.ComposeMap(dataStruct, maps...)
	require.NoError(t, err)
	assert.JSONEq(t, string(got), jsonText(t, gotMap), "ComposeJSON and ComposeMap agree")
	assert.Equal(t, before, jsonText(t, maps), "ComposeMap changes no argument")
	applied := 0
	for _, d := range docs {
		want, err := []byte(d), error(nil)
		for _, p := range raw {
			if want, err = smp.ApplyJSON(want, p, dataStruct); err != nil {
				break
			}
		}
		if err != nil {
			continue
		}
		applied++
		res, err := smp.ApplyJSON([]byte(d), got, dataStruct)
		require.NoError(t, err, "composed %s on %s", got, d)
		assert.JSONEq(t, string(want), string(res), "on %s, composed %s", d, got)
	}
	require.NotZero(t, applied, "the patches apply to some document")
	var out map[string]any
	require.NoError(t, json.Unmarshal(got, &out))
	return out
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func requireRefusal(t *testing.T, err error, path string, says string) {
	t.Helper()
	var e *smp.Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, smp.ErrNotComposable, e.Kind)
	assert.Equal(t, path, e.Path.String())
	assert.Contains(t, e.Msg, says)
}

// Kubernetes' MergeStrategicMergeMapPatchUsingLookupPatchMeta fails when
// two patches both order one list; composed, the later order wins.
func TestComposeSetElementOrderTwice(t *testing.T) {
	docs := []string{
		`{"list":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}`,
		`{"list":[{"name":"B"},{"name":"A"},{"name":"C"}]}`,
		`{}`,
	}
	p1 := `{"$setElementOrder/list":[{"name":"B"},{"name":"A"},{"name":"C"}],"list":[{"name":"C","value":"3"}]}`
	p2 := `{"$setElementOrder/list":[{"name":"C"},{"name":"A"},{"name":"B"}],"list":[{"name":"A","value":"9"}]}`
	got := composeSame(t, exampletypes.SeedOrderedList{}, docs, p1, p2)
	assert.Equal(t, []any{map[string]any{"name": "C"}, map[string]any{"name": "A"}, map[string]any{"name": "B"}}, got["$setElementOrder/list"])
	assert.Equal(t, []any{map[string]any{"name": "C", "value": "3"}, map[string]any{"name": "A", "value": "9"}}, got["list"],
		"merged elements follow the order")
}

// Deleting an element, then merging into it, is a deletion and a new
// element in one patch: deletions run first.
func TestComposeDeleteThenCreate(t *testing.T) {
	docs := []string{
		`{"spec":{"containers":[{"name":"a","image":"x","ports":[{"containerPort":80}]},{"name":"b"}]}}`,
		`{"spec":{"containers":[{"name":"b"},{"name":"a"},{"name":"a","image":"dup"}]}}`,
		`{"spec":{}}`,
	}
	p1 := `{"spec":{"containers":[{"$patch":"delete","name":"a"}]}}`
	p2 := `{"spec":{"containers":[{"name":"a","image":"y"}]}}`
	got := composeSame(t, exampletypes.Pod{}, docs, p1, p2)
	assert.JSONEq(t, `{"spec":{"containers":[{"name":"a","image":"y"},{"$patch":"delete","name":"a"}]}}`, jsonText(t, got))
	// Merged, then deleted: only the deletion is left.
	got = composeSame(t, exampletypes.Pod{}, docs, p2, p1)
	assert.JSONEq(t, p1, jsonText(t, got))
}

// A map removed (null or $patch: delete) and set again is replaced.
func TestComposeNullThenSet(t *testing.T) {
	docs := []string{
		`{"metadata":{"labels":{"app":"web","tier":"1"}}}`,
		`{"metadata":{}}`,
		`{"metadata":{"labels":{"x":"y"}},"spec":{"strategy":{"type":"Recreate","rollingUpdate":{"maxSurge":1}}}}`,
	}
	got := composeSame(t, exampletypes.Deployment{}, docs,
		`{"metadata":{"labels":null}}`, `{"metadata":{"labels":{"env":"prod"}}}`)
	assert.JSONEq(t, `{"metadata":{"labels":{"$patch":"replace","env":"prod"}}}`, jsonText(t, got))
	got = composeSame(t, exampletypes.Deployment{}, docs,
		`{"spec":{"strategy":{"rollingUpdate":{"$patch":"delete"}}}}`, `{"spec":{"strategy":{"rollingUpdate":{"maxUnavailable":2}}}}`)
	assert.JSONEq(t, `{"spec":{"strategy":{"rollingUpdate":{"$patch":"replace","maxUnavailable":2}}}}`, jsonText(t, got))
	// A list of objects removed and set again is written whole.
	got = composeSame(t, exampletypes.Pod{}, []string{`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`, `{}`},
		`{"spec":{"containers":null}}`, `{"spec":{"containers":[{"name":"c","image":"i"},{"$patch":"delete","name":"a"}]}}`)
	assert.JSONEq(t, `{"spec":{"containers":[{"name":"c","image":"i"},{"$patch":"replace"}]}}`, jsonText(t, got))
}

// $retainKeys: the composed list keeps what both keep and what the later
// patch sets; a member the earlier patch cleared is written whole.
func TestComposeRetainKeys(t *testing.T) {
	docs := []string{
		`{"union":{"foo":"1","other":"2","another":"3","bar":"4"}}`,
		`{"union":{"bar":"4"}}`,
		`{}`,
	}
	got := composeSame(t, exampletypes.SeedUnion{}, docs,
		`{"union":{"$retainKeys":["foo","other"],"foo":"f"}}`,
		`{"union":{"$retainKeys":["other","bar"],"bar":"b"}}`)
	assert.ElementsMatch(t, []any{"other", "bar"}, got["union"].(map[string]any)["$retainKeys"])
	got = composeSame(t, exampletypes.Deployment{}, []string{`{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}}`},
		`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
		`{"spec":{"strategy":{"$retainKeys":["type","rollingUpdate"],"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1}}}}`)
	assert.JSONEq(t, `{"spec":{"strategy":{"$retainKeys":["type","rollingUpdate"],"type":"RollingUpdate","rollingUpdate":{"$patch":"replace","maxUnavailable":1}}}}`, jsonText(t, got))
}

// Sets: per value, the later patch's add or removal wins.
func TestComposeSets(t *testing.T) {
	docs := []string{`{"list":["A","B","C"]}`, `{"list":["C","B"]}`, `{}`}
	got := composeSame(t, exampletypes.SeedOrderedSet{}, docs,
		`{"$deleteFromPrimitiveList/list":["B"],"list":["D","E"]}`,
		`{"$deleteFromPrimitiveList/list":["D","C"]}`)
	assert.ElementsMatch(t, []any{"B", "C", "D"}, got["$deleteFromPrimitiveList/list"])
	assert.Equal(t, []any{"E"}, got["list"])
	got = composeSame(t, exampletypes.SeedOrderedSet{}, docs,
		`{"$deleteFromPrimitiveList/list":["B"]}`,
		`{"$deleteFromPrimitiveList/list":["C"],"list":["F","E"]}`)
	assert.ElementsMatch(t, []any{"B", "C"}, got["$deleteFromPrimitiveList/list"])
	assert.Equal(t, []any{"F", "E"}, got["list"])
	// Removed, then added back with an order naming everything: placed.
	got = composeSame(t, exampletypes.SeedOrderedSet{}, []string{`{"list":["A","B"]}`},
		`{"$deleteFromPrimitiveList/list":["A"],"$setElementOrder/list":["B"]}`,
		`{"$setElementOrder/list":["A","B"],"list":["A"]}`)
	assert.Equal(t, []any{"A"}, got["list"])
	assert.Nil(t, got["$deleteFromPrimitiveList/list"])
}

// A list replaced by the first patch is known after it: the later patch
// applies to it, and the result replaces the list.
func TestComposeReplacedList(t *testing.T) {
	got := composeSame(t, exampletypes.SeedOrderedList{}, []string{`{"list":[{"name":"Z"}]}`, `{}`},
		`{"list":[{"name":"A","value":"1"},{"name":"B"},{"$patch":"replace"}]}`,
		`{"$setElementOrder/list":[{"name":"B"},{"name":"A"}],"list":[{"name":"A","value":"2"}]}`)
	assert.JSONEq(t, `{"list":[{"name":"B"},{"name":"A","value":"2"},{"$patch":"replace"}]}`, jsonText(t, got))
}

// Multi-field keys and $patchMergeKey name elements by all their keys.
func TestComposeMultiFieldKeys(t *testing.T) {
	composeSame(t, exampletypes.Gateway{}, []string{
		`{"spec":{"listeners":[{"port":53,"protocol":"TCP","name":"a"},{"port":53,"protocol":"UDP","name":"b"}]}}`,
	},
		`{"spec":{"listeners":[{"$patch":"delete","port":53,"protocol":"TCP"},{"port":53,"protocol":"UDP","hostname":"h"}]}}`,
		`{"spec":{"$setElementOrder/listeners":[{"port":53,"protocol":"UDP"},{"port":53,"protocol":"TCP"}],`+
			`"listeners":[{"port":53,"protocol":"UDP","name":"c"},{"port":53,"protocol":"TCP","name":"new"}]}}`)
	composeSame(t, exampletypes.SeedRecommended{}, []string{`{"list":[{"foo":"a","bar":"x"},{"foo":"a","bar":"y"}]}`},
		`{"list":[{"$patchMergeKey":["foo","bar"],"foo":"a","bar":"x","other":1}]}`,
		`{"$setElementOrder/list":[{"$patchMergeKey":["foo","bar"],"foo":"a","bar":"x"}],`+
			`"list":[{"$patchMergeKey":["foo","bar"],"$patch":"delete","foo":"a","bar":"y"},{"$patchMergeKey":["foo","bar"],"foo":"a","bar":"x","another":"v"}]}`)
}

func TestComposeRefusals(t *testing.T) {
	_, err := smp.ComposeJSON(exampletypes.Pod{}, []byte(`{"metadata":{"finalizers":null}}`), []byte(`{"metadata":{"finalizers":["f"]}}`))
	requireRefusal(t, err, "metadata.finalizers", "no one patch can empty a set and fill it")
	_, err = smp.ComposeJSON(exampletypes.SeedRecommended{}, []byte(`{"list":[{"foo":"a","other":1}]}`),
		[]byte(`{"list":[{"$patchMergeKey":["foo","bar"],"foo":"a","bar":"x","other":2}]}`))
	requireRefusal(t, err, "list[foo=a,bar=x]", "named by different merge keys")
	_, err = smp.ComposeJSON(exampletypes.SeedOrderedList{},
		[]byte(`{"$setElementOrder/list":[{"name":"A"},{"name":"B"}]}`),
		[]byte(`{"$setElementOrder/list":[{"name":"B"}]}`))
	requireRefusal(t, err, "list[name=A]", "leaves out this item")
	_, err = smp.ComposeJSON(exampletypes.SeedOrderedList{}, []byte(`{}`),
		[]byte(`{"list":[{"name":"A"}],"$setElementOrder/list":[{"name":"B"},{"name":"A"}]}`),
		[]byte(`{"list":[{"name":"C"}]}`))
	requireRefusal(t, err, "list", "cannot compose patch 2 and patch 3")
	// Without $setElementOrder, a patch puts its elements in its order,
	// new ones first: two such patches' result depends on which elements
	// the document holds.
	_, err = smp.ComposeJSON(exampletypes.SeedOrderedSet{}, []byte(`{"list":["D"]}`), []byte(`{"list":["E"]}`))
	requireRefusal(t, err, "list", "are moved by patch 2, without a $setElementOrder/list naming them all")
	_, err = smp.ComposeJSON(exampletypes.SeedOrderedSet{}, []byte(`{"$deleteFromPrimitiveList/list":["B"]}`), []byte(`{"list":["B"]}`))
	requireRefusal(t, err, "list", "\"B\", which patch 1 removed, is added back by patch 2")
}

// An invalid patch fails as Apply would, naming which.
func TestComposeInvalid(t *testing.T) {
	_, err := smp.ComposeJSON(exampletypes.Pod{}, []byte(`{}`), []byte(`{"spec":{"containers":[{"image":"x"}]}}`))
	var e *smp.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, smp.ErrMissingMergeKey, e.Kind)
	assert.Equal(t, "spec.containers[0]", e.Path.String())
	assert.Contains(t, e.Msg, "patch 2: ")
	_, err = smp.ComposeJSON(3, []byte(`{}`))
	assert.Equal(t, smp.ErrSchema, smp.KindOf(err))
	_, err = smp.ComposeJSON(exampletypes.Pod{}, []byte(`[]`))
	assert.Equal(t, smp.ErrNotObject, smp.KindOf(err))
}

// No patches compose into the empty patch; one into itself.
func TestComposeFew(t *testing.T) {
	got, err := smp.ComposeJSON(exampletypes.Pod{})
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, string(got))
	p := `{"$setElementOrder/list":[{"name":"B"},{"name":"A"}],"list":[{"name":"A","value":"1"}]}`
	got, err = smp.ComposeJSON(exampletypes.SeedOrderedList{}, []byte(p))
	require.NoError(t, err)
	assert.JSONEq(t, p, string(got))
}

// The map form takes a schema, as the kube module's
// MergeStrategicMergeMapPatchUsingLookupPatchMeta gives it, and Go
// numbers of any type: a key matches by value.
func TestComposeMapSchema(t *testing.T) {
	schema, err := reflectschema.For[exampletypes.Pod]()
	require.NoError(t, err)
	port := func(n any, extra string) smp.JSONMap {
		return smp.JSONMap{"spec": map[string]any{
			"$setElementOrder/containers": []any{map[string]any{"name": "a"}},
			"containers": []any{map[string]any{"name": "a",
				"$setElementOrder/ports": []any{map[string]any{"containerPort": n}},
				"ports":                  []any{map[string]any{"containerPort": n, "name": extra}}}},
		}}
	}
	p1, p2 := port(80, "http"), port(int64(80), "web")
	got, err := smp.ComposeMap(schema, p1, p2)
	require.NoError(t, err)
	assert.Equal(t, smp.JSONMap{"spec": map[string]any{
		"$setElementOrder/containers": []any{map[string]any{"name": "a"}},
		"containers": []any{map[string]any{"name": "a",
			"$setElementOrder/ports": []any{map[string]any{"containerPort": int64(80)}},
			"ports":                  []any{map[string]any{"containerPort": int64(80), "name": "web"}}}},
	}}, got)
	assert.Equal(t, 80, p1["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["ports"].([]any)[0].(map[string]any)["containerPort"],
		"the caller's patch is not changed")
}

// What a patch recreates (an element deleted and merged anew, an object it
// replaces) is known after it: a later patch's changes there compose even
// where they would not on a document's own values.
func TestComposeFresh(t *testing.T) {
	docs := []string{
		`{"spec":{"containers":[{"name":"a","image":"x","env":[{"name":"Z"}],"args":["q"]},{"name":"b"}]}}`,
		`{"spec":{"containers":[{"name":"b"}]}}`,
		`{}`,
	}
	got := composeSame(t, exampletypes.Pod{}, docs,
		`{"spec":{"containers":[{"name":"a","env":[{"name":"X"},{"name":"Y"}]},{"$patch":"delete","name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a","env":[{"name":"W"}]}]}}`)
	assert.JSONEq(t, `{"spec":{"containers":[{"name":"a","env":[{"name":"W"},{"name":"X"},{"name":"Y"}]},{"$patch":"delete","name":"a"}]}}`, jsonText(t, got))
	// A set removed inside a replaced object, then filled.
	got = composeSame(t, exampletypes.Pod{}, []string{`{"metadata":{"name":"p","finalizers":["a"]}}`, `{}`},
		`{"metadata":{"$patch":"replace","name":"q","finalizers":null}}`,
		`{"metadata":{"finalizers":["b"]}}`)
	assert.JSONEq(t, `{"metadata":{"$patch":"replace","name":"q","finalizers":["b"]}}`, jsonText(t, got))
}

// A later patch without $setElementOrder that only merges into items the
// earlier one left, in their order, moves nothing: kubectl patch twice.
func TestComposeKeepsOrder(t *testing.T) {
	docs := []string{
		`{"spec":{"containers":[{"name":"b"},{"name":"a","image":"x"},{"name":"c"}]}}`,
		`{"spec":{"containers":[{"name":"c"}]}}`,
	}
	got := composeSame(t, exampletypes.Pod{}, docs,
		`{"spec":{"containers":[{"name":"a","image":"y"},{"name":"b","image":"y"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"z"}]}}`)
	assert.JSONEq(t, `{"spec":{"containers":[{"name":"a","image":"z"},{"name":"b","image":"y"}]}}`, jsonText(t, got))
	_, err := smp.ComposeJSON(exampletypes.Pod{},
		[]byte(`{"spec":{"containers":[{"name":"a","image":"y"},{"name":"b","image":"y"}]}}`),
		[]byte(`{"spec":{"containers":[{"name":"b","image":"z"},{"name":"a","image":"z"}]}}`))
	requireRefusal(t, err, "spec.containers", "are moved by patch 2, without a $setElementOrder/containers naming them all")
}

// An item no patch names keeps its content, but may land elsewhere among
// the named ones than the sequence puts it (docs/format.md): here the
// sequence moves s before a, the composed patch leaves it after a.
func TestComposeUnnamedItems(t *testing.T) {
	d := []byte(`{"list":[{"name":"a"},{"name":"s"},{"name":"b"}]}`)
	p1 := []byte(`{"$setElementOrder/list":[{"name":"b"},{"name":"a"}]}`)
	p2 := []byte(`{"$setElementOrder/list":[{"name":"a"},{"name":"b"}]}`)
	got, err := smp.ComposeJSON(exampletypes.SeedOrderedList{}, p1, p2)
	require.NoError(t, err)
	assert.JSONEq(t, string(p2), string(got))
	seq, err := smp.ApplyJSON(d, p1, exampletypes.SeedOrderedList{})
	require.NoError(t, err)
	seq, err = smp.ApplyJSON(seq, p2, exampletypes.SeedOrderedList{})
	require.NoError(t, err)
	res, err := smp.ApplyJSON(d, got, exampletypes.SeedOrderedList{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"list":[{"name":"s"},{"name":"a"},{"name":"b"}]}`, string(seq))
	assert.JSONEq(t, `{"list":[{"name":"a"},{"name":"s"},{"name":"b"}]}`, string(res))
	// Without s, the document holds only named items: the same result.
	d = []byte(`{"list":[{"name":"a"},{"name":"b"}]}`)
	composeSame(t, exampletypes.SeedOrderedList{}, []string{string(d)}, string(p1), string(p2))
}
