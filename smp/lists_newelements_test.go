package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

// Types whose merge lists hold sets, merge lists and maps inside their
// elements: where a value added whole needs a replace form.

type dlItem struct {
	Name string   `json:"name"`
	Tags []string `json:"tags,omitempty" patchStrategy:"merge"`
}

type dlDoc struct {
	Items []dlItem `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

type dlLabels struct {
	Values []string `json:"values,omitempty" patchStrategy:"merge"`
	Note   string   `json:"note,omitempty"`
}

type dlMember struct {
	ID     int       `json:"id"`
	Labels *dlLabels `json:"labels,omitempty"`
	Roles  []string  `json:"roles,omitempty" patchStrategy:"merge"`
}

type dlGroup struct {
	Title   string            `json:"title"`
	Members []dlMember        `json:"members,omitempty" patchStrategy:"merge" patchMergeKey:"id"`
	ByZone  map[string]dlItem `json:"byZone,omitempty"`
}

type dlTeam struct {
	Groups []dlGroup `json:"groups,omitempty" patchStrategy:"merge" patchMergeKey:"title"`
	Extra  []dlItem  `json:"extra,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

type dlPort struct {
	Port     int      `json:"port"`
	Protocol string   `json:"protocol,omitempty"`
	Hosts    []string `json:"hosts,omitempty" patchStrategy:"merge"`
}

type dlGateway struct {
	Multi []dlPort `json:"multi,omitempty" patchStrategy:"merge" patchMergeKey:"port,protocol"`
	Rec   []dlPort `json:"rec,omitempty" patchStrategy:"merge" patchMergeKey:"port" recommendedPatchMergeKey:"port,protocol"`
}

// dlCase is a change from original to modified, with a current document
// for three-way patches.
type dlCase[T any] struct {
	name                        string
	original, modified, current T
}

// checkNoLoss checks, through the typed and the JSON API, that the
// two-way patch turns original (and current) into modified, that the
// three-way patch, with and without overwrite, turns current into
// modified, and that each patch applied twice changes nothing more.
func checkNoLoss[T any](t *testing.T, c dlCase[T]) { checkNoLossOn(t, c, nil) }

// checkNoLossOn is checkNoLoss where the patches make onCurrent of
// current: modified and the elements only current holds.
func checkNoLossOn[T any](t *testing.T, c dlCase[T], onCurrent *T) {
	t.Run(c.name, func(t *testing.T) {
		want, wantCur := jsonOf(t, c.modified), jsonOf(t, c.modified)
		if onCurrent != nil {
			wantCur = jsonOf(t, *onCurrent)
		}
		var zero T
		twoWay := checkTypedDiff(t, c.original, c.modified)
		pj, err := smp.DiffJSON(marshal(t, c.original), marshal(t, c.modified), zero)
		require.NoError(t, err)
		requireTypedApplies(t, c.original, twoWay, want)
		requireJSONApplies(t, marshal(t, c.original), pj, zero, want)
		requireTypedApplies(t, c.current, twoWay, wantCur)
		requireJSONApplies(t, marshal(t, c.current), pj, zero, wantCur)
		for _, overwrite := range []bool{true, false} {
			p3, err := checkTypedThreeWay(t, c.original, c.modified, c.current, smp.WithOverwrite(overwrite))
			require.NoError(t, err, "overwrite=%v", overwrite)
			requireTypedApplies(t, c.current, p3, wantCur)
			pj3, err := smp.ThreeWayJSON(marshal(t, c.original), marshal(t, c.modified), marshal(t, c.current), zero, smp.WithOverwrite(overwrite))
			require.NoError(t, err)
			requireJSONApplies(t, marshal(t, c.current), pj3, zero, wantCur)
		}
	})
}

func requireTypedApplies[T any](t *testing.T, on T, p smp.Patch, want any) {
	t.Helper()
	once, err := checkTypedApply(t, on, p)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(want, jsonOf(t, once)), "typed Apply of %s to %s", marshal(t, p), marshal(t, on))
	twice, err := checkTypedApply(t, once, p)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(want, jsonOf(t, twice)), "typed Apply twice of %s", marshal(t, p))
}

func requireJSONApplies(t *testing.T, on, p []byte, ds any, want any) {
	t.Helper()
	once, err := smp.ApplyJSON(on, p, ds)
	require.NoError(t, err, "patch %s", p)
	require.Empty(t, cmp.Diff(want, typedDecode(t, once)), "ApplyJSON of %s to %s", p, on)
	twice, err := smp.ApplyJSON(once, p, ds)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(want, typedDecode(t, twice)), "ApplyJSON twice of %s", p)
}

func jsonOf(t *testing.T, v any) any { return typedDecode(t, marshal(t, v)) }

