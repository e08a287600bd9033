package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// runInProcess calls run as main does, with stdin as standard input.
func runInProcess(args []string, stdin string) (stdout, stderr string, exit int) {
	var out, errOut bytes.Buffer
	exit = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), exit
}

func TestRunUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in standard error
	}{
		{nil, "Usage: smp COMMAND"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"--type", "Pod"}, `unknown command "--type"`},
		{[]string{"diff", "--type", "Pod", "a"}, "diff takes 2 arguments (ORIGINAL MODIFIED), got 1 argument"},
		{[]string{"apply", "--type", "Pod", "a"}, "apply takes at least 2 arguments (ORIGINAL PATCH...), got 1 argument"},
		{[]string{"three-way", "--type", "Pod"}, "three-way takes 3 arguments"},
		{[]string{"explain", "--type", "Pod", "a", "b"}, "explain takes at most 1 argument (RESOURCE[.PATH]), got 2"},
		{[]string{"explain"}, "explain takes a RESOURCE (a kind, resource or short name such as deploy), or --type T, one of: ConfigMap, "},
		{[]string{"vet", "--type", "Pod", "spec"}, "vet --type takes no arguments, got 1"},
		{[]string{"vet"}, "vet takes a RESOURCE"},
		{[]string{"explain", "deploymentz"}, `"deploymentz" is no kind, resource or short name`},
		{[]string{"explain", "deploy", "--api-version", "apps/v2"}, `Deployment is not served at --api-version "apps/v2"; it is at apps/v1, apps/v1beta1, apps/v1beta2`},
		{[]string{"vet", "deploy.spec"}, `vet takes a RESOURCE without a PATH, got "deploy.spec"`},
		{[]string{"apply", "-p", "{}", "a", "b"}, "apply -p takes 1 argument (ORIGINAL), got 2"},
		{[]string{"diff", "--exit-code=maybe", "a", "b"}, `invalid argument "maybe" for "--exit-code" flag`},
		{[]string{"apply", "--exit-code", "a", "b"}, "unknown flag: --exit-code"},
		{[]string{"diff", "-p", "{}", "a"}, "unknown shorthand flag: 'p' in -p"},
		{[]string{"diff", "--conflicts", "a", "b"}, "unknown flag: --conflicts"},
		{[]string{"diff", "--type", "pod", "a", "b"}, `unknown type "pod"; --type is one of: `},
		{[]string{"explain", "--type", "Nope"}, `unknown type "Nope"`},
		{[]string{"diff", "--type"}, "flag needs an argument: --type"},
		{[]string{"diff", "--nope", "a", "b"}, "unknown flag: --nope"},
		{[]string{"diff", "-x", "a", "b"}, "unknown shorthand flag: 'x' in -x"},
		{[]string{"apply", "--overwrite", "a", "b"}, "unknown flag: --overwrite"},
		{[]string{"explain", "-o", "json"}, "unknown shorthand flag: 'o' in -o"},
		{[]string{"diff", "--type", "Pod", "-o", "xml", "a", "b"}, `invalid argument "xml" for "-o, --output" flag: must be yaml or json`},
		{[]string{"diff", "--type", "Pod", "-oxml", "a", "b"}, `invalid argument "xml" for "-o, --output" flag`},
		{[]string{"diff", "--type", "Pod", "--ordering", "lexical", "a", "b"}, `invalid argument "lexical" for "--ordering" flag`},
		{[]string{"diff", "--type", "Pod", "--directives", "none", "a", "b"}, `invalid argument "none" for "--directives" flag`},
		{[]string{"diff", "--type", "Pod", "--skew-safe=perhaps", "a", "b"}, `invalid argument "perhaps" for "--skew-safe" flag`},
		{[]string{"diff", "--type", "Pod", "-", "-"}, `at most one argument may be "-"`},
		{[]string{"three-way", "--type", "Pod", "-", "x", "-"}, `at most one argument may be "-"`},
		{[]string{"diff", "--type", "Pod", "testdata/none.yaml", "-"}, "cannot read ORIGINAL: open testdata/none.yaml: "},
		{[]string{"apply", "--type", "Pod", "-", "testdata"}, "cannot read PATCH: read testdata: is a directory"},
		{[]string{"explain", "--type", "Pod", "spec..containers"}, `path "spec..containers" has an empty field name`},
		{[]string{"explain", "--type", "Pod", "spec.containers[0"}, "unmatched ["},
		{[]string{"explain", "--type", "Pod", "spec.nope"}, `spec has no field "nope"`},
		{[]string{"help", "nope"}, `unknown command "nope"`},
		{[]string{"help", "diff", "apply"}, "help takes at most one command"},
	} {
		stdout, stderr, exit := runInProcess(tc.args, "")
		if exit != exitUsage {
			t.Errorf("smp %q: exit status %d, want %d; stderr:\n%s", tc.args, exit, exitUsage, stderr)
		}
		if !strings.Contains(stderr, tc.want) {
			t.Errorf("smp %q: stderr\n%s\ndoes not contain %q", tc.args, stderr, tc.want)
		}
		if stdout != "" {
			t.Errorf("smp %q: printed to standard output:\n%s", tc.args, stdout)
		}
	}
}

func TestRunHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // first line of standard output
	}{
		{[]string{"help"}, "Usage: smp COMMAND [FLAGS] ARGUMENTS"},
		{[]string{"-h"}, "Usage: smp COMMAND [FLAGS] ARGUMENTS"},
		{[]string{"--help"}, "Usage: smp COMMAND [FLAGS] ARGUMENTS"},
		{[]string{"help", "diff"}, "Usage: smp diff [FLAGS] ORIGINAL MODIFIED"},
		{[]string{"apply", "-h"}, "Usage: smp apply [FLAGS] ORIGINAL PATCH..."},
		{[]string{"three-way", "--type", "Pod", "--help"}, "Usage: smp three-way [FLAGS] ORIGINAL MODIFIED CURRENT"},
		{[]string{"explain", "--help"}, "Usage: smp explain [FLAGS] RESOURCE[.PATH]"},
		{[]string{"vet", "-h"}, "Usage: smp vet [FLAGS] RESOURCE"},
	} {
		stdout, stderr, exit := runInProcess(tc.args, "")
		if exit != exitOK || stderr != "" {
			t.Errorf("smp %q: exit status %d, stderr %q", tc.args, exit, stderr)
		}
		if first, _, _ := strings.Cut(stdout, "\n"); first != tc.want {
			t.Errorf("smp %q: first line %q, want %q", tc.args, first, tc.want)
		}
	}
}

// TestUsageFits keeps the help within 80 columns and naming every command
// and type.
func TestUsageFits(t *testing.T) {
	texts := []string{usage()}
	for _, c := range commands {
		texts = append(texts, c.usage())
	}
	for _, text := range texts {
		for _, line := range strings.Split(text, "\n") {
			if len(line) > 80 {
				t.Errorf("line longer than 80 columns: %q", line)
			}
		}
	}
	flags := []string{"--schema", "--type", "--output", "--directives", "--merge-unknown", "--ordering",
		"--skew-safe", "--exit-code", "--namespace", "--validate", "--api-version", "--version", "Exit status", "--patch", "--conflicts", "--overwrite", "---", "apiVersion", "missingFrom"}
	for _, name := range append(append(typeNames(), "diff", "apply", "three-way", "explain", "vet", "fn", "version"), flags...) {
		if !strings.Contains(usage(), name) {
			t.Errorf("the usage does not name %s", name)
		}
	}
}

func TestRunStdin(t *testing.T) {
	args := []string{"apply", "--type", "SeedOrderedSet", "-o", "json", "-", "testdata/seed/set-patch.json"}
	stdout, stderr, exit := runInProcess(args, "list: [b, a]\n")
	if exit != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", exit, stderr)
	}
	for _, item := range []string{`"a"`, `"b"`, `"c"`} {
		if !strings.Contains(stdout, item) {
			t.Errorf("the merged set %s lacks %s", stdout, item)
		}
	}
	stdout, stderr, exit = runInProcess(args, "list: [b\n")
	if want := "smp: ORIGINAL (standard input): not a YAML or JSON document: "; exit != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Errorf("invalid YAML on standard input: exit %d, stdout %q, stderr %q; want exit 2 and %q", exit, stdout, stderr, want)
	}
}

