package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// typedCaseRunners runs a seed case through the typed API for each
// registered type.
var typedCaseRunners = map[string]func(*testing.T, fixtures.Case, []smp.Option){
	"Pod":                    runTypedCase[*exampletypes.Pod],
	"PodSpec":                runTypedCase[*exampletypes.PodSpec],
	"PodStatus":              runTypedCase[*exampletypes.PodStatus],
	"Container":              runTypedCase[*exampletypes.Container],
	"ContainerStatus":        runTypedCase[*exampletypes.ContainerStatus],
	"ContainerState":         runTypedCase[*exampletypes.ContainerState],
	"Volume":                 runTypedCase[*exampletypes.Volume],
	"Probe":                  runTypedCase[*exampletypes.Probe],
	"ObjectMeta":             runTypedCase[*exampletypes.ObjectMeta],
	"Service":                runTypedCase[*exampletypes.Service],
	"ServiceSpec":            runTypedCase[*exampletypes.ServiceSpec],
	"Deployment":             runTypedCase[*exampletypes.Deployment],
	"DeploymentSpec":         runTypedCase[*exampletypes.DeploymentSpec],
	"DeploymentStrategy":     runTypedCase[*exampletypes.DeploymentStrategy],
	"ConfigMap":              runTypedCase[*exampletypes.ConfigMap],
	"Gateway":                runTypedCase[*exampletypes.Gateway],
	"GatewaySpec":            runTypedCase[*exampletypes.GatewaySpec],
	"SeedRecommended":        runTypedCase[*exampletypes.SeedRecommended],
	"SeedRecommendedBaz":     runTypedCase[*exampletypes.SeedRecommendedBaz],
	"SeedMultiKey":           runTypedCase[*exampletypes.SeedMultiKey],
	"SeedUnion":              runTypedCase[*exampletypes.SeedUnion],
	"SeedDiscriminatedUnion": runTypedCase[*exampletypes.SeedDiscriminatedUnion],
	"SeedOrderedList":        runTypedCase[*exampletypes.SeedOrderedList],
	"SeedOrderedSet":         runTypedCase[*exampletypes.SeedOrderedSet],
	"SeedMergeKeyList":       runTypedCase[*exampletypes.SeedMergeKeyList],
}

// TestTypedSeedCases runs every worked example of the seed documents
// through the typed API: the documents decoded into their Go type, the
// results compared with the JSON engine's on those values.
func TestTypedSeedCases(t *testing.T) {
	cases, err := fixtures.SeedCases()
	require.NoError(t, err)
	for _, name := range exampletypes.Names() {
		require.Contains(t, typedCaseRunners, name, "no typed runner for %s", name)
	}
	for _, c := range cases {
		for _, order := range []smp.Ordering{smp.KubernetesOrder, smp.SeedOrder} {
			t.Run(c.Name, func(t *testing.T) {
				typedCaseRunners[c.Type](t, c, []smp.Option{smp.WithOrdering(order)})
			})
		}
	}
}

// typedDoc decodes a case document into T; ok is false when it does not
// fit (a document meant to fail).
func typedDoc[T any](doc map[string]any) (T, bool) {
	var v T
	data, err := json.Marshal(doc)
	if err != nil {
		return v, false
	}
	return v, json.Unmarshal(data, &v) == nil
}

func runTypedCase[T any](t *testing.T, c fixtures.Case, opts []smp.Option) {
	original, ok := typedDoc[T](c.Original)
	if !ok {
		t.Skip("the original does not decode into its type")
	}
	switch c.Operation {
	case fixtures.OpApply:
		patch, err := smp.ParsePatch(typedMarshal(t, c.Patch))
		require.NoError(t, err)
		checkTypedApply(t, original, patch, opts...)
	case fixtures.OpDiff:
		modified, ok := typedDoc[T](c.Modified)
		if !ok {
			t.Skip("the modified document does not decode into its type")
		}
		checkTypedDiff(t, original, modified, opts...)
	case fixtures.OpThreeWay:
		modified, ok1 := typedDoc[T](c.Modified)
		current, ok2 := typedDoc[T](c.Current)
		if !ok1 || !ok2 {
			t.Skip("a document does not decode into its type")
		}
		checkTypedThreeWay(t, original, modified, current, opts...)
		checkTypedThreeWay(t, original, modified, current, append(opts, smp.WithOverwrite(true))...)
	}
}
