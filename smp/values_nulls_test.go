package smp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// TestDiffNullAndValue: a field null in one document and set in the other
// (a pointer without omitempty in Go) is written whole, or as null, by
// the JSON and the typed differ alike.
func TestDiffNullAndValue(t *testing.T) {
	sel := &exampletypes.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	set := `{"spec":{"selector":{"matchLabels":{"app":"web"}}}}`
	unset := `{"spec":{"selector":null}}`
	for _, c := range []struct {
		o, m *exampletypes.LabelSelector
		want string
	}{{nil, sel, set}, {sel, nil, unset}} {
		o := exampletypes.Deployment{Spec: exampletypes.DeploymentSpec{Selector: c.o}}
		m := exampletypes.Deployment{Spec: exampletypes.DeploymentSpec{Selector: c.m}}
		jp, err := smp.DiffJSON(mustMarshal(o), mustMarshal(m), &exampletypes.Deployment{})
		require.NoError(t, err)
		assert.Equal(t, decodeMap([]byte(c.want)), decodeMap(jp), "DiffJSON")
		tp, err := smp.Diff(o, m)
		require.NoError(t, err)
		assert.Equal(t, decodeMap([]byte(c.want)), tp.Map(), "Diff")
	}
	jp, err := smp.DiffJSON([]byte(`{"metadata":{"name":null}}`), []byte(`{"metadata":{"name":"web"}}`), &exampletypes.Deployment{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"metadata":{"name":"web"}}`, string(jp), "a scalar set where null was")
}
