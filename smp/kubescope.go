package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"

	"encoding/json"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// orderAnywhere reports whether directive kind is taken on list slot c,
// which does not merge: $setElementOrder on a list that is not of objects,
// under WithKubernetesDirectiveScope.
func (a *applier) orderAnywhere(kind format.DirectiveKind, c slot) bool {
	return a.cfg.kubeDirectiveScope && kind == format.DirSetOrder && c.Kind() == reflectschema.List && !c.IsObjectList()
}

// orderReplacedList applies $setElementOrder to a list that does not
// merge, as Kubernetes does: a list the patch holds must agree with the
// order and is taken as it is; without one, the live list is reordered
// as a set's would be.
func (a *applier) orderReplacedList(in listInput, c slot, at *pathNode) ([]any, error) {
	if !in.inPatch {
		return a.mergeList(in, c, at) // c holds no objects: a set's reordering
	}
	es := c.Elem()
	pids, err := a.patchScalarIDs(in.patch, es, "patch list", at)
	if err != nil {
		return nil, err
	}
	oids, err := a.patchScalarIDs(in.setOrder, es, format.PrefixSetOrder+" list", in.orderAt())
	if err != nil {
		return nil, err
	}
	if err := checkSetOrder(pids, oids, at, in.orderAt()); err != nil {
		return nil, err
	}
	return a.finalizeList(in.patch, c, at)
}

// applyViaJSON is Apply on the JSON form of current: how Apply honours
// WithKubernetesDirectiveScope, which the typed applier does not
// implement.
func applyViaJSON[T any](current T, patch Patch, opts []Option) (T, error) {
	var zero, res T
	doc, err := json.Marshal(current)
	if err != nil {
		return zero, newError(ErrInvalidJSON, nil, "encoding the current value: %v", err)
	}
	if string(doc) == "null" {
		doc = []byte("{}")
	}
	p, err := patch.MarshalJSON()
	if err != nil {
		return zero, err
	}
	out, err := ApplyJSON(doc, p, zero, opts...)
	if err != nil {
		return zero, err
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return zero, newError(ErrTypeMismatch, nil, "decoding the result: %v", err)
	}
	return res, nil
}
