package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readme returns the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// fencedBlocks returns the fenced code blocks of a Markdown text that
// follow the heading (the whole text if heading is ""), up to the next
// heading of any level; each block with its info string.
func fencedBlocks(text, heading string) (blocks [][]string, infos []string) {
	in, block := heading == "", false
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		switch {
		case block && line == "```":
			block = false
		case block:
			blocks[len(blocks)-1] = append(blocks[len(blocks)-1], line)
		case strings.HasPrefix(line, "#"):
			in = heading == "" || line == heading
		case in && strings.HasPrefix(line, "```"):
			block = true
			blocks = append(blocks, nil)
			infos = append(infos, strings.TrimPrefix(line, "```"))
		}
	}
	return blocks, infos
}

// setupCommands returns the commands of the README's Set-up section: the
// lines of its one code block.
func setupCommands(t *testing.T) []string {
	t.Helper()
	blocks, _ := fencedBlocks(readme(t), "## Set-up")
	if len(blocks) != 1 {
		t.Fatalf("the Set-up section has %d code blocks, want 1", len(blocks))
	}
	var cmds []string
	for _, line := range blocks[0] {
		if line = strings.TrimSpace(line); line != "" {
			cmds = append(cmds, line)
		}
	}
	if len(cmds) != 2 {
		t.Fatalf("the Set-up section has %d commands, want 2: %q", len(cmds), cmds)
	}
	return cmds
}

// TestReadmeSetup checks that the README's first Set-up command is the one
// the golden case readmeCase runs, and that .ci/run runs both verbatim.
func TestReadmeSetup(t *testing.T) {
	cmds := setupCommands(t)
	const goRun = "go run ./cmd/smp "
	args, ok := strings.CutPrefix(cmds[0], goRun)
	if !ok {
		t.Fatalf("the first Set-up command %q does not start with %q", cmds[0], goRun)
	}
	var golden *cliCase
	for i := range cliCases {
		if cliCases[i].name == readmeCase {
			golden = &cliCases[i]
		}
	}
	if golden == nil {
		t.Fatalf("no golden case is named %s", readmeCase)
	}
	if !slices.Equal(strings.Fields(args), strings.Fields(golden.args)) || golden.exit != 0 || golden.stdin != "" {
		t.Errorf("the first Set-up command runs smp %s; the golden case %s runs smp %s", args, readmeCase, golden.args)
	}
	if want := "go test ./... && (cd bench && go test ./...) && (cd kube && go test ./...) && (cd ctrlpatch && go test ./...) && (cd e2e && go test -timeout 30m ./...)"; cmds[1] != want {
		t.Errorf("the second Set-up command is %q, want %q", cmds[1], want)
	}
	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(ci), "\n")
	if !slices.Contains(lines, cmds[1]) {
		t.Errorf(".ci/run has no line %q", cmds[1])
	}
	if !strings.Contains(string(ci), cmds[0]) {
		t.Errorf(".ci/run does not run %q", cmds[0])
	}
}

// TestReadmeConsole checks the README's console sessions: each "$ smp"
// command is a golden case, and the lines printed after it are lines of
// that case's output, in order; a line "..." stands for lines left out.
func TestReadmeConsole(t *testing.T) {
	blocks, infos := fencedBlocks(readme(t), "")
	byArgs := map[string]cliCase{}
	for _, c := range cliCases {
		byArgs[strings.Join(strings.Fields(c.args), " ")] = c
	}
	n := 0
	for i, block := range blocks {
		if infos[i] != "console" {
			continue
		}
		for j := 0; j < len(block); j++ {
			args, ok := strings.CutPrefix(block[j], "$ smp ")
			if !ok {
				continue
			}
			end := j + 1
			for end < len(block) && !strings.HasPrefix(block[end], "$ ") {
				end++
			}
			shown := block[j+1 : end]
			j = end - 1
			n++
			c, ok := byArgs[strings.Join(strings.Fields(args), " ")]
			if !ok {
				t.Errorf("README runs smp %s, which no golden case runs", args)
				continue
			}
			stdout, stderr, _ := runBinary(t, c)
			if missing := notInOrder(shown, strings.Split(stdout+stderr, "\n")); missing != "" {
				t.Errorf("README shows smp %s printing %q, which its output has not (in that place):\n%s%s", args, missing, stdout, stderr)
			}
		}
	}
	if n < 3 {
		t.Errorf("found %d smp commands in the README's console blocks", n)
	}
}

// notInOrder returns the first of shown's lines (other than "...") that
// does not follow the previous ones in out, or "". Without a "..." before
// it, a line must come straight after the previous one.
func notInOrder(shown, out []string) string {
	at, skip := 0, false
	for _, line := range shown {
		if line == "..." {
			skip = true
			continue
		}
		for skip && at < len(out) && out[at] != line {
			at++
		}
		if at >= len(out) || out[at] != line {
			return line
		}
		at++
		skip = false
	}
	return ""
}
