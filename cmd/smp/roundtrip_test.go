package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/smp"
)

// TestDiffPatchesApply checks every patch the diff cases print: applied to
// ORIGINAL with the same options, it gives MODIFIED.
func TestDiffPatchesApply(t *testing.T) {
	n := 0
	for _, c := range cliCases {
		args := strings.Fields(c.args)
		if len(args) == 0 || args[0] != diffCommand.name || c.exit != 0 {
			continue
		}
		n++
		t.Run(c.name, func(t *testing.T) {
			o, operands, err := parseFlags(diffCommand, args[1:])
			if err != nil {
				t.Fatal(err)
			}
			ds, err := o.dataStruct()
			if err != nil {
				t.Fatal(err)
			}
			for i, op := range operands {
				if op == stdinName {
					operands[i] = c.stdin
				}
			}
			original, modified := readTestJSON(t, operands[0]), readTestJSON(t, operands[1])
			stdout, _, _ := runBinary(t, c)
			patch, err := yaml.YAMLToJSON([]byte(stdout))
			if err != nil {
				t.Fatalf("the printed patch does not parse: %v", err)
			}
			got, err := smp.ApplyJSON(original, patch, ds, o.smpOptions()...)
			if err != nil {
				t.Fatalf("applying the printed patch: %v", err)
			}
			want, have := decodeJSON(t, modified), decodeJSON(t, got)
			if o.directives < smp.DirectivesSetElementOrder {
				// Without $setElementOrder a patch cannot say where its
				// new list items go: Kubernetes puts them first.
				want, have = sortLists(want), sortLists(have)
			}
			if diff := cmp.Diff(want, have); diff != "" {
				t.Errorf("ORIGINAL with the printed patch applied is not MODIFIED (-modified +got):\n%s", diff)
			}
		})
	}
	if n < 3 {
		t.Fatalf("only %d diff cases", n)
	}
}

// sortLists returns v with every list sorted by the JSON text of its items.
func sortLists(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = sortLists(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = sortLists(e)
		}
		slices.SortFunc(out, func(a, b any) int {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			return bytes.Compare(ja, jb)
		})
		return out
	}
	return v
}

// readTestJSON reads a test file, relative to the repository root, as JSON.
func readTestJSON(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// decodeJSON decodes a document for comparison, keeping numbers as text.
func decodeJSON(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
