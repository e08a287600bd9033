package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Many patches that match nothing: the message names five, counts the
// rest, and points to the namespace the objects are in.
func TestUnmatchedNamesAFew(t *testing.T) {
	var orig, patch strings.Builder
	for i := range 8 {
		fmt.Fprintf(&orig, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm%d, namespace: prod}\n", i)
		fmt.Fprintf(&patch, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm%d}\ndata: {a: b}\n", i)
	}
	dir := t.TempDir()
	o, p := filepath.Join(dir, "o.yaml"), filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(o, []byte(orig.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(patch.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, exit := runInProcess([]string{"apply", o, p}, "")
	if exit != exitUsage || stdout != "" {
		t.Fatalf("exit %d, stdout %q", exit, stdout)
	}
	for _, want := range []string{
		`document 1, v1 ConfigMap default/cm0, matches no object of ORIGINAL (it has one in namespace "prod": give metadata.namespace, or -n)`,
		"document 5, v1 ConfigMap default/cm4,",
		"and 3 more documents match no object",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "cm5") {
		t.Errorf("stderr names more than five:\n%s", stderr)
	}
}
