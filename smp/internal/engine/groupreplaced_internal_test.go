package engine

import (
	"slices"
	"testing"
)

// TestGroupReplaced checks groupReplaced against the order Kubernetes
// gives a replaced list, stated directly: elements by the place of their
// identity's first occurrence, ties in list order. Lists longer than
// eight take the bucket sort's other path.
func TestGroupReplaced(t *testing.T) {
	for _, ids := range [][]string{
		{},
		{"a"},
		{"a", "b", "a"},
		{"444", "81", "81", "8081", "444"},
		{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"},
		{"j", "a", "b", "j", "c", "d", "a", "e", "f", "j", "g", "b"},
	} {
		positions := make([]int, len(ids))
		for i := range positions {
			positions[i] = 100 + i
		}
		var want []int
		for i, id := range ids {
			if slices.Index(ids, id) == i { // the first of its identity
				for j := i; j < len(ids); j++ {
					if ids[j] == id {
						want = append(want, positions[j])
					}
				}
			}
		}
		if got := groupReplaced(positions, ids); !slices.Equal(got, want) {
			t.Errorf("groupReplaced(%v) = %v, want %v", ids, got, want)
		}
	}
}
