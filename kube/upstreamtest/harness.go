// Package upstreamtest runs Kubernetes' own strategicpatch test file,
// unchanged, against package kube/strategicpatch (see its test).
package upstreamtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Result is one test of the run: its full name, whether its own
// assertions passed, and its output.
type Result struct {
	Name   string
	Passed bool
	Output string
}

// Prepare builds in dir a module holding a copy of package
// kube/strategicpatch (kubeDir is the kube module) with Kubernetes'
// patch_test.go and testdata/ from upstreamDir, plus the package's
// helper file for it, and returns the package's directory.
func Prepare(dir, kubeDir, upstreamDir string) (string, error) {
	repo, err := filepath.Abs(filepath.Join(kubeDir, ".."))
	if err != nil {
		return "", err
	}
	mod, err := os.ReadFile(filepath.Join(kubeDir, "go.mod"))
	if err != nil {
		return "", err
	}
	mod = bytes.Replace(mod, []byte("=> ../"), []byte("=> "+repo), 1)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644); err != nil {
		return "", err
	}
	if err := copyFile(filepath.Join(kubeDir, "go.sum"), filepath.Join(dir, "go.sum")); err != nil {
		return "", err
	}
	pkg := filepath.Join(dir, "strategicpatch")
	if err := os.MkdirAll(filepath.Join(pkg, "testdata"), 0o755); err != nil {
		return "", err
	}
	ours, err := filepath.Glob(filepath.Join(kubeDir, "strategicpatch", "*.go"))
	if err != nil {
		return "", err
	}
	for _, f := range ours {
		name := filepath.Base(f)
		if strings.HasSuffix(name, "_test.go") && name != "sortmerge_test.go" {
			continue
		}
		if err := copyFile(f, filepath.Join(pkg, name)); err != nil {
			return "", err
		}
	}
	if err := copyFile(filepath.Join(upstreamDir, "patch_test.go"), filepath.Join(pkg, "patch_test.go")); err != nil {
		return "", err
	}
	data, err := filepath.Glob(filepath.Join(upstreamDir, "testdata", "*"))
	if err != nil {
		return "", err
	}
	for _, f := range data {
		if err := copyFile(f, filepath.Join(pkg, "testdata", filepath.Base(f))); err != nil {
			return "", err
		}
	}
	return pkg, nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// Run runs go test -json in the package directory and returns its leaf
// tests; err is set only when the tests could not run (a build failure).
func Run(pkg string) ([]Result, []byte, error) {
	cmd := exec.Command("go", "test", "-json", "-count=1", ".")
	cmd.Dir = pkg
	out, runErr := cmd.CombinedOutput()
	results, err := parse(out)
	if err != nil {
		return nil, out, err
	}
	if len(results) == 0 {
		return nil, out, fmt.Errorf("no tests ran: %v", runErr)
	}
	return results, out, nil
}

type event struct {
	Action string
	Test   string
	Output string
}

// parse reads go test -json output into one result per test, judged
// on its own assertions: a test fails on its own when it failed and none
// of its subtests did (Kubernetes' file asserts in parents too).
func parse(out []byte) ([]Result, error) {
	byName := map[string]*Result{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" {
			continue
		}
		r := byName[e.Test]
		if r == nil {
			r = &Result{Name: e.Test}
			byName[e.Test] = r
			order = append(order, e.Test)
		}
		switch e.Action {
		case "output":
			r.Output += e.Output
		case "pass", "skip":
			r.Passed = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	childFailed := map[string]bool{}
	for _, n := range order {
		if byName[n].Passed {
			continue
		}
		for i := strings.LastIndex(n, "/"); i > 0; i = strings.LastIndex(n[:i], "/") {
			childFailed[n[:i]] = true
		}
	}
	results := make([]Result, 0, len(order))
	for _, n := range order {
		r := *byName[n]
		r.Passed = r.Passed || childFailed[n]
		results = append(results, r)
	}
	return results, nil
}

// Cause names why a test failed: by its name, then by its output.
func Cause(r Result) string {
	for _, c := range causes {
		for _, m := range c.names {
			if strings.Contains(r.Name, m) {
				return c.name
			}
		}
		for _, m := range c.marks {
			if strings.Contains(r.Output, m) {
				return c.name
			}
		}
	}
	return "other"
}

// causes of failure: the deliberate differences first (docs/compat.md
// sections), then what would be the engine's gaps.
var causes = []struct {
	name         string
	names, marks []string
}{
	{name: "deliberate: compat.md \"duplicated merge keys\"",
		names: []string{"_with_duplicate"}},
	{name: "deliberate: compat.md \"delete directive on a map\"",
		names: []string{"delete_map_from_nested_map"}},
	{name: "deliberate: compat.md \"directives on fields without their strategy\" ($deleteFromPrimitiveList on a list that does not merge)",
		marks: []string{"in test case: $deleteFromPrimitiveList should delete item from a list without merge patch strategy"}},
	{name: "engine: value type checks", marks: []string{"TypeMismatch", "InvalidValue"}},
	{name: "unknown field (Kubernetes errors)", marks: []string{"unable to find api field"}},
	{name: "error expected, none returned", marks: []string{"did not occur in test case"}},
	{name: "different error", marks: []string{"unexpected error"}},
}

// Group returns the failing leaves' names by cause, each list sorted.
func Group(results []Result) map[string][]string {
	g := map[string][]string{}
	for _, r := range results {
		if !r.Passed {
			c := Cause(r)
			g[c] = append(g[c], r.Name)
		}
	}
	for _, names := range g {
		sort.Strings(names)
	}
	return g
}
