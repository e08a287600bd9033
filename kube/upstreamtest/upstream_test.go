package upstreamtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	// The test file's own imports, kept in this module's go.mod.
	_ "k8s.io/apimachinery/pkg/util/strategicpatch/testing"
	_ "k8s.io/utils/dump"
	_ "sigs.k8s.io/yaml"

	// The code under test, which only the go commands this test starts
	// build: importing it makes go test's cache rerun the test when it
	// (or the engine below it) changes.
	_ "github.com/typedpatch/typedpatch/kube/strategicpatch"
)

// deliberate are the only failures allowed: Kubernetes' tests of its
// behaviour where the design documents say it is wrong or it loses data
// (issue 15 point 4), by docs/compat.md section, each with how many of
// the file's tests it fails (a test fails "on its own" when none of its
// subtests failed). Every other test of the file must pass.
//   - "duplicated merge keys": TestStrategicMergePatch/behavior_of_set_element_order_for_a_merging_list_with_duplicate
//     and ..._merging_int_list_with_duplicate (TwoWay, ThreeWay; 3 schemas x 10 runs).
//   - "delete directive on a map": TestCustomStrategicMergePatch/delete_map_from_nested_map/*.
//   - "directives on fields without their strategy": the raw case "$deleteFromPrimitiveList should
//     delete item from a list without merge patch strategy", whose failure every parent
//     TestCustomStrategicMergePatch/<case> reports.
var deliberate = map[string]int{
	"deliberate: compat.md \"duplicated merge keys\"":     120,
	"deliberate: compat.md \"delete directive on a map\"": 3,
	"deliberate: compat.md \"directives on fields without their strategy\" ($deleteFromPrimitiveList on a list that does not merge)": 17,
}

// TestKubernetesPatchTestFile compiles Kubernetes' own
// pkg/util/strategicpatch/patch_test.go (v0.37.2, from the module cache,
// unchanged) into a copy of package kube/strategicpatch and runs it,
// printing the failing subtests grouped by cause.
func TestKubernetesPatchTestFile(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/apimachinery").Output()
	if err != nil {
		t.Fatalf("go list -m k8s.io/apimachinery: %v", err)
	}
	upstream := filepath.Join(strings.TrimSpace(string(out)), "pkg", "util", "strategicpatch")
	dir := os.Getenv("KUBE_UPSTREAM_DIR") // set to keep the copy for debugging
	if dir == "" {
		dir = t.TempDir()
	}
	pkg, err := Prepare(dir, "..", upstream)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	results, raw, err := Run(pkg)
	if err != nil {
		t.Fatalf("%v\n%s", err, tail(raw, 4000))
	}
	passed := 0
	for _, r := range results {
		if r.Passed {
			passed++
		}
	}
	t.Logf("Kubernetes' patch_test.go: %d of %d tests pass on their own assertions (%s)", passed, len(results), time.Since(start).Round(time.Second))
	groups := Group(results)
	causes := make([]string, 0, len(groups))
	for c := range groups {
		causes = append(causes, c)
	}
	sort.Strings(causes)
	for _, c := range causes {
		names := groups[c]
		t.Logf("%d failing: %s", len(names), c)
		for _, n := range names {
			t.Logf("    %s", n)
		}
	}
	for _, c := range causes {
		if want, ok := deliberate[c]; !ok {
			t.Errorf("%d tests fail for a cause that is not a deliberate difference: %s", len(groups[c]), c)
		} else if got := len(groups[c]); got != want {
			t.Errorf("%d tests fail for %s, want %d", got, c, want)
		}
	}
	for c, want := range deliberate {
		if _, ok := groups[c]; !ok {
			t.Errorf("no test fails for %s, want %d: update the list and docs/compat.md", c, want)
		}
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
