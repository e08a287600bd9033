package smp

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// TestPublicConstantsAreTheEngines: the public kinds, directive sets and
// orderings have the values of the engine's, which options and errors
// convert to and from.
func TestPublicConstantsAreTheEngines(t *testing.T) {
	kinds := []ErrorKind{ErrInvalidJSON, ErrNotObject, ErrSchema, ErrTypeMismatch, ErrInvalidValue,
		ErrUnknownDirective, ErrInvalidDirective, ErrDirectiveNotAllowed, ErrMissingMergeKey,
		ErrNullMergeKey, ErrAmbiguousMergeKey, ErrSetElementOrder, ErrRetainKeys, ErrMixedList,
		ErrUnknownField, ErrLimit, ErrConflict, ErrPreconditionFailed, ErrNotComposable}
	engine := errpath.Kinds()
	assert.Len(t, kinds, len(engine))
	for i := range min(len(kinds), len(engine)) {
		assert.Equal(t, string(engine[i]), string(kinds[i]))
	}
	assert.Equal(t, kinds, Kinds())

	sets := map[DirectiveSet]format.DirectiveSet{DirectivesLegacy: format.DirectivesLegacy,
		DirectivesSetElementOrder: format.DirectivesSetElementOrder, DirectivesRetainKeys: format.DirectivesRetainKeys,
		DirectivesAll: format.DirectivesAll}
	for d, f := range sets {
		assert.Equal(t, f, format.DirectiveSet(d))
		assert.Equal(t, f.String(), d.String())
		got, ok := ParseDirectiveSet(f.String())
		assert.True(t, ok)
		assert.Equal(t, d, got)
	}
	assert.Equal(t, format.DirectivesAll, newConfig([]Option{WithDirectives(DirectivesAll)}).Directives)
	assert.Equal(t, format.DirectivesLegacy, newConfig([]Option{WithDirectives(DirectivesLegacy)}).Directives)

	assert.Equal(t, format.KubernetesOrder, format.Ordering(KubernetesOrder))
	assert.Equal(t, format.SeedOrder, format.Ordering(SeedOrder))
	assert.Equal(t, format.SeedOrder, newConfig([]Option{WithOrdering(SeedOrder)}).Ordering)
}