// TestNewElementWithRepeatedSetValue: issue #14. A new element of a merge
// list whose own set holds a value twice is written so that applying the
// patch keeps it and every other element, not as a $patch: replace
// inside the element, which replaced its list with nothing.
func TestNewElementWithRepeatedSetValue(t *testing.T) {
	y := dlItem{Name: "y"}
	checkNoLoss(t, dlCase[dlDoc]{"issue",
		dlDoc{Items: []dlItem{y}},
		dlDoc{Items: []dlItem{y, {Name: "x", Tags: []string{"a", "a"}}}},
		dlDoc{Items: []dlItem{y}}})
	checkNoLoss(t, dlCase[dlDoc]{"first element of a new list",
		dlDoc{},
		dlDoc{Items: []dlItem{{Name: "p", Tags: []string{"q", "r", "q"}}, {Name: "s"}}},
		dlDoc{}})
	checkNoLoss(t, dlCase[dlDoc]{"several new, one repeating",
		dlDoc{Items: []dlItem{{Name: "k1", Tags: []string{"t"}}}},
		dlDoc{Items: []dlItem{{Name: "k0", Tags: []string{"u"}}, {Name: "k1", Tags: []string{"t"}}, {Name: "k2", Tags: []string{"v", "w", "v", "v"}}}},
		dlDoc{Items: []dlItem{{Name: "k1", Tags: []string{"t"}}}}})
	checkNoLoss(t, dlCase[dlDoc]{"element gains a repeat",
		dlDoc{Items: []dlItem{{Name: "e", Tags: []string{"1"}}, {Name: "f"}}},
		dlDoc{Items: []dlItem{{Name: "e", Tags: []string{"1", "1"}}, {Name: "f"}}},
		dlDoc{Items: []dlItem{{Name: "e", Tags: []string{"1"}}, {Name: "f"}}}})
}

// TestNewElementBesideServerElements: the patch that adds such an element
// leaves alone the elements current holds and the patch does not name, in
// a two-way patch applied to current and in three-way patches.
func TestNewElementBesideServerElements(t *testing.T) {
	o := dlDoc{Items: []dlItem{{Name: "y"}}}
	checkNoLossOn(t, dlCase[dlDoc]{"issue, server element first",
		o, dlDoc{Items: []dlItem{{Name: "y"}, {Name: "x", Tags: []string{"a", "a"}}}},
		dlDoc{Items: []dlItem{{Name: "z"}, {Name: "y"}}}},
		&dlDoc{Items: []dlItem{{Name: "z"}, {Name: "y"}, {Name: "x", Tags: []string{"a", "a"}}}})
	checkNoLossOn(t, dlCase[dlDoc]{"two new, server element last",
		o, dlDoc{Items: []dlItem{{Name: "n1", Tags: []string{"b", "c", "b"}}, {Name: "y"}, {Name: "n2", Tags: []string{"d", "d"}}}},
		dlDoc{Items: []dlItem{{Name: "y"}, {Name: "s", Tags: []string{"e", "e"}}}}},
		&dlDoc{Items: []dlItem{{Name: "n1", Tags: []string{"b", "c", "b"}}, {Name: "y"}, {Name: "n2", Tags: []string{"d", "d"}}, {Name: "s", Tags: []string{"e", "e"}}}})
	team := dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}}}}}
	checkNoLossOn(t, dlCase[dlTeam]{"nested, server member",
		team, dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}, {ID: 2, Roles: []string{"r", "r"}}}}}},
		dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}, {ID: 9}}}}, Extra: []dlItem{{Name: "server"}}}},
		&dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}, {ID: 2, Roles: []string{"r", "r"}}, {ID: 9}}}}, Extra: []dlItem{{Name: "server"}}})
	gw := dlGateway{Multi: []dlPort{{Port: 1, Protocol: "TCP"}}}
	checkNoLossOn(t, dlCase[dlGateway]{"two-field key, server element",
		gw, dlGateway{Multi: []dlPort{{Port: 1, Protocol: "TCP"}, {Port: 1, Protocol: "UDP", Hosts: []string{"h", "h"}}}},
		dlGateway{Multi: []dlPort{{Port: 1, Protocol: "TCP"}, {Port: 2, Protocol: "TCP"}}}},
		&dlGateway{Multi: []dlPort{{Port: 1, Protocol: "TCP"}, {Port: 1, Protocol: "UDP", Hosts: []string{"h", "h"}}, {Port: 2, Protocol: "TCP"}}})
}

