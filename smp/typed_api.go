package smp

import (
	"encoding/json"
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/typedwalk"
)

// Apply applies a strategic merge patch to current and returns the result
// as a new T: what [ApplyJSON] gives for current's JSON, decoded into a T
// with encoding/json. T is a struct or a pointer to one; a nil pointer is
// the empty object, and a pointer T always yields a new, non-nil pointer.
//
// Neither current, nor the patch, nor anything they reach is changed, and
// the result shares nothing mutable with them. Only what the patch reaches
// is merged as JSON; the rest of current is deep-copied as a JSON round
// trip would leave it: fields that encode as absent stay zero, strings
// that are not UTF-8 are repaired. A value of a type with its own
// marshaller is copied as it is when it is plain data (no pointers,
// slices or maps; time.Time too), else re-made through its MarshalJSON and
// UnmarshalJSON, once per distinct value for the life of the process when
// it holds no pointer, slice or map at the time: the two methods must
// depend only on the value. Where T's struct has a DeepCopyInto method,
// as Kubernetes' types do, the copy starts from it (which must copy deeply,
// as generated code does), and what a JSON round trip changes is then
// changed in the copy: the result is the same. A failed Apply returns the
// zero T and an *Error.
func Apply[T any](current T, patch Patch, opts ...Option) (T, error) {
	res, err := applyTyped(reflect.ValueOf(any(current)), current, patch, opts, false)
	return res, public(err)
}

// applyTyped is Apply of current, v its reflect.Value; with share, the
// result shares with current what the patch does not reach.
func applyTyped[T any](v reflect.Value, current T, patch Patch, opts []Option, share bool) (T, error) {
	var zero T
	out, err := applyTypedValue(v, &current, patch, opts, share)
	if err != nil {
		return zero, err
	}
	res, _ := reflect.TypeAssert[T](out)
	return res, nil
}

// applyTypedValue is applyTyped's result as a reflect.Value of type T,
// which ApplyInPlace stores with one copy; current is only read.
func applyTypedValue[T any](v reflect.Value, current *T, patch Patch, opts []Option, share bool) (reflect.Value, error) {
	cfg := newConfig(opts)
	root, err := goval.RootFor(reflect.TypeFor[T]())
	if err != nil {
		return reflect.Value{}, err
	}
	cv := root.Value(v)
	if cfg.KubeDirectiveScope {
		b := goval.NewBudget(cfg.Limits)
		if err := b.MeasureTyped(cv, root.Node, "original document"); err != nil {
			return reflect.Value{}, err
		}
		res, err := applyViaJSON(*current, patch, opts)
		if err != nil {
			return reflect.Value{}, err
		}
		return reflect.ValueOf(&res).Elem(), nil
	}
	pm := patch.patchMap()
	if !patch.checkedWithin(cfg.Limits) {
		if err := goval.CheckDecodedLimits(pm, cfg.Limits, "patch"); err != nil {
			return reflect.Value{}, err
		}
	}
	b := goval.NewBudget(cfg.Limits)
	if err := b.CheckTyped(cv, root.Node, cfg.Limits, "original document"); err != nil {
		return reflect.Value{}, err
	}
	apply := typedwalk.Apply
	if share {
		apply = typedwalk.ApplyShared
	} else if cp, ok := deepCopied(root, cv, *current); ok {
		// A copy of its own to merge into in place.
		cv, apply = cp, typedwalk.ApplyShared
	}
	out, err := apply(root, cv, pm, cfg)
	if err != nil {
		return reflect.Value{}, err
	}
	return root.Wrap(out), nil
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

// Diff returns the strategic merge patch that turns original into
// modified: the patch [DiffJSON] computes from their JSON encodings, found
// by walking the Go values instead of encoding them. T is a struct or a
// pointer to one; a nil pointer is the empty object.
//
// Equal parts of the two values are compared without allocating. Types
// with their own JSON or text marshaller are compared as Go values, and
// through their JSON only when those differ. Options are those of
// [DiffJSON]; limits apply to nesting, list lengths and the values in
// memory ([Limits].MaxNodes), not to bytes.
func Diff[T any](original, modified T, opts ...Option) (Patch, error) {
	p, err := diff(original, modified, opts)
	return p, public(err)
}

func diff[T any](original, modified T, opts []Option) (Patch, error) {
	cfg := newDiffConfig(opts)
	root, err := goval.RootFor(reflect.TypeFor[T]())
	if err != nil {
		return Patch{}, err
	}
	o, m := root.Value(reflect.ValueOf(any(original))), root.Value(reflect.ValueOf(any(modified)))
	b := goval.NewBudget(cfg.Limits)
	if err := b.CheckTyped(o, root.Node, cfg.Limits, "original document"); err != nil {
		return Patch{}, err
	}
	if err := b.CheckTyped(m, root.Node, cfg.Limits, "modified document"); err != nil {
		return Patch{}, err
	}
	if cfg.RepeatReplaced {
		p, err := typedViaJSON(root, cfg, o, m)
		return Patch{m: p}, err
	}
	p, err := typedwalk.Diff(root, o, m, cfg)
	if err != nil {
		return Patch{}, err
	}
	if err := engine.CheckPreconditions(p, cfg.Preconditions); err != nil {
		return Patch{}, err
	}
	return Patch{m: p}, nil
}

// ThreeWay returns the patch that brings current to modified while keeping
// what others changed in current since original (the last applied
// configuration): the patch [ThreeWayJSON] computes from the three values'
// JSON, found by walking the Go values. T is a struct or a pointer to one;
// a nil pointer is the empty object.
//
// A patch that changes a field current also changed since original fails
// with an *Error of kind ErrConflict naming the paths, unless
// WithOverwrite(true).
func ThreeWay[T any](original, modified, current T, opts ...Option) (Patch, error) {
	p, err := threeWay(original, modified, current, opts)
	return p, public(err)
}

func threeWay[T any](original, modified, current T, opts []Option) (Patch, error) {
	cfg := newDiffConfig(opts)
	root, err := goval.RootFor(reflect.TypeFor[T]())
	if err != nil {
		return Patch{}, err
	}
	o := root.Value(reflect.ValueOf(any(original)))
	m := root.Value(reflect.ValueOf(any(modified)))
	c := root.Value(reflect.ValueOf(any(current)))
	docs := [...]struct {
		v    reflect.Value
		what string
	}{{o, "original document"}, {m, "modified document"}, {c, "current document"}}
	b := goval.NewBudget(cfg.Limits)
	for _, doc := range docs {
		if err := b.CheckTyped(doc.v, root.Node, cfg.Limits, doc.what); err != nil {
			return Patch{}, err
		}
	}
	if cfg.RepeatReplaced {
		p, err := typedViaJSON(root, cfg, o, m, c)
		return Patch{m: p}, err
	}
	p, err := typedwalk.ThreeWay(root, o, m, c, cfg)
	if err != nil {
		return Patch{}, err
	}
	return Patch{m: p}, nil
}
