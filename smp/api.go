package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// JSONMap is a JSON object decoded into Go values, as in Kubernetes'
// strategicpatch.
type JSONMap map[string]any

// ApplyJSON applies a strategic merge patch to a JSON document and
// returns the result. dataStruct is a value of the Go type whose tags are
// the schema (a struct or a pointer to one), or a *reflectschema.Type;
// anything else is an error. Neither input is changed. (Kubernetes' name
// for it, StrategicMergePatch, lives in the kube module's strategicpatch
// package, with Kubernetes' types and behaviour.)
func ApplyJSON(original, patch []byte, dataStruct any, opts ...Option) ([]byte, error) {
	out, err := applyJSON(original, patch, dataStruct, opts)
	return out, public(err)
}

func applyJSON(original, patch []byte, dataStruct any, opts []Option) ([]byte, error) {
	cfg := newConfig(opts)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return nil, err
	}
	om, release, err := decodeOriginal(original, cfg.Limits)
	if err != nil {
		return nil, err
	}
	defer release()
	pm, err := jsonval.DecodeLimited(patch, "patch", cfg.Limits)
	if err != nil {
		return nil, err
	}
	res, err := engine.ApplyObject(om, pm, s, cfg)
	if err != nil {
		return nil, err
	}
	return jsonval.AppendJSON(make([]byte, 0, len(original)+len(patch)), res)
}

// decodeOriginal reads the document to patch lazily: its values stay raw
// until the patch reaches them. Input the raw scan does not accept takes
// the decoding path, which reports the error.
func decodeOriginal(data []byte, l jsonval.Limits) (doc map[string]any, release func(), err error) {
	release = func() {}
	if l.MaxBytes > 0 && len(data) > l.MaxBytes {
		doc, err = jsonval.DecodeLimited(data, "original document", l)
		return doc, release, err
	}
	if raw, ends, ok := jsonval.ScanRaw(data, l); ok {
		// Until the result is written: it copies the raw values it keeps.
		release = jsonval.RegisterEnds(raw, ends)
		return jsonval.Expand(raw).(map[string]any), release, nil
	}
	doc, err = jsonval.DecodeLimited(data, "original document", l)
	return doc, release, err
}

// ApplyMap is ApplyJSON on decoded objects. It changes neither argument;
// numbers in the result are int64 or float64.
func ApplyMap(original, patch JSONMap, dataStruct any, opts ...Option) (JSONMap, error) {
	out, err := applyMap(original, patch, dataStruct, opts)
	return out, public(err)
}

func applyMap(original, patch JSONMap, dataStruct any, opts []Option) (JSONMap, error) {
	cfg := newConfig(opts)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return nil, err
	}
	om, pm, err := fromGoPair(original, patch, "original document", "patch", cfg)
	if err != nil {
		return nil, err
	}
	res, err := engine.ApplyObject(om, pm, s, cfg)
	if err != nil {
		return nil, err
	}
	return JSONMap(jsonval.ToGo(res).(map[string]any)), nil
}

// DiffJSON returns the patch that turns original into modified, with the
// directives Kubernetes' client writes. Each precondition
// (WithPreconditions) must accept the patch.
func DiffJSON(original, modified []byte, dataStruct any, opts ...Option) ([]byte, error) {
	out, err := diffJSON(original, modified, dataStruct, opts)
	return out, public(err)
}

func diffJSON(original, modified []byte, dataStruct any, opts []Option) ([]byte, error) {
	cfg := newDiffConfig(opts)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return nil, err
	}
	om, err := jsonval.DecodeLimited(original, "original document", cfg.Limits)
	if err != nil {
		return nil, err
	}
	mm, err := jsonval.DecodeLimited(modified, "modified document", cfg.Limits)
	if err != nil {
		return nil, err
	}
	p, err := twoWay(om, mm, s, cfg)
	if err != nil {
		return nil, err
	}
	return jsonval.Encode(p)
}

// twoWay diffs decoded documents and checks the preconditions.
func twoWay(om, mm map[string]any, s slot, cfg *config) (map[string]any, error) {
	d := &engine.Differ{Cfg: cfg, Pass: engine.PassTwoWay}
	p, up, err := d.DiffObject(om, mm, s, nil)
	if err != nil {
		return nil, err
	}
	if up {
		p = engine.ReplaceObject(mm)
	}
	if err := engine.CheckPreconditions(p, cfg.Preconditions); err != nil {
		return nil, err
	}
	return p, nil
}

