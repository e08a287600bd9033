package sources_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/typedpatch/typedpatch/kube/internal/sources"
)

func TestRead(t *testing.T) {
	if err := sources.Read("../../.."); err != nil {
		t.Fatal(err)
	}
	if err := sources.Read(filepath.Join(t.TempDir(), "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing root: got %v, want a not-exist error", err)
	}
}
