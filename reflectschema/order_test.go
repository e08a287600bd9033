package reflectschema_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// Recursive types whose schemas must not depend on which is built first.
type (
	// A named merge list whose element holds the list again.
	orList []orNode
	orNode struct {
		Name string `json:"name"`
		Kids orList `json:"kids" patchStrategy:"merge" patchMergeKey:"name"`
	}
	// A named map whose values hold the map again, and a merge list of
	// the recursive element type.
	orMap   map[string]orMNode
	orMNode struct {
		Name  string    `json:"name"`
		Sub   orMap     `json:"sub" patchStrategy:"merge"`
		Items []orMNode `json:"items" patchStrategy:"merge" patchMergeKey:"name"`
	}
	// Through pointers.
	orPtrList []*orPNode
	orPNode   struct {
		Name string    `json:"name"`
		Next *orPNode  `json:"next,omitempty"`
		Kids orPtrList `json:"kids" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	}
	// Mutual recursion across a named list.
	orA struct {
		Name string  `json:"name"`
		Bs   orBList `json:"bs" patchStrategy:"merge" patchMergeKey:"id"`
	}
	orBList []orB
	orB     struct {
		ID   int   `json:"id"`
		As   []orA `json:"as" patchStrategy:"merge" patchMergeKey:"name"`
		Back *orA  `json:"back"`
	}
	// Arrays, and a map of named lists.
	orArr     [2]orArrNode
	orArrNode struct {
		Name string `json:"name"`
		A    *orArr `json:"a" patchStrategy:"merge" patchMergeKey:"name"`
	}
	orHolder struct {
		Items []orNode          `json:"items" patchStrategy:"merge" patchMergeKey:"name"`
		M     map[string]orList `json:"m"`
		Lists []orList          `json:"lists"`
	}
	// Lists of lists that come back to themselves.
	orL1   []orL2
	orL2   []orL1
	orL3   []orL3
	orWrap struct {
		X []orL1 `json:"x"`
		Y []orL3 `json:"y"`
		Z orL2   `json:"z"`
	}
	// Invalid whatever the order: a merge list of objects without a key.
	orBad struct {
		Kids orList `json:"kids" patchStrategy:"merge"`
	}
)

var orderTypes = []reflect.Type{
	reflect.TypeFor[orList](), reflect.TypeFor[orNode](), reflect.TypeFor[orMap](), reflect.TypeFor[orMNode](),
	reflect.TypeFor[orPtrList](), reflect.TypeFor[*orPNode](), reflect.TypeFor[orA](), reflect.TypeFor[orBList](),
	reflect.TypeFor[orB](), reflect.TypeFor[orArr](), reflect.TypeFor[orArrNode](), reflect.TypeFor[orHolder](),
	reflect.TypeFor[orL1](), reflect.TypeFor[orL2](), reflect.TypeFor[orL3](), reflect.TypeFor[orWrap](),
	reflect.TypeFor[orBad](),
}

// fingerprint prints the schema graph reachable from st, naming each
// *Type by the order it is first met, so that two builds compare equal
// exactly when they have the same shape.
func fingerprint(st *reflectschema.Type, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	ids := map[*reflectschema.Type]int{}
	var queue []*reflectschema.Type
	id := func(t *reflectschema.Type) int {
		if t == nil {
			return -1
		}
		if n, ok := ids[t]; ok {
			return n
		}
		ids[t] = len(ids)
		queue = append(queue, t)
		return ids[t]
	}
	id(st)
	var b strings.Builder
	for i := 0; i < len(queue); i++ {
		t := queue[i]
		fmt.Fprintf(&b, "%d: %v %v elem=%d\n", i, t.Go, t.Kind, id(t.Elem))
		for _, f := range t.Fields {
			fmt.Fprintf(&b, "  %s %s %v type=%d %+v\n", f.Name, f.GoName, f.Index, id(f.Type), f.Patch)
		}
	}
	return b.String()
}

// buildInOrder builds the types in order, with a fresh cache, and returns
// each type's fingerprint.
func buildInOrder(order []int) map[reflect.Type]string {
	reflectschema.ResetCache()
	out := map[reflect.Type]string{}
	for _, k := range order {
		st, err := reflectschema.Of(orderTypes[k])
		out[orderTypes[k]] = fingerprint(st, err)
	}
	return out
}

// alone returns each type's fingerprint when it is the first type built.
func alone(t *testing.T) map[reflect.Type]string {
	t.Helper()
	want := map[reflect.Type]string{}
	for k, typ := range orderTypes {
		want[typ] = buildInOrder([]int{k})[typ]
		if typ == reflect.TypeFor[orBad]() {
			require.True(t, strings.HasPrefix(want[typ], "error: "), "%v must be invalid", typ)
			assert.Contains(t, want[typ], "without a patchMergeKey")
		} else {
			require.False(t, strings.HasPrefix(want[typ], "error: "), "%v: %s", typ, want[typ])
		}
	}
	return want
}

func TestSchemaDoesNotDependOnBuildOrder(t *testing.T) {
	t.Cleanup(reflectschema.ResetCache)
	want := alone(t)
	// Kinds fixed by the element chain, not by which list came first.
	assert.Contains(t, want[reflect.TypeFor[orL3]()], "orL3 atomic elem=0")
	assert.Contains(t, want[reflect.TypeFor[orWrap]()], "[]reflectschema_test.orL1 list")
	assert.Contains(t, want[reflect.TypeFor[orList]()], "orList list elem=1")

	n := len(orderTypes)
	base := make([]int, n)
	for i := range base {
		base[i] = i
	}
	var orders [][]int
	for first := range n {
		// Each type first, the others after it forwards and backwards.
		fwd := append([]int{first}, slices.Delete(slices.Clone(base), first, first+1)...)
		bwd := slices.Clone(fwd)
		slices.Reverse(bwd[1:])
		orders = append(orders, fwd, bwd)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		p := slices.Clone(base)
		r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		orders = append(orders, p)
	}
	for _, order := range orders {
		got := buildInOrder(order)
		for _, typ := range orderTypes {
			if !assert.Equal(t, want[typ], got[typ], "%v built in order %v", typ, order) {
				return
			}
		}
	}
}

// buildConcurrently builds every type from many goroutines at once, each
// starting at another type, and checks each gets the schema it gets alone.
func buildConcurrently(t *testing.T, want map[reflect.Type]string) {
	const goroutines = 32
	n := len(orderTypes)
	got := make([][]*reflectschema.Type, goroutines)
	prints := make([][]string, goroutines)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range goroutines {
		got[g], prints[g] = make([]*reflectschema.Type, n), make([]string, n)
		wg.Go(func() {
			<-start
			for i := range n {
				k := (g*7 + i) % n
				if g%2 == 1 {
					k = (g + n - i) % n
				}
				st, err := reflectschema.Of(orderTypes[k])
				got[g][k], prints[g][k] = st, fingerprint(st, err)
			}
		})
	}
	close(start)
	wg.Wait()
	for k, typ := range orderTypes {
		for g := range goroutines {
			require.Equal(t, want[typ], prints[g][k], "%v in goroutine %d", typ, g)
			require.Same(t, got[0][k], got[g][k], "%v in goroutine %d", typ, g)
		}
	}
}

func TestConcurrentFirstUseOfRecursiveTypes(t *testing.T) {
	t.Cleanup(reflectschema.ResetCache)
	want := alone(t)
	for range 20 {
		reflectschema.ResetCache()
		buildConcurrently(t, want)
	}
}

// TestFreshProcesses runs the concurrent first use in 30 new processes,
// where the cache starts empty without a reset.
func TestFreshProcesses(t *testing.T) {
	if os.Getenv("REFLECTSCHEMA_ORDER_CHILD") == "1" {
		t.Skip("in a child process")
	}
	if testing.Short() {
		t.Skip("starts 30 processes")
	}
	for i := range 30 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFreshProcessChild$", "-test.count=1")
		// GORACE: under -race, a process would sleep a second as it exits.
		cmd.Env = append(os.Environ(), "REFLECTSCHEMA_ORDER_CHILD=1", "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "process %d:\n%s", i, out)
		require.Contains(t, string(out), "PASS", "process %d", i)
	}
}

// TestFreshProcessChild is the body of TestFreshProcesses' processes.
func TestFreshProcessChild(t *testing.T) {
	if os.Getenv("REFLECTSCHEMA_ORDER_CHILD") != "1" {
		t.Skip("run by TestFreshProcesses")
	}
	// The reference is the documented shape, checked without building
	// first: the child's cache must be cold when the goroutines start.
	want := map[reflect.Type]string{}
	buildConcurrentlyCold(t)
	for _, typ := range orderTypes {
		st, err := reflectschema.Of(typ)
		want[typ] = fingerprint(st, err)
	}
	reflectschema.ResetCache()
	alone := map[reflect.Type]string{}
	for k, typ := range orderTypes {
		alone[typ] = buildInOrder([]int{k})[typ]
	}
	assert.Equal(t, alone, want)
}

// buildConcurrentlyCold is the first use of every type, from many
// goroutines at once; it fails on any error but orBad's.
func buildConcurrentlyCold(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 32*len(orderTypes))
	for g := range 32 {
		wg.Go(func() {
			for i := range orderTypes {
				typ := orderTypes[(g+i)%len(orderTypes)]
				if _, err := reflectschema.Of(typ); (err != nil) != (typ == reflect.TypeFor[orBad]()) {
					errs <- fmt.Errorf("%v: %v", typ, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
