package reflectschema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// Kubernetes types tag self-marshalling fields (RawExtension) with
// patchStrategy replace: what such a value gets anyway, so it is accepted;
// merge or retainKeys there has no effect, and is ignored as Kubernetes
// ignores it, with a finding from Vet.
func TestStrategyOnScalarAndAtomicFields(t *testing.T) {
	type okType struct {
		Raw  json.RawMessage `json:"raw,omitempty" patchStrategy:"replace"`
		Name string          `json:"name,omitempty" patchStrategy:"replace"`
	}
	st, err := reflectschema.For[okType]()
	require.NoError(t, err)
	assert.Equal(t, reflectschema.Replace, st.Field("raw").Patch.Strategy)
	findings, err := reflectschema.Vet(reflect.TypeFor[okType]())
	require.NoError(t, err)
	assert.Empty(t, findings, "replace states what a scalar gets: nothing to report")

	type mergeScalar struct {
		Name string `json:"name" patchStrategy:"merge"`
	}
	st, err = reflectschema.For[mergeScalar]()
	require.NoError(t, err)
	assert.Equal(t, reflectschema.PatchMeta{}, st.Field("name").Patch)
	findings, err = reflectschema.Vet(reflect.TypeFor[mergeScalar]())
	require.NoError(t, err)
	require.Len(t, findings, 1)
	assert.Contains(t, findings[0].String(), "mergeScalar.Name")
	assert.Contains(t, findings[0].Reason, "a scalar field")

	type retainAtomic struct {
		Raw json.RawMessage `json:"raw" patchStrategy:"retainKeys"`
	}
	st, err = reflectschema.For[retainAtomic]()
	require.NoError(t, err)
	assert.False(t, st.Field("raw").Patch.RetainKeys)
	findings, err = reflectschema.Vet(reflect.TypeFor[retainAtomic]())
	require.NoError(t, err)
	require.Len(t, findings, 1)
	assert.Equal(t, `patchStrategy:"retainKeys"`, findings[0].Tag)
	assert.Contains(t, findings[0].Reason, "an atomic field")
}