// TestNestedNewElementWithRepeatedSetValue: the same two and three levels
// down, in a list of a list, in a pointer to a struct, in a Go map, and
// in lists keyed by several fields or by recommended keys.
func TestNestedNewElementWithRepeatedSetValue(t *testing.T) {
	base := dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}}}}}
	checkNoLoss(t, dlCase[dlTeam]{"new member of a live group",
		base,
		dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}, {ID: 2, Roles: []string{"r", "r"}}}}}},
		base})
	checkNoLoss(t, dlCase[dlTeam]{"new group whose new member repeats",
		base,
		dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}}},
			{Title: "dev", Members: []dlMember{{ID: 7}, {ID: 8, Roles: []string{"x", "y", "x"}}}}}},
		base})
	checkNoLoss(t, dlCase[dlTeam]{"repeat behind a pointer",
		base,
		dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}, {ID: 3, Labels: &dlLabels{Values: []string{"v", "v"}, Note: "n"}}}}}},
		base})
	checkNoLoss(t, dlCase[dlTeam]{"repeat in a map entry of a new group",
		base,
		dlTeam{Groups: []dlGroup{{Title: "ops", Members: []dlMember{{ID: 1}}},
			{Title: "zones", ByZone: map[string]dlItem{"eu": {Name: "z", Tags: []string{"m", "m"}}}}}},
		base})
	checkNoLoss(t, dlCase[dlTeam]{"new list beside a live one",
		base,
		dlTeam{Groups: base.Groups, Extra: []dlItem{{Name: "client", Tags: []string{"c", "c"}}, {Name: "other"}}},
		base})

	gw := dlGateway{Multi: []dlPort{{Port: 53, Protocol: "TCP"}}, Rec: []dlPort{{Port: 80, Protocol: "TCP"}}}
	checkNoLoss(t, dlCase[dlGateway]{"multi-field and recommended keys",
		gw,
		dlGateway{
			Multi: []dlPort{{Port: 53, Protocol: "TCP"}, {Port: 53, Protocol: "UDP", Hosts: []string{"h", "h"}}},
			Rec:   []dlPort{{Port: 80, Protocol: "TCP"}, {Port: 80, Protocol: "UDP", Hosts: []string{"i", "j", "i"}}},
		},
		gw})
}

