package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// FuzzKubernetesAgreement applies a fuzzed patch to a fuzzed document with
// this engine and with Kubernetes' StrategicMergePatch, for corev1.Pod or
// appsv1.Deployment (picked by a byte). Wherever both accept the input,
// the results must be equal as JSON values (numbers by value), except
// where a difference docs/compat.md lists explains them: each such
// difference is recognised by its own rule (agreeFilters), named by its
// heading there, and counted (go test -v prints the counts). A panic of
// Kubernetes' is recovered and counted too; this engine must not panic.
func FuzzKubernetesAgreement(f *testing.F) {
	doc, err := os.ReadFile("../docs/compat.md")
	if err != nil {
		f.Fatal(err)
	}
	for _, fl := range agreeFilters {
		if !strings.Contains(string(doc), "\n### "+fl.heading+"\n") {
			f.Fatalf("docs/compat.md has no heading %q", fl.heading)
		}
	}
	agreeSeeds(f)
	f.Cleanup(func() { f.Logf("filtered: %s", agreeCounts.String()) })
	f.Fuzz(func(t *testing.T, which uint8, original, patch []byte) {
		schemas := [...]any{&corev1.Pod{}, &appsv1.Deployment{}}
		checkAgreement(t, schemas[int(which)%len(schemas)], original, patch)
	})
}

func checkAgreement(t *testing.T, schema any, original, patch []byte) {
	ours, oerr := smp.ApplyJSON(original, patch, schema)
	if oerr != nil && smp.KindOf(oerr) == "" {
		t.Fatalf("error is not an *smp.Error: %T %v", oerr, oerr)
	}
	theirs, kerr, panicked := k8sApply(original, patch, schema)
	if panicked != nil {
		agreeCounts.add("Kubernetes panicked")
		return
	}
	if oerr != nil || kerr != nil {
		return
	}
	in := agreeInput{original: agreeDecode(t, original), patch: agreeDecode(t, patch)}
	used, ok := explainDifference(in, agreeDecode(t, ours), agreeDecode(t, theirs))
	if !ok {
		t.Fatalf("the engines disagree\noriginal: %s\npatch:    %s\nours:     %s\nk8s:      %s", original, patch, ours, theirs)
	}
	for _, h := range used {
		agreeCounts.add(h)
	}
}

// explainDifference returns the headings of the filters that, applied in
// turn, make the two results equal (none when they are), or false when the
// filters cannot.
func explainDifference(in agreeInput, ours, theirs any) ([]string, bool) {
	if agreeEqual(ours, theirs, exactNumbers) {
		return nil, true
	}
	var used []string
	for _, fl := range agreeFilters {
		if !fl.applies(in, ours, theirs) {
			continue
		}
		ours, theirs = fl.normalize(in, ours, theirs)
		used = append(used, fl.heading)
		if agreeEqual(ours, theirs, exactNumbers) {
			return used, true
		}
	}
	return used, false
}

// k8sApply is Kubernetes' StrategicMergePatch with a panic turned into a
// value.
func k8sApply(original, patch []byte, schema any) (out []byte, err error, panicked any) {
	defer func() { panicked = recover() }()
	out, err = k8s.StrategicMergePatch(original, patch, schema)
	return out, err, nil
}

// agreeSeeds adds the seed cases' apply inputs, the applies of
// compatCases, and the fixtures samples of Pod and Deployment with small
// patches, for both schemas.
func agreeSeeds(f *testing.F) {
	cases, err := fixtures.SeedCases()
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Type != "Pod" && c.Type != "Deployment" {
			continue
		}
		which := uint8(0)
		if c.Type == "Deployment" {
			which = 1
		}
		patch := c.Patch
		if c.Operation != fixtures.OpApply {
			patch = c.Modified
		}
		f.Add(which, agreeMarshal(f, c.Original), agreeMarshal(f, patch))
	}
	for _, c := range compatCases {
		if c.diff || c.k8sSchema != nil {
			continue
		}
		which := uint8(0)
		if _, ok := c.schema.(*appsv1.Deployment); ok {
			which = 1
		}
		f.Add(which, []byte(c.original), []byte(c.patch))
	}
	patches := []string{
		`{"metadata":{"labels":{"app":null,"tier":"web"}}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"name":"web","image":"nginx:2"}]}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"protocol":"UDP"}]}]}}}}`,
		`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate","rollingUpdate":null}}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":["b"]}}`,
	}
	for i, name := range []string{"Pod", "Deployment"} {
		s, _ := fixtures.Sample(name)
		for _, p := range patches {
			f.Add(uint8(i), agreeMarshal(f, s), []byte(p))
		}
	}
}

func agreeMarshal(f *testing.F, v any) []byte {
	if v == nil {
		return []byte("{}")
	}
	b, err := json.Marshal(v)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// agreeCounter counts the inputs each filter explained, by heading.
type agreeCounter struct {
	mu sync.Mutex
	n  map[string]int
}

var agreeCounts = &agreeCounter{n: map[string]int{}}

func (c *agreeCounter) add(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[name]++
}

func (c *agreeCounter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.n) == 0 {
		return "none"
	}
	return fmt.Sprint(c.n)
}

func agreeDecode(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %.200s: %v", data, err)
	}
	return v
}

// exactNumbers compares two JSON numbers by their exact value.
func exactNumbers(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// agreeEqual compares two decoded JSON values, numbers by eq.
func agreeEqual(a, b any, eq func(a, b json.Number) bool) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !agreeEqual(v, w, eq) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !agreeEqual(x[i], y[i], eq) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && eq(x, y)
	}
	return a == b
}

// TestAgreeFiltersArePrecise checks that each compatCase of an apply both
// engines accept is explained by exactly its own filter.
func TestAgreeFiltersArePrecise(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range compatCases {
		if c.diff || c.k8sSchema != nil {
			continue
		}
		ours, oerr := smp.ApplyJSON([]byte(c.original), []byte(c.patch), c.schema)
		theirs, kerr := k8s.StrategicMergePatch([]byte(c.original), []byte(c.patch), c.schema)
		if oerr != nil || kerr != nil {
			continue
		}
		in := agreeInput{original: agreeDecode(t, []byte(c.original)), patch: agreeDecode(t, []byte(c.patch))}
		used, ok := explainDifference(in, agreeDecode(t, ours), agreeDecode(t, theirs))
		want := strings.ReplaceAll(c.id, "-", " ")
		if !ok || len(used) != 1 || used[0] != want {
			t.Errorf("%s: explained by %q (ok %v), want only %q", c.id, used, ok, want)
		}
		seen[want] = true
	}
	for _, fl := range agreeFilters {
		if !seen[fl.heading] {
			t.Errorf("no compatCase shows %q", fl.heading)
		}
	}
}
