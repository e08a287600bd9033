// Package sources lets a test that runs the go command on this
// repository's code tell go test's cache about that code.
package sources

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Read reads every Go source and module file under root, outside bench/,
// testdata/ and hidden directories. A test whose go commands build the
// engine reads them itself first, so that go test's cache, which sees
// only what the test process opens, runs it again when they change.
func Read(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "bench" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum" {
			_, err = os.ReadFile(path)
		}
		return err
	})
}
