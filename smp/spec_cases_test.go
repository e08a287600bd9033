package smp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// errorKinds maps the fixtures' kind names to the engine's.
var errorKinds = map[string]smp.ErrorKind{
	"retainKeysViolation":    smp.ErrRetainKeys,
	"ambiguousMergeKey":      smp.ErrAmbiguousMergeKey,
	"nullMergeKey":           smp.ErrNullMergeKey,
	"invalidSetElementOrder": smp.ErrSetElementOrder,
	"missingMergeKey":        smp.ErrMissingMergeKey,
	"invalidDirective":       smp.ErrInvalidDirective,
}

// TestSeedCases runs every worked example of the seed documents, under
// both orderings.
func TestSeedCases(t *testing.T) {
	cases, err := fixtures.SeedCases()
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		for _, order := range []smp.Ordering{smp.KubernetesOrder, smp.SeedOrder} {
			name := c.Name
			if order == smp.SeedOrder {
				name += "/seed-order"
			}
			t.Run(name, func(t *testing.T) {
				t.Logf("%s: %s", c.Source.Document, c.Source.Example)
				typ, ok := exampletypes.Lookup(c.Type)
				require.True(t, ok, "unknown type %s", c.Type)
				opts := []smp.Option{smp.WithOrdering(order)}
				if c.Source.Document == fixtures.DocRecommendedMergeKeys {
					// The $patchMergeKey design describes the
					// element-by-element form, which the differ writes on
					// request only, and for a shared default key only
					// when told it is unsafe.
					opts = append(opts, smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(false))
				}
				got, err := runCase(c, typ, opts...)
				if c.Error != "" {
					require.Error(t, err)
					require.Contains(t, err.Error(), c.Error)
					if c.ErrorKind != "" {
						want, known := errorKinds[c.ErrorKind]
						require.True(t, known, "unknown error kind %s", c.ErrorKind)
						require.Equal(t, want, smp.KindOf(err), "%v", err)
					}
					return
				}
				require.NoError(t, err)
				want := c.Patch
				if c.Operation == fixtures.OpApply {
					want = c.ExpectedResult(order == smp.SeedOrder)
				}
				if d := cmp.Diff(normalize(want), normalize(got)); d != "" {
					t.Fatalf("%s (-want +got):\n%s", c.Operation, d)
				}
			})
		}
	}
}

func runCase(c fixtures.Case, typ any, opts ...smp.Option) (map[string]any, error) {
	var out []byte
	var err error
	switch c.Operation {
	case fixtures.OpApply:
		out, err = smp.ApplyJSON(mustMarshal(c.Original), mustMarshal(c.Patch), typ, opts...)
	case fixtures.OpDiff:
		out, err = smp.DiffJSON(mustMarshal(c.Original), mustMarshal(c.Modified), typ, opts...)
	case fixtures.OpThreeWay:
		out, err = smp.ThreeWayJSON(mustMarshal(c.Original), mustMarshal(c.Modified), mustMarshal(c.Current), typ, opts...)
	}
	if err != nil {
		return nil, err
	}
	return decodeMap(out), nil
}

// normalize moves deletion entries ($patch: delete) of patch lists to the
// end, keeping their order: their place in a list means nothing.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = normalize(e)
		}
		return out
	case []any:
		var keep, dels []any
		for _, e := range v {
			if m, ok := e.(map[string]any); ok && m["$patch"] == "delete" {
				dels = append(dels, normalize(e))
			} else {
				keep = append(keep, normalize(e))
			}
		}
		return append(keep, dels...)
	}
	return v
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func decodeMap(b []byte) map[string]any {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		panic(err)
	}
	return m
}
