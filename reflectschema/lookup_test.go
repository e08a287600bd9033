package reflectschema_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// lookalikeMeta has the method set of Kubernetes' LookupPatchMeta, by
// value and by pointer receiver.
type lookalikeMeta struct{ T any }

func (lookalikeMeta) LookupPatchMetadataForStruct(string) (any, any, error) { return nil, nil, nil }

type lookalikePtrMeta struct{ T any }

func (*lookalikePtrMeta) LookupPatchMetadataForStruct(string) (any, any, error) { return nil, nil, nil }

// TestOfValueRejectsPatchMetaLookups: a LookupPatchMeta passed where a data
// struct is expected is an error, never the schema of the lookup's own
// fields (which has no merge list, so patches would replace every list).
func TestOfValueRejectsPatchMetaLookups(t *testing.T) {
	for _, v := range []any{lookalikeMeta{}, &lookalikeMeta{}, lookalikePtrMeta{}, &lookalikePtrMeta{}} {
		_, err := reflectschema.OfValue(v)
		require.Error(t, err, "%T", v)
		var se *reflectschema.Error
		require.True(t, errors.As(err, &se), "%T: %v", v, err)
		assert.Equal(t, reflectschema.RuleNotStruct, se.Rule)
		assert.Contains(t, err.Error(), "LookupPatchMeta")
	}
	_, err := reflectschema.OfValue(struct{ T any }{})
	assert.NoError(t, err, "a struct without the method is a data struct")
}
