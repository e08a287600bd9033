package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update rewrites the golden files: go test ./cmd/smp -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// smpBin is the smp binary TestMain builds; repoRoot is the directory the
// end-to-end cases run in, so their paths read as the README's do.
var smpBin, repoRoot string

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "smp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	smpBin = filepath.Join(dir, "smp")
	if out, err := exec.Command("go", "build", "-o", smpBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building smp: %v\n%s", err, out)
		return 2
	}
	if repoRoot, err = filepath.Abs(filepath.Join("..", "..")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return m.Run()
}

// cliCase is one end-to-end run of the binary. Its expected standard
// output and error are testdata/golden/NAME.stdout and NAME.stderr; a
// missing file means the stream must be empty.
type cliCase struct {
	name  string
	args  string // split at spaces; paths are relative to the repository root
	stdin string // a file fed to standard input, if any
	exit  int
	// printsOnFail lets a failing case print to standard output (diff
	// --exit-code); warns lets a succeeding one print to standard error.
	printsOnFail, warns bool
}

// Paths of the test data, relative to the repository root.
const (
	example = "cmd/smp/testdata/example/"
	td      = "cmd/smp/testdata/"
	exOrig  = example + "deployment-original.yaml"
	exMod   = example + "deployment-modified.yaml"
	exCur   = example + "deployment-current.yaml"
)

// readmeCase is the case the README's first Set-up command runs.
const readmeCase = "diff-kind-deployment"

// builtinKinds names the pairs testdata/kinds/NAME-original.yaml and
// NAME-modified.yaml of real manifests of built-in kinds; bench compares
// their patches with Kubernetes' own.
var builtinKinds = []string{"deployment", "statefulset", "daemonset", "cronjob", "job", "ingress",
	"networkpolicy", "hpa", "serviceaccount", "role", "rolebinding", "pdb", "configmap", "secret", "pvc", "crd", "apiservice"}

// customResources names the custom resources of testdata/crd, each with
// NAME-original.yaml, NAME-modified.yaml and NAME-current.yaml, and the
// file of openapischema/testdata that defines its kind.
var customResources = [][2]string{
	{"rollout", "rollout-crd.yaml"},
	{"certificate", "certificate-crd.yaml"},
	{"gameserver", "gameserver-crd.yaml"},
	{"httproute", "httproute-crd.yaml"},
}

// kindCases returns a diff case for each built-in kind and a three-way case
// for each custom resource.
func kindCases() []cliCase {
	var cases []cliCase
	for _, k := range builtinKinds {
		cases = append(cases, cliCase{name: "diff-kind-" + k, args: "diff " + kinds + k + "-original.yaml " + kinds + k + "-modified.yaml"})
	}
	for _, cr := range customResources {
		files := crd + cr[0] + "-original.yaml " + crd + cr[0] + "-modified.yaml " + crd + cr[0] + "-current.yaml"
		cases = append(cases, cliCase{name: "three-way-cr-" + cr[0], args: "three-way --schema openapischema/testdata/" + cr[1] + " " + files})
	}
	return cases
}

// Paths of the real manifests.
const (
	kinds  = td + "kinds/"
	crd    = td + "crd/"
	multi  = td + "multi/"
	ns     = td + "ns/"
	vd     = td + "validate/"
	fnd    = td + "fn/"
	kdOrig = kinds + "deployment-original.yaml"
	kdMod  = kinds + "deployment-modified.yaml"
)

// runBinary runs the built smp on a case from the repository root.
func runBinary(t *testing.T, c cliCase) (stdout, stderr string, exit int) {
	t.Helper()
	cmd := exec.Command(smpBin, strings.Fields(c.args)...)
	cmd.Dir = repoRoot
	if c.stdin != "" {
		f, err := os.Open(filepath.Join(repoRoot, c.stdin))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		exit = ee.ExitCode()
	case err != nil:
		t.Fatalf("running smp %s: %v", c.args, err)
	}
	return out.String(), errOut.String(), exit
}

func TestGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range cliCases {
		if seen[c.name] {
			t.Fatalf("two cases are named %s", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, exit := runBinary(t, c)
			if exit != c.exit {
				t.Errorf("smp %s: exit status %d, want %d\nstderr:\n%s", c.args, exit, c.exit, stderr)
			}
			checkGolden(t, c.name+".stdout", stdout)
			checkGolden(t, c.name+".stderr", stderr)
			if c.exit != 0 && stdout != "" && !c.printsOnFail {
				t.Errorf("smp %s failed but printed to standard output", c.args)
			}
			if c.exit == 0 && stderr != "" && !c.warns {
				t.Errorf("smp %s succeeded but printed to standard error", c.args)
			}
		})
	}
}

// TestGoldenFilesHaveCases catches golden files left behind by renamed or
// removed cases.
func TestGoldenFilesHaveCases(t *testing.T) {
	names := map[string]bool{}
	for _, c := range cliCases {
		names[c.name+".stdout"], names[c.name+".stderr"] = true, true
	}
	files, err := os.ReadDir(filepath.Join("testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !names[f.Name()] {
			t.Errorf("testdata/golden/%s belongs to no case", f.Name())
		}
	}
}

// checkGolden compares got with a golden file, or rewrites the file with
// -update; an empty output has no file.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		var err error
		if got == "" {
			err = os.Remove(path)
			if errors.Is(err, os.ErrNotExist) {
				err = nil
			}
		} else if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			err = os.WriteFile(path, []byte(got), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got; go test ./cmd/smp -update rewrites it):\n%s", path, diff)
	}
}