// TestNestedDirectivesStayInside: a $patch directive acts on the list or
// object that holds it, at any depth, in an element merged into a live one
// or in a new one, never on the lists around it. (A patch item goes before
// the live items it preceded that the patch does not name: Kubernetes' order.)
func TestNestedDirectivesStayInside(t *testing.T) {
	current := `{"groups":[{"title":"ops","members":[{"id":1,"roles":["a"]},{"id":2}]},{"title":"dev"}],"extra":[{"name":"e"}]}`
	cases := []struct{ name, patch, want string }{
		{"replace marker in a merged element's list",
			`{"groups":[{"title":"ops","members":[{"id":9},{"$patch":"replace"}]}]}`,
			`{"groups":[{"title":"ops","members":[{"id":9}]},{"title":"dev"}],"extra":[{"name":"e"}]}`},
		{"replace marker in a new element's list",
			`{"groups":[{"title":"new","members":[{"id":5},{"$patch":"replace"}]}]}`,
			`{"groups":[{"title":"new","members":[{"id":5}]},{"title":"ops","members":[{"id":1,"roles":["a"]},{"id":2}]},{"title":"dev"}],"extra":[{"name":"e"}]}`},
		{"delete in a merged element's list",
			`{"groups":[{"title":"ops","members":[{"id":1,"$patch":"delete"}]}]}`,
			`{"groups":[{"title":"ops","members":[{"id":2}]},{"title":"dev"}],"extra":[{"name":"e"}]}`},
		{"delete in a new element's list",
			`{"groups":[{"title":"new","members":[{"id":1,"$patch":"delete"},{"id":4}]}]}`,
			`{"groups":[{"title":"new","members":[{"id":4}]},{"title":"ops","members":[{"id":1,"roles":["a"]},{"id":2}]},{"title":"dev"}],"extra":[{"name":"e"}]}`},
		{"object directives in a new element",
			`{"groups":[{"title":"new","members":[{"id":6,"labels":{"$patch":"replace","note":"n"}},{"id":7,"labels":{"$patch":"delete"}}]}]}`,
			`{"groups":[{"title":"new","members":[{"id":6,"labels":{"note":"n"}},{"id":7}]},{"title":"ops","members":[{"id":1,"roles":["a"]},{"id":2}]},{"title":"dev"}],"extra":[{"name":"e"}]}`},
		{"replace of a merged member's object",
			`{"groups":[{"title":"ops","members":[{"id":1,"labels":{"$patch":"replace","values":["z","z"]}}]}]}`,
			`{"groups":[{"title":"ops","members":[{"id":1,"roles":["a"],"labels":{"values":["z","z"]}},{"id":2}]},{"title":"dev"}],"extra":[{"name":"e"}]}`},
		{"three levels: a map in a new group beside a merged one",
			`{"groups":[{"title":"ops","members":[{"id":3,"roles":["b"]}]},{"title":"new","byZone":{"eu":{"name":"z","tags":["t"]}}}]}`,
			`{"groups":[{"title":"ops","members":[{"id":3,"roles":["b"]},{"id":1,"roles":["a"]},{"id":2}]},{"title":"new","byZone":{"eu":{"name":"z","tags":["t"]}}},{"title":"dev"}],"extra":[{"name":"e"}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := smp.ApplyJSON([]byte(current), []byte(c.patch), dlTeam{})
			require.NoError(t, err)
			require.Empty(t, cmp.Diff(typedDecode(t, []byte(c.want)), typedDecode(t, got)))
			var cur dlTeam
			require.NoError(t, json.Unmarshal([]byte(current), &cur))
			typed, err := checkTypedApply(t, cur, typedMustParse(t, c.patch))
			require.NoError(t, err)
			require.Empty(t, cmp.Diff(typedDecode(t, []byte(c.want)), jsonOf(t, typed)))
		})
	}
}

// TestRecreatedElementPlace: an element a patch deletes and creates anew
// is made from the patch alone; with $setElementOrder it keeps its live
// place among the elements the order does not name, without it it goes
// where Kubernetes puts it (bench/compat_test.go pins both).
func TestRecreatedElementPlace(t *testing.T) {
	current := `{"items":[{"name":"a"},{"name":"x","tags":["1","2"]},{"name":"b"}]}`
	for _, c := range []struct{ patch, want string }{
		{`{"$setElementOrder/items":[{"name":"a"},{"name":"x"}],"items":[{"name":"x","tags":["3","3"]},{"$patch":"delete","name":"x"}]}`,
			`{"items":[{"name":"a"},{"name":"x","tags":["3","3"]},{"name":"b"}]}`},
		{`{"items":[{"name":"x","tags":["3"]},{"$patch":"delete","name":"x"}]}`,
			`{"items":[{"name":"x","tags":["3"]},{"name":"a"},{"name":"b"}]}`},
		{`{"items":[{"name":"c"},{"name":"x"},{"$patch":"delete","name":"x"}]}`,
			`{"items":[{"name":"c"},{"name":"x"},{"name":"a"},{"name":"b"}]}`},
	} {
		got, err := smp.ApplyJSON([]byte(current), []byte(c.patch), dlDoc{})
		require.NoError(t, err)
		require.JSONEq(t, c.want, string(got), c.patch)
		var cur dlDoc
		require.NoError(t, json.Unmarshal([]byte(current), &cur))
		typed, err := checkTypedApply(t, cur, typedMustParse(t, c.patch))
		require.NoError(t, err)
		require.JSONEq(t, c.want, string(marshal(t, typed)), c.patch)
	}
}

// dlSets holds merge sets written even when empty, so that JSON documents
// hold them as [].
type dlSets struct {
	Set   []string          `json:"set" patchStrategy:"merge"`
	Inner *dlSets           `json:"inner,omitempty"`
	Items []dlSetItem       `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	ByKey map[string]dlSets `json:"byKey,omitempty"`
}

type dlSetItem struct {
	Name string   `json:"name"`
	Set  []string `json:"set" patchStrategy:"merge"`
}

// TestRepeatsOverEmptySet: issue #16's schema suite. A merge set that is
// [] in the original and repeats a value in modified is replaced, as when
// it is absent, not merged (which drops the repeat), at the top, in a
// struct, in a keyed element and in a map value.
func TestRepeatsOverEmptySet(t *testing.T) {
	e := []string{}
	checkNoLoss(t, dlCase[dlSets]{"top",
		dlSets{Set: e}, dlSets{Set: []string{"a", "a"}}, dlSets{Set: e}})
	checkNoLoss(t, dlCase[dlSets]{"in a struct, with other values",
		dlSets{Set: e, Inner: &dlSets{Set: e}},
		dlSets{Set: []string{"k"}, Inner: &dlSets{Set: []string{"b", "c", "b"}}},
		dlSets{Set: e, Inner: &dlSets{Set: e}}})
	checkNoLoss(t, dlCase[dlSets]{"in a keyed element",
		dlSets{Set: e, Items: []dlSetItem{{Name: "x", Set: e}, {Name: "y", Set: e}}},
		dlSets{Set: e, Items: []dlSetItem{{Name: "x", Set: []string{"1", "1", "1"}}, {Name: "y", Set: e}}},
		dlSets{Set: e, Items: []dlSetItem{{Name: "x", Set: e}, {Name: "y", Set: e}}}})
	checkNoLoss(t, dlCase[dlSets]{"in a map value",
		dlSets{Set: e, ByKey: map[string]dlSets{"k": {Set: e}}},
		dlSets{Set: e, ByKey: map[string]dlSets{"k": {Set: []string{"z", "z"}}}},
		dlSets{Set: e, ByKey: map[string]dlSets{"k": {Set: e}}}})
}
