package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// TestUntypedListsLoseDirectives: a list placed whole under untyped JSON
// (a field the schema does not declare, or an any) is merged into nothing
// like every added value: elements that are directives are dropped, objects
// lose their nulls and apply their directives, at any depth; an invalid
// directive inside an object is an error. Before, such lists were copied
// as they were, so results held $patch keys (found by
// FuzzKubernetesAgreement: Kubernetes' results hold none of these).
func TestUntypedListsLoseDirectives(t *testing.T) {
	cases := []struct{ patch, want string }{
		{`{"":{"":[{"$patch":""}]}}`, `{"":{"":[]}}`},
		{`{"x":{"y":[{"$patch":"delete"}]}}`, `{"x":{"y":[]}}`},
		{`{"x":{"y":[{"$patch":"replace"},{"b":2}]}}`, `{"x":{"y":[{"b":2}]}}`},
		{`{"x":[{"a":null,"b":1},"s",3]}`, `{"x":[{"b":1},"s",3]}`},
		{`{"x":[[{"$patch":"delete"}],[{"k":{"n":null,"m":[{"$patch":"x"}]}}]]}`, `{"x":[[],[{"k":{"m":[]}}]]}`},
	}
	for _, c := range cases {
		got, err := smp.ApplyJSON([]byte(`{}`), []byte(c.patch), &exampletypes.Pod{})
		require.NoError(t, err, c.patch)
		assert.JSONEq(t, c.want, string(got), c.patch)
	}
	_, err := smp.ApplyJSON([]byte(`{}`), []byte(`{"x":[{"k":{"$patch":"bogus"}}]}`), &exampletypes.Pod{})
	assert.Equal(t, smp.ErrInvalidDirective, smp.KindOf(err), "%v", err)
}

// anyHolder has an untyped field, for the typed applier.
type anyHolder struct {
	Any any `json:"any,omitempty"`
}

func TestTypedUntypedListsLoseDirectives(t *testing.T) {
	p, err := smp.ParsePatch([]byte(`{"any":["x",{"$patch":"delete","y":null},{"$patch":"replace"},{"z":null,"w":1}]}`))
	require.NoError(t, err)
	got, err := smp.Apply(anyHolder{}, p)
	require.NoError(t, err)
	out, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, `{"any":["x",{"w":1}]}`, string(out))
}
