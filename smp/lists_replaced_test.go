package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// Patches that replace a list or an object whole (issue #14): keyless
// elements in replaced lists, empty objects and conflicts under a
// replaced root. checkNoLoss is in lists_newelements_test.go.

// TestOmittedMergeKey: issue #14. An element whose merge key is an
// omitempty zero value has no key field in its JSON. The differ writes
// its list whole ($patch: replace), and the applier takes such elements
// in a list the patch replaces (as Kubernetes' does): the patch applies.
// A single key, a key of two fields, a default key with recommended keys,
// at the top and nested, added whole or changed.
func TestOmittedMergeKey(t *testing.T) {
	pod := func(names ...string) exampletypes.Pod {
		var refs []exampletypes.LocalObjectReference
		for _, n := range names {
			refs = append(refs, exampletypes.LocalObjectReference{Name: n})
		}
		return exampletypes.Pod{Spec: exampletypes.PodSpec{ImagePullSecrets: refs}}
	}
	checkNoLoss(t, dlCase[exampletypes.Pod]{"single key: keyless element added", pod("a"), pod("a", ""), pod("a")})
	checkNoLoss(t, dlCase[exampletypes.Pod]{"single key: keyless element named", pod("", "b"), pod("c", "b"), pod("", "b")})
	checkNoLoss(t, dlCase[exampletypes.Pod]{"single key: new list of one keyless", pod(), pod(""), pod()})
	checkNoLoss(t, dlCase[exampletypes.Pod]{"single key: keyless element removed", pod("a", ""), pod("a"), pod("a", "")})

	multi := func(items ...exampletypes.SeedItem) exampletypes.SeedMultiKey {
		return exampletypes.SeedMultiKey{List: items}
	}
	checkNoLoss(t, dlCase[exampletypes.SeedMultiKey]{"two-field key: half a key",
		multi(exampletypes.SeedItem{Foo: "a", Bar: "b"}),
		multi(exampletypes.SeedItem{Foo: "a", Bar: "b"}, exampletypes.SeedItem{Foo: "a", Another: "x"}),
		multi(exampletypes.SeedItem{Foo: "a", Bar: "b"})})
	checkNoLoss(t, dlCase[exampletypes.SeedMultiKey]{"two-field key: no key at all, changed",
		multi(exampletypes.SeedItem{Another: "1"}), multi(exampletypes.SeedItem{Another: "2"}), multi(exampletypes.SeedItem{Another: "1"})})

	rec := func(items ...exampletypes.SeedItem) exampletypes.SeedRecommended {
		return exampletypes.SeedRecommended{List: items}
	}
	checkNoLoss(t, dlCase[exampletypes.SeedRecommended]{"recommended keys: no default key",
		rec(exampletypes.SeedItem{Foo: "a", Bar: "x"}),
		rec(exampletypes.SeedItem{Foo: "a", Bar: "x"}, exampletypes.SeedItem{Bar: "y", Another: "v"}),
		rec(exampletypes.SeedItem{Foo: "a", Bar: "x"})})
	checkNoLoss(t, dlCase[exampletypes.SeedRecommended]{"recommended keys: new list without default key",
		rec(), rec(exampletypes.SeedItem{Bar: "y"}), rec()})

	gw := func(refs ...string) exampletypes.Gateway {
		var rs []exampletypes.LocalObjectReference
		for _, r := range refs {
			rs = append(rs, exampletypes.LocalObjectReference{Name: r})
		}
		return exampletypes.Gateway{Spec: exampletypes.GatewaySpec{Listeners: []exampletypes.Listener{
			{Port: 443, Protocol: "HTTPS", TLS: &exampletypes.ListenerTLS{CertificateRefs: rs}},
			{Port: 80, Protocol: "HTTP"},
		}}}
	}
	checkNoLoss(t, dlCase[exampletypes.Gateway]{"nested in a multi-key list", gw("cert"), gw("cert", ""), gw("cert")})
	checkNoLoss(t, dlCase[exampletypes.Gateway]{"nested, keyless to keyed", gw(""), gw("new"), gw("")})
}

// TestKeylessElementsOnlyInReplacedLists: a list that is merged, not
// replaced, still needs every element's key.
func TestKeylessElementsOnlyInReplacedLists(t *testing.T) {
	cur := []byte(`{"spec":{"imagePullSecrets":[{"name":"a"}]}}`)
	for _, p := range []string{
		`{"spec":{"imagePullSecrets":[{}]}}`,
		`{"spec":{"imagePullSecrets":[{"name":"b"},{}]}}`,
		`{"spec":{"$setElementOrder/imagePullSecrets":[{}],"imagePullSecrets":[{},{"$patch":"replace"}]}}`,
	} {
		_, err := smp.ApplyJSON(cur, []byte(p), exampletypes.Pod{})
		require.Equal(t, smp.ErrMissingMergeKey, smp.KindOf(err), "%s: %v", p, err)
	}
	got, err := smp.ApplyJSON(cur, []byte(`{"spec":{"imagePullSecrets":[{},{"name":"b"},{"$patch":"replace"}]}}`), exampletypes.Pod{})
	require.NoError(t, err)
	require.JSONEq(t, `{"spec":{"imagePullSecrets":[{},{"name":"b"}]}}`, string(got))
}

type dlEmpty struct {
	X string `json:"x,omitempty"`
}

type dlNest struct {
	Set []string `json:"set,omitempty" patchStrategy:"merge"`
	U   *dlEmpty `json:"u,omitempty"`
	N   *dlNest  `json:"n,omitempty"`
}

