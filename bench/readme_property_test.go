package bench

import (
	"os"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/typedpatch/typedpatch/property"
)

// TestDeploymentPatches is README's example of the property suite ("Property
// tests on your own types"), as it stands there.
func TestDeploymentPatches(t *testing.T) {
	property.Check[appsv1.Deployment](t) // 1,000 cases per property; -rapid.checks=N for more
}

// TestReadmePropertyExample checks that README's example of the property
// suite is TestDeploymentPatches, word for word, so that what it shows runs.
func TestReadmePropertyExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("readme_property_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fn := regexp.MustCompile("(?s)```go\\n.*?(func TestDeploymentPatches\\(.*?\\n}\\n)```").FindSubmatch(readme)
	if fn == nil {
		t.Fatal("README.md shows no func TestDeploymentPatches in a go block")
	}
	if !strings.Contains(string(src), string(fn[1])) {
		t.Errorf("README.md's example is not TestDeploymentPatches of readme_property_test.go:\n%s", fn[1])
	}
}
