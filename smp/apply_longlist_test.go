package smp_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// TestTypedApplyLongList checks typed Apply against the JSON path on merge
// lists far longer than a handful of elements, with and without
// $setElementOrder and with new, edited and reordered elements.
func TestTypedApplyLongList(t *testing.T) {
	const n = 600
	pod := func(names ...int) *exampletypes.Pod {
		p := &exampletypes.Pod{}
		for _, i := range names {
			p.Spec.Containers = append(p.Spec.Containers, exampletypes.Container{
				Name:  fmt.Sprintf("c%d", i),
				Image: fmt.Sprintf("img:%d", i),
				Ports: []exampletypes.ContainerPort{{ContainerPort: int32(1000 + i), Protocol: "TCP"}},
			})
		}
		return p
	}
	seq := func(from, to int) []int {
		var s []int
		for i := from; i < to; i++ {
			s = append(s, i)
		}
		return s
	}
	reversed := seq(0, n)
	slices.Reverse(reversed)
	original := pod(seq(0, n)...)
	edited := pod(seq(0, n)...)
	for i := range edited.Spec.Containers {
		if i%7 == 0 {
			edited.Spec.Containers[i].Image += "-new"
		}
	}
	for name, modified := range map[string]*exampletypes.Pod{
		"edit every seventh": edited,
		"append":             pod(seq(0, n+300)...),
		"reverse":            pod(reversed...),
		"prepend and drop":   pod(append(seq(n, n+50), seq(100, n)...)...),
	} {
		t.Run(name, func(t *testing.T) {
			for k, opts := range [][]smp.Option{
				nil,
				{smp.WithOrdering(smp.SeedOrder)},
				{smp.WithDirectives(smp.DirectivesLegacy)}, // no $setElementOrder: parity only
			} {
				patch := checkTypedDiff(t, original, modified, opts...)
				got, err := checkTypedApply(t, original, patch, opts...)
				require.NoError(t, err)
				if k < 2 { // $setElementOrder sets the order
					require.Equal(t, modified, got)
				}
			}
		})
	}
}
