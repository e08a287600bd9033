package engine

import (
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Objects and lists under a field the schema does not declare: merged as
// plain JSON they would replace lists a fuller schema merges by key, so
// two of them meeting there is an ErrUnknownField error unless the
// caller opts in with WithMergeUnknown. Adding or removing such a field
// whole, and replacing or deleting it with a $patch directive, is fine.

// unknownMerge returns the error for patch value pv meeting document value
// ov (expanded) at slot s, or nil.
func unknownMerge(cfg *Config, ov, pv any, s slot, at *pathNode) error {
	if !s.Undeclared || cfg.MergeUnknown {
		return nil
	}
	k := jsonval.KindOf(pv)
	if k != jsonval.KindOf(ov) || k != jsonval.KindObject && k != jsonval.KindArray {
		return nil
	}
	if m, ok := pv.(map[string]any); ok {
		if _, directed := m[format.KeyPatch]; directed {
			return nil
		}
	}
	return newError(errpath.ErrUnknownField, at, "not a field of the schema, and the document and the patch both hold %s here: merged as plain JSON its lists would be replaced whole, not merged by key (WithMergeUnknown(true) merges it so)", k.WithArticle())
}

// unknownChange is the error for a field the schema does not declare
// whose object or list (shape) changed from the original to modified.
func unknownChange(shape Shape, at *pathNode) error {
	k := jsonval.KindObject
	if shape == ShapeList {
		k = jsonval.KindArray
	}
	return newError(errpath.ErrUnknownField, at, "not a field of the schema, and it holds %s that changed: a patch could only write it as plain JSON, its lists replaced whole, not merged by key (WithMergeUnknown(true) writes it so)", k.WithArticle())
}
