package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nfunc small(a, b int) {}\n\nfunc wide(a, b, c, d, e, f, g int) {}\n\nfunc long() {\n" + strings.Repeat("\t_ = 1\n", 90) + "}\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nfunc ignored(a, b, c, d, e, f, g int) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	n, err := report(&out, []string{dir}, limits{funcLines: 80, params: 6, fileLines: 400})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if n != 2 || !strings.Contains(got, "wide: 1 lines, 7 parameters") || !strings.Contains(got, "long: 92 lines, 0 parameters") || strings.Contains(got, "small") || strings.Contains(got, "ignored") {
		t.Errorf("report gave %d lines:\n%s", n, got)
	}
	n, err = report(&out, []string{dir}, limits{funcLines: 80, params: 6, fileLines: 50})
	if err != nil || n != 3 {
		t.Errorf("with a 50-line file limit: %d, %v; want the file too", n, err)
	}
}

// TestEngineShape holds the engine's packages to issue 18's limits, so a
// change that breaks them fails CI rather than waiting for a review.
func TestEngineShape(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	dirs := []string{
		"smp", "smp/internal/errpath", "smp/internal/jsonval", "smp/internal/format",
		"smp/internal/goval", "smp/internal/engine", "smp/internal/typedwalk",
		"reflectschema", "property", "openapischema", "cmd/smp", "builtin", "fixtures", "exampletypes",
		"internal/inputtext", "kube/strategicpatch",
	}
	for i, d := range dirs {
		dirs[i] = filepath.Join(root, filepath.FromSlash(d))
		if _, err := os.Stat(dirs[i]); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	n, err := report(&out, dirs, limits{funcLines: 80, params: 6, fileLines: 400})
	if err != nil {
		t.Fatal(err)
	}
	if n > 0 {
		t.Errorf("%d functions or files over the limits (80 lines, 6 parameters, 400-line files):\n%s", n, out.String())
	}
}
