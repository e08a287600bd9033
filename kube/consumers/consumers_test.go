package consumers

import (
	"os"
	"slices"
	"testing"
	"time"

	// The code under test, which only the go commands this test starts
	// build: importing it makes go test's cache rerun the test when it
	// (or the engine below it) changes.
	_ "github.com/typedpatch/typedpatch/kube/strategicpatch"
)

// consumers are the packages issue 15 names: client-go's fake clientset
// machinery (its object tracker applies strategic merge patches) and
// kubectl's apply, patch and edit commands, at Kubernetes v0.37.2.
var consumers = []Consumer{
	{Module: "k8s.io/client-go", Version: "v0.37.2", Packages: []string{"k8s.io/client-go/testing"}},
	{Module: "k8s.io/kubectl", Version: "v0.37.2", Packages: []string{
		"k8s.io/kubectl/pkg/cmd/apply",
		"k8s.io/kubectl/pkg/cmd/patch",
		"k8s.io/kubectl/pkg/cmd/util/editor",
	}},
}

// TestConsumersWithImportSwapped runs the consumers' own tests as
// published, then with the strategicpatch import path changed in their
// source, and requires every test that passes the first way to pass the
// second: the import path is the only change a consumer makes.
func TestConsumersWithImportSwapped(t *testing.T) {
	dir := os.Getenv("KUBE_CONSUMERS_DIR") // set to keep the workspace for debugging
	if dir == "" {
		dir = t.TempDir()
	}
	start := time.Now()
	w, err := Prepare(dir, "..", consumers)
	if err != nil {
		t.Fatal(err)
	}
	overlay, swapped, err := w.Swap()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range consumers {
		for _, p := range c.Packages {
			if len(swapped[p]) == 0 {
				t.Fatalf("%s: no file imports %s", p, Upstream)
			}
			imports, err := w.Imports(p, overlay)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(imports, Ours) || slices.Contains(imports, Upstream) {
				t.Fatalf("%s with the swap imports %v: want %s and not %s", p, imports, Ours, Upstream)
			}
			t.Logf("%s: swapped the import in %v", p, swapped[p])
		}
	}
	published, out, err := w.Test("")
	if err != nil {
		t.Fatalf("published tests: %v\n%s", err, tail(out))
	}
	ours, out, err := w.Test(overlay)
	if err != nil {
		t.Fatalf("tests with the swap: %v\n%s", err, tail(out))
	}
	passed := map[[2]string]bool{} // package and test, with the swap
	for _, r := range ours {
		passed[[2]string{r.Package, r.Test}] = r.Passed
	}
	counts := map[string][2]int{}
	for _, r := range published {
		c := counts[r.Package]
		if r.Passed {
			c[0]++
			if passed[[2]string{r.Package, r.Test}] {
				c[1]++
			} else {
				t.Errorf("%s %s passes as published, not with the swap", r.Package, r.Test)
			}
		}
		counts[r.Package] = c
	}
	for _, c := range consumers {
		for _, p := range c.Packages {
			n := counts[p]
			if n[0] == 0 {
				t.Errorf("%s: no test passes as published", p)
			}
			t.Logf("%s: %d of the %d tests that pass as published pass with the swap", p, n[1], n[0])
		}
	}
	t.Logf("%d tests as published, %d with the swap (%s)", len(published), len(ours), time.Since(start).Round(time.Second))
}

func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}