type dlRoot struct {
	Set []string          `json:"set,omitempty" patchStrategy:"merge"`
	U   *dlEmpty          `json:"u,omitempty"`
	N   *dlNest           `json:"n,omitempty"`
	M   map[string]dlNest `json:"m,omitempty"`
}

// TestReplacedObjectsKeepEmptyObjects: issue #14. A three-way patch that
// replaces an object ($patch: replace, here because a set holds a value
// twice) says its whole content: the empty objects in it, at any depth,
// are kept, so applying it to current gives modified.
func TestReplacedObjectsKeepEmptyObjects(t *testing.T) {
	full := &dlEmpty{X: "1"}
	original := dlRoot{Set: []string{"a"}, U: full, N: &dlNest{U: full, N: &dlNest{U: full}},
		M: map[string]dlNest{"k": {U: full, Set: []string{"s"}}}}
	modified := dlRoot{Set: []string{"a", "a"}, U: &dlEmpty{}, N: &dlNest{U: &dlEmpty{}, N: &dlNest{U: &dlEmpty{}}},
		M: map[string]dlNest{"k": {U: &dlEmpty{}, Set: []string{"s"}}}}
	checkNoLoss(t, dlCase[dlRoot]{"root replaced", original, modified, original})

	// Replaced one and two levels down: a set there holds a value twice.
	nestedMod := dlRoot{Set: []string{"a"}, U: &dlEmpty{}, N: &dlNest{Set: []string{"b", "b"}, U: &dlEmpty{}, N: &dlNest{U: &dlEmpty{}}},
		M: map[string]dlNest{"k": {U: &dlEmpty{}, Set: []string{"s", "s"}}}}
	checkNoLoss(t, dlCase[dlRoot]{"nested objects replaced", original, nestedMod, original})
	deeper := dlRoot{Set: []string{"a"}, U: full, N: &dlNest{U: full, N: &dlNest{Set: []string{"c", "c"}, U: &dlEmpty{}, N: &dlNest{}}}}
	checkNoLoss(t, dlCase[dlRoot]{"replaced two levels down", original, deeper, original})

	// The shape through the JSON API alone: "u":{} beside a set.
	o := []byte(`{"set":["a"],"u":{"x":"1"},"n":{"u":{"x":"1"}}}`)
	m := []byte(`{"set":["a","a"],"u":{},"n":{"u":{},"n":{}}}`)
	for _, overwrite := range []bool{true, false} {
		p, err := smp.ThreeWayJSON(o, m, o, dlRoot{}, smp.WithOverwrite(overwrite))
		require.NoError(t, err)
		got, err := smp.ApplyJSON(o, p, dlRoot{})
		require.NoError(t, err)
		require.JSONEq(t, string(m), string(got), "patch %s", p)
		p, err = smp.ThreeWayJSON(o, m, o, dlRoot{}, smp.WithOverwrite(overwrite))
		require.NoError(t, err)
		got, err = smp.ApplyJSON(o, p, dlRoot{})
		require.NoError(t, err)
		require.JSONEq(t, string(m), string(got), "patch %s", p)
	}
}

// TestReplacedRootConflicts: a three-way patch replacing the root
// conflicts only where current changed a field since original that the
// replacement removes or sets differently.
func TestReplacedRootConflicts(t *testing.T) {
	o := []byte(`{"set":["a"],"n":{"u":{"x":"1"}}}`)
	m := []byte(`{"set":["a","a"],"n":{"u":{}}}`)
	for _, c := range []struct {
		current string
		paths   []string // nil: no conflict
	}{
		{`{"set":["a"],"n":{"u":{"x":"1"}}}`, nil},
		{`{"set":["a","b"],"n":{"u":{"x":"1"}}}`, nil}, // sets never conflict
		{`{"set":["a"],"n":{"u":{"x":"1"}},"u":{"x":"2"}}`, []string{"u"}},
		{`{"set":["a"],"n":{"u":{"x":"9"}}}`, []string{"n.u.x"}},
		// Empty objects added are no change (nil ≡ empty, docs/compat.md).
		{`{"set":["a"],"n":{"u":{"x":"1"},"n":{}},"u":{}}`, nil},
		{`{"set":["a"],"n":{"u":{"x":"1"},"n":{"u":{"x":"3"}}},"u":{}}`, []string{"n.n"}},
		{`{"set":["a"],"n":{"u":{"x":"1"},"n":{"n":{}}},"u":{"x":"4"}}`, []string{"u"}},
	} {
		_, err := smp.ThreeWayJSON(o, m, []byte(c.current), dlRoot{})
		var ro, rm, rc dlRoot
		require.NoError(t, json.Unmarshal(o, &ro))
		require.NoError(t, json.Unmarshal(m, &rm))
		require.NoError(t, json.Unmarshal([]byte(c.current), &rc))
		_, terr := checkTypedThreeWay(t, ro, rm, rc)
		if c.paths == nil {
			require.NoError(t, err, c.current)
			require.NoError(t, terr, c.current)
			continue
		}
		require.True(t, smp.IsConflict(err), "%s: %v", c.current, err)
		var paths []string
		for _, p := range err.(*smp.Error).Conflicts {
			paths = append(paths, p.String())
		}
		require.Equal(t, c.paths, paths)
		p, err := smp.ThreeWayJSON(o, m, []byte(c.current), dlRoot{}, smp.WithOverwrite(true))
		require.NoError(t, err)
		got, err := smp.ApplyJSON([]byte(c.current), p, dlRoot{})
		require.NoError(t, err)
		require.JSONEq(t, string(m), string(got))
	}
}