// DiffMap is DiffJSON on decoded objects. It changes neither argument.
func DiffMap(original, modified JSONMap, dataStruct any, opts ...Option) (JSONMap, error) {
	out, err := diffMap(original, modified, dataStruct, opts)
	return out, public(err)
}

func diffMap(original, modified JSONMap, dataStruct any, opts []Option) (JSONMap, error) {
	cfg := newDiffConfig(opts)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return nil, err
	}
	om, mm, err := fromGoPair(original, modified, "original document", "modified document", cfg)
	if err != nil {
		return nil, err
	}
	p, err := twoWay(om, mm, s, cfg)
	if err != nil {
		return nil, err
	}
	return JSONMap(jsonval.ToGo(p).(map[string]any)), nil
}

// ThreeWayJSON returns the patch that brings current to modified while
// keeping the changes made to current since original. Unless
// WithOverwrite(true), a patch that would undo such a change fails with a
// conflict (IsConflict) naming the paths.
func ThreeWayJSON(original, modified, current []byte, dataStruct any, opts ...Option) ([]byte, error) {
	out, err := threeWayJSON(original, modified, current, dataStruct, opts)
	return out, public(err)
}

func threeWayJSON(original, modified, current []byte, dataStruct any, opts []Option) ([]byte, error) {
	cfg := newDiffConfig(opts)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return nil, err
	}
	docs := [3]map[string]any{}
	for i, in := range [3]struct {
		data []byte
		what string
	}{{original, "original document"}, {modified, "modified document"}, {current, "current document"}} {
		if docs[i], err = jsonval.DecodeLimited(in.data, in.what, cfg.Limits); err != nil {
			return nil, err
		}
	}
	p, err := engine.ThreeWay(docs[0], docs[1], docs[2], s, cfg)
	if err != nil {
		return nil, err
	}
	return jsonval.Encode(p)
}

// ThreeWayMap is ThreeWayJSON on decoded objects. It changes no argument;
// numbers in the patch are int64 or float64.
func ThreeWayMap(original, modified, current JSONMap, dataStruct any, opts ...Option) (JSONMap, error) {
	out, err := threeWayMap(original, modified, current, dataStruct, opts)
	return out, public(err)
}

func threeWayMap(original, modified, current JSONMap, dataStruct any, opts []Option) (JSONMap, error) {
	cfg := newDiffConfig(opts)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return nil, err
	}
	docs, err := fromGoDocs(cfg, goDoc{original, "original document"}, goDoc{modified, "modified document"},
		goDoc{current, "current document"})
	if err != nil {
		return nil, err
	}
	p, err := engine.ThreeWay(docs[0], docs[1], docs[2], s, cfg)
	if err != nil {
		return nil, err
	}
	return JSONMap(jsonval.ToGo(p).(map[string]any)), nil
}

// PatchesConflict reports whether two patches for the same type set a
// field to different values, by Kubernetes' rules (its
// MergingMapsHaveConflicts).
func PatchesConflict(left, right map[string]any, dataStruct any, opts ...Option) (bool, error) {
	out, err := patchesConflict(left, right, dataStruct, opts)
	return out, public(err)
}

func patchesConflict(left, right map[string]any, dataStruct any, opts []Option) (bool, error) {
	cfg := newConfig(opts)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return false, err
	}
	l, r, err := fromGoPair(left, right, "left patch", "right patch", cfg)
	if err != nil {
		return false, err
	}
	c := &engine.Conflicts{D: &engine.Differ{Cfg: cfg, Pass: engine.PassCompare}}
	c.Values(l, r, s, nil)
	return len(c.Paths) > 0, nil
}

// fromGoPair copies two caller-built objects into decoded form.
func fromGoPair(a, b map[string]any, whatA, whatB string, cfg *config) (map[string]any, map[string]any, error) {
	out, err := fromGoDocs(cfg, goDoc{a, whatA}, goDoc{b, whatB})
	if err != nil {
		return nil, nil, err
	}
	return out[0], out[1], nil
}

// goDoc is a caller-built object and what to call it in errors.
type goDoc struct {
	m    map[string]any
	what string
}

// fromGoDocs copies caller-built objects into decoded form, measuring
// them against one budget.
func fromGoDocs(cfg *config, docs ...goDoc) ([]map[string]any, error) {
	out := make([]map[string]any, len(docs))
	budget := goval.NewBudget(cfg.Limits)
	for i, in := range docs {
		if err := budget.MeasureAny(in.m, in.what); err != nil {
			return nil, err
		}
		v, err := jsonval.FromGo(in.m, in.what)
		if err != nil {
			return nil, err
		}
		m, _ := v.(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		if err := jsonval.CheckLimits(m, cfg.Limits, in.what); err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}
