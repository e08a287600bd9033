package smp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/property"
	"github.com/typedpatch/typedpatch/smp"
)

// Values that reach one pointer, map or slice along many paths, without a
// cycle: d levels of nodes whose two children are one value stand for a
// tree of 2^d leaves. Each entry point must answer such a value of depth
// 40 in well under a second and 100 MB, with the right small answer or
// an ErrLimit error, and leave it unchanged. The cases run in a child
// process whose address space is capped, so that a regression fails the
// test instead of the machine.

const sharingChildEnv = "SMP_SHARING_CHILD"

type dagNode struct {
	V     int      `json:"v,omitempty"`
	Left  *dagNode `json:"left,omitempty"`
	Right *dagNode `json:"right,omitempty"`
}

type dagItem struct {
	Name string   `json:"name"`
	Tree *dagNode `json:"tree,omitempty"`
}

type dagRoot struct {
	Tree  *dagNode            `json:"tree,omitempty"`
	X     int                 `json:"x,omitempty"`
	Items []dagItem           `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Same  []*dagNode          `json:"same,omitempty"`
	Kids  map[string]*dagNode `json:"kids,omitempty"`
	Any   any                 `json:"any,omitempty"`
}

// dag returns the binary DAG of depth d with the leaf value leaf, and its
// distinct nodes.
func dag(d, leaf int) (*dagNode, []*dagNode) {
	n := &dagNode{V: leaf}
	all := []*dagNode{n}
	for range d {
		n = &dagNode{Left: n, Right: n}
		all = append(all, n)
	}
	return n, all
}

// mapDAG is dag for decoded maps.
func mapDAG(d int, leaf string) (map[string]any, []map[string]any) {
	m := map[string]any{"v": leaf}
	all := []map[string]any{m}
	for range d {
		m = map[string]any{"l": m, "r": m}
		all = append(all, m)
	}
	return m, all
}

// listDAG is dag for decoded lists: each level a list holding the level
// below twice.
func listDAG(d int) []any {
	l := []any{"leaf"}
	for range d {
		l = []any{l, l}
	}
	return l
}

// snapshot records the distinct nodes' contents, to tell that a call
// changed none of them.
func snapshot(nodes []*dagNode) func() bool {
	before := make([]dagNode, len(nodes))
	for i, n := range nodes {
		before[i] = *n
	}
	return func() bool {
		for i, n := range nodes {
			if *n != before[i] {
				return false
			}
		}
		return true
	}
}

func mapSnapshot(maps []map[string]any) func() bool {
	before := make([]map[string]any, len(maps))
	for i, m := range maps {
		before[i] = map[string]any{}
		for k, v := range m {
			before[i][k] = v
		}
	}
	return func() bool {
		for i, m := range maps {
			if len(m) != len(before[i]) {
				return false
			}
			for k, v := range m {
				if fmt.Sprintf("%p", v) != fmt.Sprintf("%p", before[i][k]) && fmt.Sprint(v) != fmt.Sprint(before[i][k]) {
					return false
				}
			}
		}
		return true
	}
}

// sharingCase is one call on a shared value: it returns the result as
// JSON (or "" with an error) and whether the inputs are unchanged.
type sharingCase struct {
	name string
	run  func() (string, error, bool)
	// want is the right small answer; "" where only ErrLimit is right.
	want string
	// path is the prefix of the ErrLimit error's path.
	path string
}

const sharingDepth = 40

func sharingCases() []sharingCase {
	d := sharingDepth
	patchX := parsedPatch(`{"x":2}`)
	typed := func(f func(t *dagNode) (any, error), nodes []*dagNode) func() (string, error, bool) {
		unchanged := snapshot(nodes)
		return func() (string, error, bool) {
			out, err := f(nodes[len(nodes)-1])
			if err != nil {
				return "", err, unchanged()
			}
			data, _ := json.Marshal(out)
			return string(data), nil, unchanged()
		}
	}
	t1, n1 := dag(d, 0)
	_, n2 := dag(d, 1)
	return []sharingCase{
		{name: "Diff, the shared tree on both sides", path: "tree", run: typed(func(t *dagNode) (any, error) {
			return smp.Diff(dagRoot{Tree: t}, dagRoot{Tree: t, X: 1})
		}, n1)},
		{name: "Diff, leaves differ", path: "tree", run: func() (string, error, bool) {
			u1, u2 := snapshot(n1), snapshot(n2)
			p, err := smp.Diff(dagRoot{Tree: t1}, dagRoot{Tree: n2[len(n2)-1]})
			return fmt.Sprint(p), err, u1() && u2()
		}},
		{name: "Apply a one-field patch", path: "tree", run: typed(func(t *dagNode) (any, error) {
			return smp.Apply(dagRoot{Tree: t}, patchX)
		}, n1)},
		{name: "Apply in Kubernetes' directive scope", path: "tree", run: typed(func(t *dagNode) (any, error) {
			return smp.Apply(dagRoot{Tree: t}, patchX, smp.WithKubernetesDirectiveScope(true))
		}, n1)},
		{name: "ThreeWay with one shared pointer", path: "tree", run: typed(func(t *dagNode) (any, error) {
			return smp.ThreeWay(dagRoot{}, dagRoot{X: 1}, dagRoot{Tree: t})
		}, n1)},
		{name: "a slice whose elements are one pointer", path: "same[0]", run: typed(func(t *dagNode) (any, error) {
			return smp.Diff(dagRoot{}, dagRoot{Same: []*dagNode{t, t, t}})
		}, n1)},
		{name: "map values sharing one pointer", path: "kids.", run: typed(func(t *dagNode) (any, error) {
			return smp.Apply(dagRoot{Kids: map[string]*dagNode{"a": t, "b": t}}, patchX)
		}, n1)},
		{name: "a DAG inside a merge-list element", path: "items[0].tree", run: typed(func(t *dagNode) (any, error) {
			items := []dagItem{{Name: "a", Tree: t}}
			return smp.ThreeWay(dagRoot{Items: items}, dagRoot{Items: items, X: 3}, dagRoot{Items: items})
		}, n1)},
		{name: "a typed DAG in an untyped field", path: "any", run: typed(func(t *dagNode) (any, error) {
			return smp.Diff(dagRoot{Any: t}, dagRoot{})
		}, n1)},
		{name: "DiffMap on a shared map", path: "any", run: mapCall(func(m map[string]any) (any, error) {
			return smp.DiffMap(smp.JSONMap{"any": m}, smp.JSONMap{"any": m, "x": 1}, dagRoot{})
		})},
		{name: "ApplyMap on a shared map", path: "any", run: mapCall(func(m map[string]any) (any, error) {
			return smp.ApplyMap(smp.JSONMap{"any": m}, smp.JSONMap{"x": 1}, dagRoot{})
		})},
		{name: "a DAG in the patch map", path: "any", run: mapCall(func(m map[string]any) (any, error) {
			return smp.ApplyMap(smp.JSONMap{"x": 1}, smp.JSONMap{"any": m}, dagRoot{})
		})},
		{name: "ComposeMap", path: "any", run: mapCall(func(m map[string]any) (any, error) {
			return smp.ComposeMap(dagRoot{}, smp.JSONMap{"x": 1}, smp.JSONMap{"any": m})
		})},
		{name: "PatchesConflict", path: "any", run: mapCall(func(m map[string]any) (any, error) {
			return smp.PatchesConflict(smp.JSONMap{"any": m}, smp.JSONMap{"any": "x"}, dagRoot{})
		})},
		{name: "a list holding one list twice", path: "any", run: func() (string, error, bool) {
			_, err := smp.DiffMap(smp.JSONMap{}, smp.JSONMap{"any": listDAG(d)}, dagRoot{})
			return "", err, true
		}},
		{name: "CheckSize", path: "l.l", run: mapCall(func(m map[string]any) (any, error) {
			return nil, smp.CheckSize(m, smp.DefaultLimits(), "value")
		})},
		{name: "CheckSize under a budget of 2^50", want: "null", run: mapCall(func(m map[string]any) (any, error) {
			// 2^42 units, each distinct map measured once.
			return nil, smp.CheckSize(m, smp.Limits{MaxNodes: 1 << 50}, "value")
		})},
		// Small answers: sharing that stands for little is answered.
		{name: "Diff, a shallow DAG", want: `{"tree":{"left":{"left":{"v":1},"right":{"v":1}},"right":{"left":{"v":1},"right":{"v":1}}}}`, run: func() (string, error, bool) {
			a, na := dag(2, 0)
			b, nb := dag(2, 1)
			ua, ub := snapshot(na), snapshot(nb)
			p, err := smp.Diff(dagRoot{Tree: a}, dagRoot{Tree: b})
			return fmt.Sprint(p), err, ua() && ub()
		}},
		{name: "Apply into a shallow DAG", want: `{"tree":{"left":{"left":{"v":7},"right":{}},"right":{"left":{},"right":{}}}}`, run: func() (string, error, bool) {
			a, na := dag(2, 0)
			u := snapshot(na)
			out, err := smp.Apply(dagRoot{Tree: a}, parsedPatch(`{"tree":{"left":{"left":{"v":7}}}}`))
			data, _ := json.Marshal(out)
			return string(data), err, u()
		}},
	}
}

func mapCall(f func(m map[string]any) (any, error)) func() (string, error, bool) {
	m, all := mapDAG(sharingDepth, "leaf")
	unchanged := mapSnapshot(all)
	return func() (string, error, bool) {
		out, err := f(m)
		if err != nil {
			return "", err, unchanged()
		}
		data, _ := json.Marshal(out)
		return string(data), nil, unchanged()
	}
}

func parsedPatch(s string) smp.Patch {
	p, err := smp.ParsePatch([]byte(s))
	if err != nil {
		panic(err)
	}
	return p
}

// sharingChild runs each case and prints "name|ms|MB|unchanged|result",
// the result being "ok <json>" or "kind path".
func sharingChild() {
	// A runaway walk ends the child, not the machine.
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30})
	for _, c := range sharingCases() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		out, err, unchanged := c.run()
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		res := "ok " + out
		var e *smp.Error
		switch {
		case errors.As(err, &e):
			res = string(e.Kind) + " " + e.Path.String()
		case err != nil:
			res = "not an *smp.Error: " + err.Error()
		}
		fmt.Printf("%s|%d|%d|%v|%s\n", c.name, elapsed.Milliseconds(), (after.TotalAlloc-before.TotalAlloc)>>20, unchanged, res)
	}
	fmt.Println("child done")
}

func TestSharingChild(t *testing.T) {
	if os.Getenv(sharingChildEnv) == "" {
		t.Skip("run by TestSharedSubtrees in a child process")
	}
	sharingChild()
}

func TestSharedSubtrees(t *testing.T) {
	// Each case takes milliseconds; a minute means a walk ran away.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestSharingChild$", "-test.v")
	cmd.Env = append(os.Environ(), sharingChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	text := string(out)
	require.NotContains(t, text, "fatal error", "the child crashed:\n%.3000s", text)
	require.NoError(t, err, "the child failed:\n%s", tail(text))
	require.Contains(t, text, "child done")
	results := map[string][]string{}
	for _, l := range strings.Split(text, "\n") {
		if parts := strings.SplitN(l, "|", 5); len(parts) == 5 {
			results[parts[0]] = parts[1:]
		}
	}
	for _, c := range sharingCases() {
		r, ok := results[c.name]
		if !assert.True(t, ok, "%s: no result", c.name) {
			continue
		}
		ms, _ := strconv.Atoi(r[0])
		mb, _ := strconv.Atoi(r[1])
		assert.Less(t, ms, 1000, "%s: milliseconds", c.name)
		assert.Less(t, mb, 100, "%s: MB allocated", c.name)
		assert.Equal(t, "true", r[2], "%s: an input changed", c.name)
		if c.want != "" {
			assert.Equal(t, "ok "+c.want, r[3], c.name)
			continue
		}
		assert.True(t, strings.HasPrefix(r[3], string(smp.ErrLimit)+" "+c.path), "%s: got %q, want an ErrLimit error at %s…", c.name, r[3], c.path)
	}
}

// TestSizeCountsPaths checks the measure against trees: a DAG's size is
// that of the tree it stands for, found whether or not the measure
// remembers values (it starts to past 32,768 units), and a value one unit
// over the limit is refused.
func TestSizeCountsPaths(t *testing.T) {
	for _, d := range []int{3, 8, 15} {
		shared, _ := dag(d, 5)
		tree := unshared(d)
		min := func(v any) int {
			return minBudget(func(l smp.Limits) error { return smp.CheckSize(v, l, "v") })
		}
		want := min(tree)
		assert.Equal(t, want, min(shared), "depth %d", d)
		applied := func(v *dagNode) int {
			return minBudget(func(l smp.Limits) error {
				_, err := smp.Apply(dagRoot{Tree: v}, smp.Patch{}, smp.WithLimits(l))
				return err
			})
		}
		// Apply reads the size from memory below 32,768 units.
		root := min(dagRoot{Tree: tree})
		assert.Greater(t, root, want, "depth %d", d)
		assert.Equal(t, root, applied(tree), "depth %d", d)
		assert.Equal(t, root, applied(shared), "depth %d", d)
		err := smp.CheckSize(shared, smp.Limits{MaxNodes: want - 1}, "v")
		var e *smp.Error
		require.ErrorAs(t, err, &e, "depth %d", d)
		assert.Equal(t, smp.ErrLimit, e.Kind)
		assert.Contains(t, e.Msg, "v stands for more than "+strconv.Itoa(want-1))
		if d > 3 {
			// Each level doubles what is below it.
			assert.Greater(t, want, 2*min(unshared(d-1)), "depth %d", d)
		}
	}
}

// unshared is dag(d, 5) built as a tree: every child its own.
func unshared(d int) *dagNode {
	if d == 0 {
		return &dagNode{V: 5}
	}
	return &dagNode{Left: unshared(d - 1), Right: unshared(d - 1)}
}

// BenchmarkSharedDepth measures Diff on a value whose d levels each hold
// the level below twice: the cost grows with d, the distinct nodes, not
// with the 2^d paths (the answer is ErrLimit from d = 19 on).
func BenchmarkSharedDepth(b *testing.B) {
	for _, d := range []int{1000, 2000, 4000, 8000} {
		b.Run("depth="+strconv.Itoa(d), func(b *testing.B) {
			n, _ := dag(d, 0)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := smp.Diff(dagRoot{Tree: n}, dagRoot{Tree: n, X: 1}); smp.KindOf(err) != smp.ErrLimit {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSizeFastMatchesWalk: the measure compiled for a type (read from
// memory, used by the typed API below 32,768 units) counts what the
// reflecting walk (CheckSize) counts, on random Deployments and Pods.
func TestSizeFastMatchesWalk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := property.Generate[exampletypes.Deployment]().Draw(t, "deployment")
		p := property.Generate[exampletypes.Pod]().Draw(t, "pod")
		assert.Equal(t, minBudget(func(l smp.Limits) error { return smp.CheckSize(d, l, "v") }),
			minBudget(func(l smp.Limits) error { _, err := smp.Apply(d, smp.Patch{}, smp.WithLimits(l)); return err }))
		assert.Equal(t, minBudget(func(l smp.Limits) error { return smp.CheckSize(&p, l, "v") }),
			minBudget(func(l smp.Limits) error { _, err := smp.Apply(&p, smp.Patch{}, smp.WithLimits(l)); return err }))
	})
}

// minBudget is the least MaxNodes with which call succeeds.
func minBudget(call func(smp.Limits) error) int {
	lo, hi := 1, 1<<30
	for lo < hi {
		mid := (lo + hi) / 2
		if call(smp.Limits{MaxNodes: mid}) == nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
