package bench

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestDocsCommands runs every shell command docs/benchmarks.md gives, so
// that none rots. Measurement sizes are cut down (one run, one iteration
// each: -benchtime 1x, -count 1), and the files they write under /tmp go
// to a temporary directory; the commands, pipelines and tools are the
// documented ones. It takes a minute or two, so it runs only when
// DOCS_COMMANDS is set, as .ci/run does.
func TestDocsCommands(t *testing.T) {
	if os.Getenv("DOCS_COMMANDS") == "" {
		t.Skip("set DOCS_COMMANDS=1 to run the documented commands (.ci/run does)")
	}
	doc, err := os.ReadFile("../docs/benchmarks.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sh\\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	inline := regexp.MustCompile("`(go test -run XXX -bench[^`]*)`").FindAllStringSubmatch(string(doc), -1)
	var scripts []string
	for _, b := range blocks {
		scripts = append(scripts, b[1])
	}
	for _, c := range inline {
		scripts = append(scripts, "cd bench\n"+c[1]+"\n")
	}
	if len(scripts) < 4 {
		t.Fatalf("found %d commands in docs/benchmarks.md, expected at least 4", len(scripts))
	}
	small := strings.NewReplacer("-benchtime 0.3s", "-benchtime 1x", "-test.benchtime 0.3s", "-test.benchtime 1x",
		"-count 3", "-count 1", "-count 5", "-count 1", "for i in 1 2 3 4 5 6 7;", "for i in 1;",
		"-passes 7", "-passes 1 -benchtime 1x")
	// The commands share no file, so they run two at a time: most of
	// their time is single-threaded Kubernetes at N = 10000.
	for i, s := range scripts {
		t.Run(fmt.Sprintf("command%d", i+1), func(t *testing.T) {
			t.Parallel()
			// Their files go to a directory of the test's own, not over
			// what a reader's run of the same commands left in /tmp.
			script := "set -euo pipefail\n" + strings.ReplaceAll(small.Replace(s), "/tmp/", t.TempDir()+"/")
			cmd := exec.Command("bash", "-c", script)
			cmd.Dir = ".." // the commands start from the repository root
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("command %d of docs/benchmarks.md failed: %v\n%s\n%s", i+1, err, script, out)
			}
			if strings.Contains(s, "benchtable") && !strings.Contains(string(out), "| benchmark |") {
				t.Errorf("command %d printed no table:\n%s", i+1, out)
			}
			if strings.Contains(s, "benchfloor") && !strings.Contains(string(out), "targets met") {
				t.Errorf("command %d printed no targets:\n%s", i+1, out)
			}
		})
	}
}
