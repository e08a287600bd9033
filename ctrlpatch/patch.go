package ctrlpatch

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// Option configures a patch.
type Option func(*config)

type config struct {
	lock   bool
	engine []smp.Option
}

// WithOptimisticLock makes a strategic merge patch carry the original's
// metadata.resourceVersion, so that a server holding a newer object
// refuses it (409 Conflict), as controller-runtime's
// MergeFromWithOptimisticLock does.
func WithOptimisticLock() Option { return func(c *config) { c.lock = true } }

// WithEngineOptions passes options to the engine, such as
// smp.WithDirectives.
func WithEngineOptions(opts ...smp.Option) Option {
	return func(c *config) { c.engine = append(c.engine, opts...) }
}

func configOf(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// StrategicMergeFrom returns a client.Patch whose data is the strategic
// merge patch from original to the object it is given, which must be a
// T: smp.Diff on the Go values, with the directives today's servers
// understand unless WithEngineOptions says otherwise. original is kept
// as it is; change a copy.
func StrategicMergeFrom[T client.Object](original T, opts ...Option) client.Patch {
	return &strategicFrom[T]{original: original, cfg: configOf(opts)}
}

type strategicFrom[T client.Object] struct {
	original T
	cfg      *config
}

func (p *strategicFrom[T]) Type() types.PatchType { return types.StrategicMergePatchType }

func (p *strategicFrom[T]) Data(obj client.Object) ([]byte, error) {
	modified, ok := obj.(T)
	if !ok {
		return nil, fmt.Errorf("ctrlpatch: the patch was made from a %T and is given a %T", p.original, obj)
	}
	patch, err := smp.Diff(p.original, modified, p.cfg.engine...)
	if err != nil {
		return nil, err
	}
	data, err := patch.MarshalJSON()
	if err != nil || !p.cfg.lock {
		return data, err
	}
	return withResourceVersion(data, p.original.GetResourceVersion())
}

// withResourceVersion adds metadata.resourceVersion to a patch.
func withResourceVersion(patch []byte, rv string) ([]byte, error) {
	if rv == "" {
		return nil, fmt.Errorf("ctrlpatch: an optimistic lock needs the original's resourceVersion, which is empty")
	}
	var m map[string]any
	if err := json.Unmarshal(patch, &m); err != nil {
		return nil, err
	}
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	md["resourceVersion"] = rv
	return json.Marshal(m)
}

// MergeFrom returns a client.Patch for a custom resource whose data is
// the JSON merge patch (RFC 7386) that turns original into what the
// strategic merge patch from original to the object it is given, computed
// with schema (from package openapischema, for example), makes of it,
// with original's metadata.resourceVersion as a precondition
// (smp.MergePatchJSON). original is kept as it is; change a copy.
func MergeFrom(original client.Object, schema *reflectschema.Type, opts ...Option) client.Patch {
	return &schemaFrom{original: original, schema: schema, cfg: configOf(opts), kind: types.MergePatchType}
}

// JSONPatchFrom is MergeFrom with a JSON patch (RFC 6902) whose first
// operation tests original's metadata.resourceVersion
// (smp.JSONPatchJSON): it changes one field or list element per
// operation.
func JSONPatchFrom(original client.Object, schema *reflectschema.Type, opts ...Option) client.Patch {
	return &schemaFrom{original: original, schema: schema, cfg: configOf(opts), kind: types.JSONPatchType}
}

type schemaFrom struct {
	original client.Object
	schema   *reflectschema.Type
	cfg      *config
	kind     types.PatchType
}

func (p *schemaFrom) Type() types.PatchType { return p.kind }

func (p *schemaFrom) Data(obj client.Object) ([]byte, error) {
	if p.original.GetResourceVersion() == "" {
		return nil, fmt.Errorf("ctrlpatch: the original %s has no resourceVersion: read it from the server first", p.original.GetName())
	}
	original, err := json.Marshal(p.original)
	if err != nil {
		return nil, err
	}
	modified, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	patch, err := smp.DiffJSON(original, modified, p.schema, p.cfg.engine...)
	if err != nil {
		return nil, err
	}
	if p.kind == types.JSONPatchType {
		return smp.JSONPatchJSON(original, patch, p.schema, p.cfg.engine...)
	}
	return smp.MergePatchJSON(original, patch, p.schema, p.cfg.engine...)
}
