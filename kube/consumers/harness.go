// Package consumers runs real consumers' own tests (client-go, kubectl)
// twice: as published, and with their import of Kubernetes'
// strategicpatch swapped for kube/strategicpatch, the only change the
// kube module asks of them (see its test).
package consumers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Upstream and Ours are the two import paths of the swap.
const (
	Upstream = "k8s.io/apimachinery/pkg/util/strategicpatch"
	Ours     = "github.com/typedpatch/typedpatch/kube/strategicpatch"
)

// Consumer is a published module whose packages import Upstream.
type Consumer struct {
	Module, Version string
	Packages        []string // import paths whose tests run
}

// Workspace is a module in a directory of its own that requires the
// consumers, each replaced by a writable copy of its published source,
// and the kube module, replaced by the local one.
type Workspace struct {
	Dir       string
	Consumers []Consumer
	copies    map[string]string // module path → directory of its copy
}

// Prepare builds the workspace in dir (an empty directory); kubeDir is
// the kube module's directory. The consumers come from the module proxy
// through the module cache, as `go` fetches any dependency.
func Prepare(dir, kubeDir string, consumers []Consumer) (*Workspace, error) {
	kube, err := filepath.Abs(kubeDir)
	if err != nil {
		return nil, err
	}
	w := &Workspace{Dir: dir, Consumers: consumers, copies: map[string]string{}}
	var mod, imports strings.Builder
	fmt.Fprintf(&mod, "module workspace\n\ngo 1.26.0\n\nrequire %s v0.0.0\n", strings.TrimSuffix(Ours, "/strategicpatch"))
	fmt.Fprintf(&mod, "\nreplace github.com/typedpatch/typedpatch => %s\n", filepath.Dir(kube))
	fmt.Fprintf(&mod, "\nreplace github.com/typedpatch/typedpatch/kube => %s\n", kube)
	fmt.Fprintf(&imports, "// Package workspace imports what its tests run.\npackage workspace\n\nimport (\n\t_ %q\n", Ours)
	for _, c := range consumers {
		src, err := w.download(c)
		if err != nil {
			return nil, err
		}
		copyDir := filepath.Join(dir, "mods", strings.ReplaceAll(c.Module, "/", "_"))
		if err := copyTree(src, copyDir); err != nil {
			return nil, err
		}
		w.copies[c.Module] = copyDir
		fmt.Fprintf(&mod, "\nrequire %s %s\n\nreplace %s => %s\n", c.Module, c.Version, c.Module, copyDir)
		for _, p := range c.Packages {
			fmt.Fprintf(&imports, "\t_ %q\n", p)
		}
	}
	imports.WriteString(")\n")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "workspace.go"), []byte(imports.String()), 0o644); err != nil {
		return nil, err
	}
	if _, err := w.goCmd("mod", "tidy"); err != nil {
		return nil, err
	}
	return w, nil
}

// download returns the directory of c's source in the module cache.
func (w *Workspace) download(c Consumer) (string, error) {
	out, err := w.goCmd("mod", "download", "-json", c.Module+"@"+c.Version)
	if err != nil {
		return "", err
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v", c.Module, c.Version, err)
	}
	if m.Error != "" || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", c.Module, c.Version, m.Error)
	}
	return m.Dir, nil
}

// Swap writes, beside the copies, each Go file of the consumers'
// packages that imports Upstream with the import path changed to Ours
// and nothing else, and returns the -overlay file that puts them in
// place, with the swapped files by package.
func (w *Workspace) Swap() (overlay string, swapped map[string][]string, err error) {
	replace := map[string]string{}
	swapped = map[string][]string{}
	for _, c := range w.Consumers {
		for _, p := range c.Packages {
			dir := filepath.Join(w.copies[c.Module], strings.TrimPrefix(strings.TrimPrefix(p, c.Module), "/"))
			files, err := filepath.Glob(filepath.Join(dir, "*.go"))
			if err != nil {
				return "", nil, err
			}
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					return "", nil, err
				}
				from, to := []byte(`"`+Upstream+`"`), []byte(`"`+Ours+`"`)
				if !bytes.Contains(src, from) {
					continue
				}
				out := filepath.Join(w.Dir, "swapped", fmt.Sprintf("%d_%s", len(replace), filepath.Base(f)))
				if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
					return "", nil, err
				}
				if err := os.WriteFile(out, bytes.ReplaceAll(src, from, to), 0o644); err != nil {
					return "", nil, err
				}
				replace[f] = out
				swapped[p] = append(swapped[p], filepath.Base(f))
			}
		}
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", nil, err
	}
	overlay = filepath.Join(w.Dir, "overlay.json")
	return overlay, swapped, os.WriteFile(overlay, data, 0o644)
}

// Imports returns the imports of package p, its tests' included, as the
// build sees them with the overlay ("" for none).
func (w *Workspace) Imports(p, overlay string) ([]string, error) {
	args := []string{"list", "-trimpath", "-f", "{{range .Imports}}{{.}}\n{{end}}{{range .TestImports}}{{.}}\n{{end}}{{range .XTestImports}}{{.}}\n{{end}}"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	out, err := w.goCmd(append(args, p)...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// Result is one test (top level or subtest) of one package.
type Result struct {
	Package, Test string
	Passed        bool
}

// Test runs the consumers' packages' tests with the overlay ("" for
// none) and returns every test's result; err is set when a package did
// not build or no test ran. -trimpath keeps the build cache valid
// whatever directory the workspace is in.
func (w *Workspace) Test(overlay string) ([]Result, []byte, error) {
	args := []string{"test", "-trimpath", "-json"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	for _, c := range w.Consumers {
		args = append(args, c.Packages...)
	}
	cmd := w.command(args...)
	out, runErr := cmd.Output()
	results, broken, err := parse(out)
	if err != nil {
		return nil, out, err
	}
	if len(broken) > 0 {
		return results, out, fmt.Errorf("packages failed without a failing test (a build failure?): %s", strings.Join(broken, ", "))
	}
	if len(results) == 0 {
		return nil, out, fmt.Errorf("no tests ran: %v", runErr)
	}
	return results, out, nil
}

type event struct {
	Action, Package, Test, Output string
}

// parse reads go test -json output; broken lists the packages that
// failed with no failing test of their own.
func parse(out []byte) (results []Result, broken []string, err error) {
	failedTests := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch {
		case e.Action != "pass" && e.Action != "fail" && e.Action != "skip":
		case e.Test != "":
			results = append(results, Result{Package: e.Package, Test: e.Test, Passed: e.Action != "fail"})
			if e.Action == "fail" {
				failedTests[e.Package] = true
			}
		case e.Action == "fail" && !failedTests[e.Package]:
			broken = append(broken, e.Package)
		}
	}
	return results, broken, sc.Err()
}

func (w *Workspace) command(args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	return cmd
}

func (w *Workspace) goCmd(args ...string) ([]byte, error) {
	cmd := w.command(args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// copyTree copies the regular files under src to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}
