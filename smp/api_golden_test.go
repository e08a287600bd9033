package smp_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var updateAPI = flag.Bool("update-api", false, "rewrite testdata/api from go doc")

// TestAPIGolden compares the public API of smp and reflectschema, as
// `go doc -all` prints it, with testdata/api: a change to it is
// deliberate, made with -update-api and reviewed in the diff.
func TestAPIGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go doc")
	}
	for _, pkg := range []string{"smp", "reflectschema"} {
		out, err := exec.Command("go", "doc", "-all", "github.com/typedpatch/typedpatch/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go doc %s: %v\n%s", pkg, err, out)
		}
		golden := filepath.Join("testdata", "api", pkg+".txt")
		if *updateAPI {
			if err := os.WriteFile(golden, out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(want) {
			t.Errorf("the API of %s changed; if on purpose, run go test ./smp -run TestAPIGolden -update-api and review testdata/api/%s.txt", pkg, pkg)
		}
	}
}
