package bench

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/smp"
)

// Issue #14's inputs, run by Kubernetes and by this project. Where the
// patches differ, each must bring the document to the same result, on
// either engine.

type dlItem struct {
	Name string   `json:"name,omitempty"`
	Tags []string `json:"tags,omitempty" patchStrategy:"merge"`
}

type dlMember struct {
	ID    int      `json:"id"`
	Roles []string `json:"roles,omitempty" patchStrategy:"merge"`
}

type dlGroup struct {
	Title   string     `json:"title"`
	Members []dlMember `json:"members,omitempty" patchStrategy:"merge" patchMergeKey:"id"`
}

type dlEmpty struct {
	X string `json:"x,omitempty"`
}

type dlDoc struct {
	Items  []dlItem  `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Groups []dlGroup `json:"groups,omitempty" patchStrategy:"merge" patchMergeKey:"title"`
	Set    []string  `json:"set,omitempty" patchStrategy:"merge"`
	U      *dlEmpty  `json:"u,omitempty"`
	N      *dlDoc    `json:"n,omitempty"`
}

// dlApply applies patch to doc with Kubernetes (k8s) or with this project.
func dlApply(t *testing.T, k8sEngine bool, doc string, patch []byte) (any, error) {
	t.Helper()
	apply := func(o, p []byte, ds any) ([]byte, error) { return smp.ApplyJSON(o, p, ds) }
	if k8sEngine {
		apply = func(o, p []byte, ds any) ([]byte, error) { return k8s.StrategicMergePatch(o, p, ds) }
	}
	out, err := apply([]byte(doc), patch, dlDoc{})
	if err != nil {
		return nil, err
	}
	return decodeAny(t, out), nil
}

// TestDataLossAgainstKubernetes: where Kubernetes' patch brings original
// to modified, ours brings original and current where Kubernetes' brings
// them, two-way and three-way (overwriting); ours brings original to
// modified in every case, even where Kubernetes fails or loses a value.
// kind says which of our patches a Kubernetes server applies right too.
func TestDataLossAgainstKubernetes(t *testing.T) {
	meta, err := k8s.NewPatchMetaFromStruct(dlDoc{})
	require.NoError(t, err)
	for _, c := range []struct {
		name, original, modified, current string
		k8sAppliesOurs                    bool // ours holds no directive Kubernetes leaves in added values
	}{
		{"issue: new element, its set repeats a value",
			`{"items":[{"name":"y"}]}`, `{"items":[{"name":"y"},{"name":"x","tags":["a","a"]}]}`,
			`{"items":[{"name":"z"},{"name":"y"}]}`, true},
		{"new element first, two repeats",
			`{"items":[{"name":"y"}]}`, `{"items":[{"name":"x","tags":["b","c","b"]},{"name":"y"},{"name":"w","tags":["d","d"]}]}`,
			`{"items":[{"name":"y"},{"name":"s","tags":["e"]}]}`, true},
		{"new member in a live group",
			`{"groups":[{"title":"ops","members":[{"id":1}]}]}`, `{"groups":[{"title":"ops","members":[{"id":1},{"id":2,"roles":["r","r"]}]}]}`,
			`{"groups":[{"title":"ops","members":[{"id":1},{"id":9}]},{"title":"dev"}]}`, true},
		{"new group holding such a member",
			`{"groups":[{"title":"ops"}]}`, `{"groups":[{"title":"ops"},{"title":"new","members":[{"id":3,"roles":["q","q"]}]}]}`,
			`{"groups":[{"title":"ops"}]}`, false},
		{"keyless element added (omitempty key)",
			`{"items":[{"name":"a"}]}`, `{"items":[{"name":"a"},{"tags":["t"]}]}`, `{"items":[{"name":"a"}]}`, false},
		{"keyless element named",
			`{"items":[{"tags":["t"]}]}`, `{"items":[{"name":"b","tags":["t"]}]}`, `{"items":[{"tags":["t"]}]}`, true},
		{"empty objects under a replaced root",
			`{"set":["a"],"u":{"x":"1"},"n":{"u":{"x":"1"}}}`, `{"set":["a","a"],"u":{},"n":{"u":{},"n":{}}}`,
			`{"set":["a"],"u":{"x":"1"},"n":{"u":{"x":"1"}}}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := decodeAny(t, []byte(c.modified))
			op, err := smp.DiffJSON([]byte(c.original), []byte(c.modified), dlDoc{})
			require.NoError(t, err)
			o3, err := smp.ThreeWayJSON([]byte(c.original), []byte(c.modified), []byte(c.current), dlDoc{}, smp.WithOverwrite(true))
			require.NoError(t, err)
			engines := []bool{false}
			if c.k8sAppliesOurs {
				engines = append(engines, true)
			}
			for _, k8sEngine := range engines {
				got, err := dlApply(t, k8sEngine, c.original, op)
				require.NoError(t, err, "k8s=%v: %s", k8sEngine, op)
				require.Empty(t, cmp.Diff(want, got), "k8s=%v: our patch %s", k8sEngine, op)
			}
			kp, kerr := k8s.CreateTwoWayMergePatch([]byte(c.original), []byte(c.modified), dlDoc{})
			if kerr != nil {
				t.Logf("Kubernetes' two-way: %v", kerr)
				return
			}
			if kr, _ := dlApply(t, true, c.original, kp); !cmp.Equal(want, kr) {
				t.Logf("Kubernetes' two-way patch %s gives %v", kp, kr)
				return
			}
			kc, err := dlApply(t, true, c.current, kp)
			require.NoError(t, err)
			oc, err := dlApply(t, false, c.current, op)
			require.NoError(t, err)
			require.Empty(t, cmp.Diff(kc, oc), "on current (-k8s +ours): k8s %s, ours %s", kp, op)
			k3, kerr := k8s.CreateThreeWayMergePatch([]byte(c.original), []byte(c.modified), []byte(c.current), meta, true)
			require.NoError(t, kerr)
			kc, err = dlApply(t, true, c.current, k3)
			require.NoError(t, err)
			oc, err = dlApply(t, false, c.current, o3)
			require.NoError(t, err)
			require.Empty(t, cmp.Diff(kc, oc), "three-way on current (-k8s +ours): k8s %s, ours %s", k3, o3)
		})
	}
}
