package smp_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// drawTypedOptions draws a configuration: ordering, directive generation and
// skew-safe mode.
func drawTypedOptions(t *rapid.T) []smp.Option {
	opts := []smp.Option{
		smp.WithOrdering(rapid.SampledFrom([]smp.Ordering{smp.KubernetesOrder, smp.SeedOrder}).Draw(t, "ordering")),
		smp.WithDirectives(rapid.SampledFrom([]smp.DirectiveSet{smp.DirectivesAll, smp.DirectivesAll, smp.DirectivesRetainKeys, smp.DirectivesSetElementOrder, smp.DirectivesLegacy}).Draw(t, "directives")),
	}
	if rapid.IntRange(0, 3).Draw(t, "skewSafe") == 0 {
		opts = append(opts, smp.WithSkewSafe(true))
	}
	return opts
}

// typedProperties checks the typed API against the JSON engine on values
// drawn by typedGen.
func typedProperties[T any](t *testing.T, typedGen func(*rapid.T) T) {
	t.Run("Diff", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			a, b := typedGen(rt), typedGen(rt)
			checkTypedDiff(rt, a, b, drawTypedOptions(rt)...)
		})
	})
	t.Run("Apply", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			a, b, c := typedGen(rt), typedGen(rt), typedGen(rt)
			opts := drawTypedOptions(rt)
			p, err := smp.Diff(a, b, opts...)
			require.NoError(rt, err)
			checkTypedApply(rt, a, p, opts...)
			checkTypedApply(rt, c, p, opts...)
		})
	})
	t.Run("RoundTrip", func(t *testing.T) {
		// Apply(a, Diff(a, b)) is b, wherever the patch format can say
		// it: not for null map values (a null deletes) or for merge list
		// elements without their key, which the JSON engine cannot
		// round-trip either. There, the typed result is the JSON one.
		rapid.Check(t, func(rt *rapid.T) {
			a, b := typedGen(rt), typedGen(rt)
			p, err := smp.Diff(a, b)
			require.NoError(rt, err)
			got, err := smp.Apply(a, p)
			data := typedMarshal(rt, b)
			if string(data) == "null" {
				data = []byte("{}") // Apply makes a new object for a nil pointer
			}
			var want T
			require.NoError(rt, json.Unmarshal(data, &want))
			if err == nil && cmp.Equal(want, got) {
				return
			}
			jsonPatch, jerr := smp.DiffJSON(typedMarshal(rt, a), typedMarshal(rt, b), *new(T))
			require.NoError(rt, jerr)
			out, jerr := smp.ApplyJSON(typedMarshal(rt, a), jsonPatch, *new(T))
			var jsonGot T
			if jerr == nil {
				jerr = json.Unmarshal(out, &jsonGot)
			}
			if jerr == nil && cmp.Equal(want, jsonGot) {
				rt.Fatalf("Apply(a, Diff(a, b)) != b, unlike the JSON engine (err %v):\n%s\npatch: %s", err, cmp.Diff(want, got), p)
			}
			if jerr != nil {
				require.Error(rt, err, "the JSON engine fails with %v", jerr)
				return
			}
			require.NoError(rt, err)
			require.Empty(rt, cmp.Diff(jsonGot, got))
		})
	})
	t.Run("ThreeWay", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			o, m := typedGen(rt), typedGen(rt)
			c := o
			switch rapid.IntRange(0, 2).Draw(rt, "current") {
			case 1:
				c = m
			case 2:
				c = typedGen(rt)
			}
			opts := drawTypedOptions(rt)
			if rapid.Bool().Draw(rt, "overwrite") {
				opts = append(opts, smp.WithOverwrite(true))
			}
			p, err := checkTypedThreeWay(rt, o, m, c, opts...)
			if err == nil {
				checkTypedApply(rt, c, p, opts...)
			}
		})
	})
	t.Run("NoMutation", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			a, b, c := typedGen(rt), typedGen(rt), typedGen(rt)
			ca, cb, cc := typedClone(a), typedClone(b), typedClone(c)
			p, _ := smp.Diff(a, b)
			text := p.String()
			res, err := smp.Apply(c, p)
			if err == nil {
				requireTypedNoSharing(rt, c, res)
			}
			_, _ = smp.ThreeWay(a, b, c)
			require.Equal(rt, text, p.String(), "Apply changed the patch")
			for _, v := range []struct{ before, after T }{{ca, a}, {cb, b}, {cc, c}} {
				if d := cmp.Diff(v.before, v.after); d != "" {
					rt.Fatalf("an input changed:\n%s", d)
				}
			}
		})
	})
}