func TestParseFlags(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		operands []string
		check    func(*options) bool
	}{
		{[]string{"a", "--type", "Pod", "b"}, []string{"a", "b"}, func(o *options) bool { return o.typeName == "Pod" }},
		{[]string{"a", "b", "--overwrite", "c"}, []string{"a", "b", "c"}, func(o *options) bool { return o.overwrite }},
		{[]string{"a", "--conflicts", "b", "c"}, []string{"a", "b", "c"}, func(o *options) bool { return !o.overwrite }},
		{[]string{"--schema", "x.yaml", "a", "--schema=y.json", "--merge-unknown"}, []string{"a"}, func(o *options) bool {
			return slices.Equal(o.schemaFiles, []string{"x.yaml", "y.json"}) && o.mergeUnknown
		}},
		{[]string{"-", "--type=Pod", "-o", "json", "b"}, []string{"-", "b"}, func(o *options) bool { return o.output == "json" }},
		{[]string{"--type", "Pod", "--", "-o", "--x"}, []string{"-o", "--x"}, func(o *options) bool { return o.output == "yaml" }},
		{[]string{"a", "--", "--type"}, []string{"a", "--type"}, func(o *options) bool { return o.typeName == "" }},
		{[]string{"--ordering", "seed", "--directives", "legacy", "--skew-safe=false"}, nil, func(o *options) bool {
			return o.ordering == smp.SeedOrder && o.directives == smp.DirectivesLegacy && !o.skewSafe
		}},
		{nil, nil, func(o *options) bool {
			return o.output == "yaml" && o.ordering == smp.KubernetesOrder && o.directives == smp.DirectivesRetainKeys && o.skewSafe && o.overwrite
		}},
	} {
		o, operands, err := parseFlags(threeWayCommand, tc.args)
		if err != nil {
			t.Errorf("parseFlags(%q): %v", tc.args, err)
			continue
		}
		if !slices.Equal(operands, tc.operands) || !tc.check(o) {
			t.Errorf("parseFlags(%q) = %+v, %q; want operands %q", tc.args, *o, operands, tc.operands)
		}
	}
}

// node is a recursive type: explain must describe it once and refer back.
type node struct {
	Name     string  `json:"name"`
	Children []node  `json:"children,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Parent   *node   `json:"parent,omitempty"`
	Peer     *peer   `json:"peer,omitempty"`
	Tags     []*node `json:"tags,omitempty"`
}

// peer and node refer to each other.
type peer struct {
	Node  node            `json:"node"`
	Index map[string]node `json:"index,omitempty"`
	Tree  tree            `json:"tree,omitempty"`
}

// tree is a map of itself: a recursion through no struct.
type tree map[string]tree

func TestExplainRecursive(t *testing.T) {
	st, err := reflectschema.For[node]()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	explain(&b, "node", "", st, nil)
	want := `node: struct main.node
  name: scalar string
  children: list of struct main.node [strategy: merge; merge key: name] (see node)
  parent: struct main.node (see node)
  peer: struct main.peer
    node: struct main.node (see node)
    index: map of struct main.node (see node)
    tree: map of main.tree
  tags: list of struct main.node [strategy: replace (default)] (see node)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	if label, at, _, err := resolvePath(st, "peer.tree.a.b"); err != nil || label != "peer.tree.a.b" || at.Go.Name() != "tree" {
		t.Errorf(`resolvePath(node, "peer.tree.a.b") = %q, %v, %v`, label, at, err)
	}
	label, at, meta, err := resolvePath(st, "peer.index.x.children[name=a].peer")
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	explain(&b, label, label, at, meta)
	want = `peer.index.x.children.peer: struct main.peer
  node: struct main.node
    name: scalar string
    children: list of struct main.node [strategy: merge; merge key: name] (see peer.index.x.children.peer.node)
    parent: struct main.node (see peer.index.x.children.peer.node)
    peer: struct main.peer (see peer.index.x.children.peer)
    tags: list of struct main.node [strategy: replace (default)] (see peer.index.x.children.peer.node)
  index: map of struct main.node (see peer.index.x.children.peer.node)
  tree: map of main.tree
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestSplitPath(t *testing.T) {
	for path, want := range map[string][]string{
		"spec":                                  {"spec"},
		"spec.containers[name=web].ports":       {"spec", "containers", "ports"},
		"spec.containers[name=a.b].env[0].name": {"spec", "containers", "env", "name"},
		"ports[containerPort=80,protocol=UDP]":  {"ports"},
	} {
		got, err := splitPath(path)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("splitPath(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	for _, path := range []string{".spec", "spec.", "a..b", "a[", "a]", "[x]"} {
		if got, err := splitPath(path); err == nil {
			t.Errorf("splitPath(%q) = %q, want an error", path, got)
		}
	}
}

func TestCountDocuments(t *testing.T) {
	for text, want := range map[string]int{
		"":                                0,
		"# only a comment\n":              0,
		"a: 1\n":                          1,
		"---\na: 1\n":                     1,
		"%YAML 1.2\n---\na: 1\n...\n":     1,
		"a: 1\n---\n":                     1,
		"a: 1\n---\n# nothing\n---\nb: 2": 2,
		"a: 1\n--- {b: 2}\n":              2,
		"a: |\n  ---\n  text\n":           1,
		"a: 1\n----\nb\n":                 1,
		"{\"a\": \"---\"}":                1,
	} {
		if got := countDocuments([]byte(text)); got != want {
			t.Errorf("countDocuments(%q) = %d, want %d", text, got, want)
		}
	}
}
