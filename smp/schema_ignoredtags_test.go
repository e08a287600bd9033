package smp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

// itTagged carries tags Kubernetes ignores (a merge key on a pointer to a
// struct, on a map and on a list of strings; merge on a scalar; retainKeys
// on a list of strings); itPlain is the same type without them. The engine
// must patch both alike.
type itTagged struct {
	Name   string            `json:"name,omitempty"`
	Owner  *itTagged         `json:"owner,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Labels map[string]string `json:"labels,omitempty" patchMergeKey:"key"`
	Hosts  []string          `json:"hosts,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"host"`
	Mode   string            `json:"mode,omitempty" patchStrategy:"merge"`
	Ports  []itPort          `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"port"`
}

type itPlain struct {
	Name   string            `json:"name,omitempty"`
	Owner  *itPlain          `json:"owner,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
	Hosts  []string          `json:"hosts,omitempty" patchStrategy:"merge"`
	Mode   string            `json:"mode,omitempty"`
	Ports  []itPort          `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"port"`
}

type itPort struct {
	Port  int    `json:"port"`
	Proto string `json:"proto,omitempty"`
}

func TestIgnoredTagsPatchAsUntagged(t *testing.T) {
	docs := []string{
		`{}`,
		`{"name":"a","mode":"x","hosts":["h1","h2"],"labels":{"k":"v"}}`,
		`{"name":"a","owner":{"name":"o","hosts":["h3"],"owner":{"name":"oo"}},"ports":[{"port":80},{"port":443,"proto":"TCP"}]}`,
		`{"name":"b","owner":{"name":"p","mode":"y","labels":{"k":"w","j":"1"}},"hosts":["h2","h9"],"ports":[{"port":443,"proto":"UDP"}]}`,
		`{"owner":null,"hosts":[],"labels":{}}`,
	}
	for _, orig := range docs {
		for _, mod := range docs {
			tagged, err := smp.DiffJSON([]byte(orig), []byte(mod), itTagged{})
			require.NoError(t, err, "%s -> %s", orig, mod)
			plain, err := smp.DiffJSON([]byte(orig), []byte(mod), itPlain{})
			require.NoError(t, err)
			assert.JSONEq(t, string(plain), string(tagged), "two-way %s -> %s", orig, mod)

			got, err := smp.ApplyJSON([]byte(orig), tagged, &itTagged{})
			require.NoError(t, err)
			want, err := smp.ApplyJSON([]byte(orig), plain, &itPlain{})
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got), "apply %s to %s", tagged, orig)

			for _, cur := range docs[1:3] {
				tagged, err := smp.ThreeWayJSON([]byte(orig), []byte(mod), []byte(cur), itTagged{}, smp.WithOverwrite(true))
				require.NoError(t, err)
				plain, err := smp.ThreeWayJSON([]byte(orig), []byte(mod), []byte(cur), itPlain{}, smp.WithOverwrite(true))
				require.NoError(t, err)
				assert.JSONEq(t, string(plain), string(tagged), "three-way %s -> %s over %s", orig, mod, cur)
			}
		}
	}
}

func TestIgnoredTagsTypedRoundTrip(t *testing.T) {
	a := itTagged{Name: "a", Owner: &itTagged{Name: "o", Hosts: []string{"x"}}, Mode: "m"}
	b := itTagged{Name: "a", Owner: &itTagged{Name: "p", Hosts: []string{"x", "y"}}, Hosts: []string{"z"}, Labels: map[string]string{"k": "v"}}
	p, err := smp.Diff(a, b)
	require.NoError(t, err)
	assert.JSONEq(t, `{"hosts":["z"],"labels":{"k":"v"},"mode":null,"owner":{"$setElementOrder/hosts":["x","y"],"hosts":["y"],"name":"p"}}`, p.String())
	got, err := smp.Apply(a, p)
	require.NoError(t, err)
	assert.Equal(t, b, got)
}