func TestTypedDeployment(t *testing.T)         { typedProperties(t, typedGenDeployment) }
func TestTypedPod(t *testing.T)                { typedProperties(t, typedGenPod) }
func TestTypedService(t *testing.T)            { typedProperties(t, typedGenService) }
func TestTypedConfigMap(t *testing.T)          { typedProperties(t, typedGenConfigMap) }
func TestTypedGateway(t *testing.T)            { typedProperties(t, typedGenGateway) }
func TestTypedSeedRecommended(t *testing.T)    { typedProperties(t, typedGenSeedRecommended) }
func TestTypedSeedRecommendedBaz(t *testing.T) { typedProperties(t, typedGenSeedRecommendedBaz) }
func TestTypedSeedMultiKey(t *testing.T)       { typedProperties(t, typedGenSeedMultiKey) }
func TestTypedSeedUnion(t *testing.T)          { typedProperties(t, typedGenSeedUnion) }
func TestTypedSeedDiscriminated(t *testing.T)  { typedProperties(t, typedGenSeedDiscriminatedUnion) }
func TestTypedSeedOrderedList(t *testing.T)    { typedProperties(t, typedGenSeedOrderedList) }
func TestTypedSeedOrderedSet(t *testing.T)     { typedProperties(t, typedGenSeedOrderedSet) }
func TestTypedSeedMergeKeyList(t *testing.T)   { typedProperties(t, typedGenSeedMergeKeyList) }

// typedWithServerDefaults is a value as a server returns it: the protocol of
// every port filled in, as Kubernetes defaults it, so that a three-way
// patch pairs ports by their default key.
func typedWithServerDefaults[T any](v T) T {
	c := typedClone(v)
	typedFillProtocols(reflect.ValueOf(&c).Elem())
	return c
}

func typedFillProtocols(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			typedFillProtocols(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			typedFillProtocols(v.Index(i))
		}
	case reflect.Struct:
		if f := v.FieldByName("Protocol"); f.IsValid() && f.Kind() == reflect.String && f.CanSet() && f.String() == "" {
			f.SetString("TCP")
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				typedFillProtocols(v.Field(i))
			}
		}
	}
}

// TestTypedThreeWayServerDefaults checks three-way patches against a
// current that is the original with server defaults.
func TestTypedThreeWayServerDefaults(t *testing.T) {
	for name, run := range map[string]func(*testing.T){
		"Deployment": func(t *testing.T) { typedServerDefaults(t, typedGenDeployment) },
		"Pod":        func(t *testing.T) { typedServerDefaults(t, typedGenPod) },
		"Service":    func(t *testing.T) { typedServerDefaults(t, typedGenService) },
	} {
		t.Run(name, run)
	}
}

func typedServerDefaults[T any](t *testing.T, typedGen func(*rapid.T) T) {
	rapid.Check(t, func(rt *rapid.T) {
		o, m := typedGen(rt), typedGen(rt)
		if rapid.Bool().Draw(rt, "modifiedFromOriginal") {
			m = typedClone(o)
		}
		c := typedWithServerDefaults(o)
		opts := drawTypedOptions(rt)
		if rapid.Bool().Draw(rt, "overwrite") {
			opts = append(opts, smp.WithOverwrite(true))
		}
		p, err := checkTypedThreeWay(rt, o, m, c, opts...)
		if err == nil {
			checkTypedApply(rt, c, p, opts...)
		}
	})
}
