package smp

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Compose returns one patch with the effect of applying patches in order
// to a T: Apply(Apply(d, p1), p2) equals Apply(d, Compose(p1, p2)) — in
// a list both patches order, for documents whose list holds only items
// the patches name. Where no patch has that effect it returns an *Error
// of kind ErrNotComposable naming the path and why; an invalid patch
// fails as [Apply] would fail on an empty document. docs/format.md,
// "Composing patches", gives the rules.
func Compose[T any](patches ...Patch) (Patch, error) {
	p, err := compose[T](patches)
	return p, public(err)
}

func compose[T any](patches []Patch) (Patch, error) {
	root, err := goval.RootFor(reflect.TypeFor[T]())
	if err != nil {
		return Patch{}, err
	}
	cfg := newConfig(nil)
	pms := make([]map[string]any, len(patches))
	for i, p := range patches {
		pms[i] = p.patchMap()
		if err := goval.CheckDecodedLimits(pms[i], cfg.Limits, engine.PatchName(i)); err != nil {
			return Patch{}, err
		}
	}
	m, err := engine.ComposeAll(root.Slot(), cfg, pms)
	if err != nil {
		return Patch{}, err
	}
	return Patch{m: m}, nil
}

// ComposeJSON is [Compose] for JSON patches; dataStruct is as in
// [ApplyJSON].
func ComposeJSON(dataStruct any, patches ...[]byte) ([]byte, error) {
	out, err := composeJSON(dataStruct, patches)
	return out, public(err)
}

func composeJSON(dataStruct any, patches [][]byte) ([]byte, error) {
	cfg := newConfig(nil)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return nil, err
	}
	pms := make([]map[string]any, len(patches))
	for i, p := range patches {
		if pms[i], err = jsonval.DecodeLimited(p, engine.PatchName(i), cfg.Limits); err != nil {
			return nil, err
		}
	}
	m, err := engine.ComposeAll(s, cfg, pms)
	if err != nil {
		return nil, err
	}
	return jsonval.Encode(m)
}

// ComposeMap is [Compose] on decoded patches, for a data struct or a
// *reflectschema.Type. It changes none of its arguments; numbers in the
// result are int64 or float64.
func ComposeMap(dataStruct any, patches ...JSONMap) (JSONMap, error) {
	out, err := composeMap(dataStruct, patches)
	return out, public(err)
}

func composeMap(dataStruct any, patches []JSONMap) (JSONMap, error) {
	cfg := newConfig(nil)
	s, err := schemaFor(dataStruct)
	if err != nil {
		return nil, err
	}
	pms := make([]map[string]any, len(patches))
	budget := goval.NewBudget(cfg.Limits)
	for i, p := range patches {
		if err := budget.MeasureAny(map[string]any(p), engine.PatchName(i)); err != nil {
			return nil, err
		}
		v, err := jsonval.FromGo(map[string]any(p), engine.PatchName(i))
		if err != nil {
			return nil, err
		}
		if pms[i], _ = v.(map[string]any); pms[i] == nil {
			pms[i] = map[string]any{}
		}
		if err := jsonval.CheckLimits(pms[i], cfg.Limits, engine.PatchName(i)); err != nil {
			return nil, err
		}
	}
	m, err := engine.ComposeAll(s, cfg, pms)
	if err != nil {
		return nil, err
	}
	return JSONMap(jsonval.ToGo(m).(map[string]any)), nil
}
