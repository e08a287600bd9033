package reflectschema_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// Kubernetes types tag self-marshalling fields (RawExtension) with
// patchStrategy replace: what such a value gets anyway, so it is accepted;
// merge or retainKeys there is a mistake.
func TestStrategyOnScalarAndAtomicFields(t *testing.T) {
	type okType struct {
		Raw  json.RawMessage `json:"raw,omitempty" patchStrategy:"replace"`
		Name string          `json:"name,omitempty" patchStrategy:"replace"`
	}
	st, err := reflectschema.For[okType]()
	require.NoError(t, err)
	assert.Equal(t, reflectschema.Replace, st.Field("raw").Patch.Strategy)

	type mergeScalar struct {
		Name string `json:"name" patchStrategy:"merge"`
	}
	_, err = reflectschema.For[mergeScalar]()
	var e *reflectschema.Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, reflectschema.RuleStrategy, e.Rule)
	assert.Contains(t, err.Error(), "mergeScalar.Name")

	type retainAtomic struct {
		Raw json.RawMessage `json:"raw" patchStrategy:"retainKeys"`
	}
	_, err = reflectschema.For[retainAtomic]()
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, reflectschema.RuleStrategy, e.Rule)
	assert.Contains(t, err.Error(), "an atomic field")
}
