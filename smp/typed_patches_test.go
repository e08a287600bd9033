package smp_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// Patches that Diff never writes: directives in odd places, nulls, values
// of the wrong type, keys in another case, unknown fields. Apply must give
// what ApplyJSON and json.Unmarshal give, errors included.

// perturbPatch changes a decoded patch in place, at random places.
func perturbPatch(t *rapid.T, v any, depth int) any {
	switch v := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		for _, k := range keys {
			if rapid.IntRange(0, 3).Draw(t, "descend") == 0 {
				v[k] = perturbPatch(t, v[k], depth+1)
			}
		}
		switch rapid.IntRange(0, 14).Draw(t, "object") {
		case 0:
			v["$patch"] = rapid.SampledFrom([]string{"delete", "replace", "merge", "bogus"}).Draw(t, "patch")
		case 1:
			v["$retainKeys"] = typedAnyList(rapid.SliceOfN(rapid.SampledFrom(append(keys, "x")), 0, 3).Draw(t, "retain"))
		case 2:
			if len(keys) > 0 {
				k := rapid.SampledFrom(keys).Draw(t, "key")
				v[k] = rapid.SampledFrom([]any{nil, "x", json.Number("1"), true, []any{}, map[string]any{}}).Draw(t, "value")
			}
		case 3:
			v["unknownField"] = map[string]any{"a": "b"}
		case 4:
			if len(keys) > 0 {
				k := rapid.SampledFrom(keys).Draw(t, "key")
				if k != "" && !strings.HasPrefix(k, "$") {
					v[strings.ToUpper(k[:1])+k[1:]] = v[k]
					if rapid.Bool().Draw(t, "keepLower") {
						delete(v, k)
					}
				}
			}
		case 5:
			if len(keys) > 0 {
				k := rapid.SampledFrom(keys).Draw(t, "key")
				v["$setElementOrder/"+k] = rapid.SampledFrom([]any{"bad", []any{}, []any{map[string]any{"name": "a"}}, []any{"a"}}).Draw(t, "order")
			}
		case 6:
			if len(keys) > 0 {
				k := rapid.SampledFrom(keys).Draw(t, "key")
				v["$deleteFromPrimitiveList/"+k] = []any{"a"}
			}
		case 7:
			v["$unknownDirective"] = 1
		}
	case []any:
		for i := range v {
			if rapid.IntRange(0, 2).Draw(t, "descendElem") == 0 {
				v[i] = perturbPatch(t, v[i], depth+1)
			}
		}
		switch rapid.IntRange(0, 8).Draw(t, "list") {
		case 0:
			v = append(v, map[string]any{"$patch": "replace"})
		case 1:
			if len(v) > 0 {
				v = append(v, v[0])
			}
		case 2:
			v = append(v, map[string]any{"$patch": "delete", "name": "a"})
		case 3:
			v = append(v, "scalar")
		case 4:
			v = append(v, map[string]any{"$patchMergeKey": []any{"name"}, "name": "zz"})
		}
		return v
	}
	return v
}

func typedAnyList(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// perturbedPatches checks Apply on perturbed patches for values of T.
func perturbedPatches[T any](t *testing.T, typedGen func(*rapid.T) T) {
	rapid.Check(t, func(rt *rapid.T) {
		a, b, c := typedGen(rt), typedGen(rt), typedGen(rt)
		p, err := smp.Diff(a, b)
		require.NoError(rt, err)
		decoded := typedDecode(rt, typedMarshal(rt, p))
		decoded = perturbPatch(rt, decoded, 0)
		raw := typedMarshal(rt, decoded)
		patch, err := smp.ParsePatch(raw)
		require.NoError(rt, err)
		opts := drawTypedOptions(rt)
		if rapid.IntRange(0, 4).Draw(rt, "lenient") == 0 {
			opts = append(opts, smp.WithTypeChecks(false))
		}
		checkTypedApply(rt, c, patch, opts...)
		checkTypedApply(rt, a, patch, opts...)
	})
}

func TestTypedPerturbedPatches(t *testing.T) {
	for name, run := range map[string]func(*testing.T){
		"Deployment":      func(t *testing.T) { perturbedPatches(t, typedGenDeployment) },
		"Pod":             func(t *testing.T) { perturbedPatches(t, typedGenPod) },
		"Service":         func(t *testing.T) { perturbedPatches(t, typedGenService) },
		"ConfigMap":       func(t *testing.T) { perturbedPatches(t, typedGenConfigMap) },
		"Gateway":         func(t *testing.T) { perturbedPatches(t, typedGenGateway) },
		"SeedRecommended": func(t *testing.T) { perturbedPatches(t, typedGenSeedRecommended) },
		"SeedUnion":       func(t *testing.T) { perturbedPatches(t, typedGenSeedDiscriminatedUnion) },
		"Edge":            func(t *testing.T) { perturbedPatches(t, typedGenEdge) },
	} {
		t.Run(name, run)
	}
}
