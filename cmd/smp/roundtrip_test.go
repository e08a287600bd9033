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

	"github.com/typedpatch/typedpatch/smp"
)

// TestDiffPatchesApply checks every patch the diff cases print: applied to
// ORIGINAL with the same options and schema, it gives MODIFIED. The patches
// of several objects are taken in order from the -o json list.
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
			for i, op := range operands {
				if op == stdinName {
					operands[i] = c.stdin
				}
			}
			groups, sc := testGroups(t, o, []string{"ORIGINAL", "MODIFIED"}, operands)
			stdout, _, _ := runBinary(t, cliCase{args: strings.Join(append(args, "-o", "json"), " "), stdin: c.stdin})
			patches := printedPatches(t, stdout, len(groups))
			for i, g := range groups {
				if g.objs[0] == nil || g.objs[1] == nil {
					continue
				}
				ds, _, err := sc.forGroup(g)
				if err != nil {
					t.Fatal(err)
				}
				got, err := smp.ApplyJSON(g.objs[0].json, patches[i], ds, append(o.smpOptions(), smp.WithMergeUnknown(o.mergeUnknown))...)
				if err != nil {
					t.Fatalf("applying the printed patch: %v", err)
				}
				want, have := decodeJSON(t, g.objs[1].json), decodeJSON(t, got)
				if o.directives < smp.DirectivesSetElementOrder {
					// Without $setElementOrder a patch cannot say where its
					// new list items go: Kubernetes puts them first.
					want, have = sortLists(want), sortLists(have)
				}
				if diff := cmp.Diff(want, have); diff != "" {
					t.Errorf("%s: ORIGINAL with the printed patch applied is not MODIFIED (-modified +got):\n%s", g.id, diff)
				}
			}
		})
	}
	if n < 15 {
		t.Fatalf("only %d diff cases", n)
	}
}

// testGroups reads and pairs a case's files as the command does.
func testGroups(t *testing.T, o *options, roles, operands []string) ([]*group, *schemas) {
	t.Helper()
	sc, err := loadSchemasAt(o)
	if err != nil {
		t.Fatal(err)
	}
	sides := make([][]object, len(operands))
	for i, name := range operands {
		data, err := os.ReadFile(filepath.Join(repoRoot, name))
		if err != nil {
			t.Fatal(err)
		}
		if sides[i], err = parseDocuments(roles[i], name, data); err != nil {
			t.Fatal(err)
		}
	}
	groups, err := pairObjects(roles, sides)
	if err != nil {
		t.Fatal(err)
	}
	return groups, sc
}

// loadSchemasAt is loadSchemas with the --schema files relative to the
// repository root.
func loadSchemasAt(o *options) (*schemas, error) {
	c := *o
	c.schemaFiles = nil
	for _, f := range o.schemaFiles {
		c.schemaFiles = append(c.schemaFiles, filepath.Join(repoRoot, f))
	}
	return loadSchemas(&c)
}

// printedPatches splits the -o json output of n objects: one document, or
// a list of entries whose "patch" is absent for an object on one side only.
func printedPatches(t *testing.T, stdout string, n int) [][]byte {
	t.Helper()
	if n == 1 {
		return [][]byte{[]byte(stdout)}
	}
	var entries []struct {
		Patch json.RawMessage `json:"patch"`
	}
	if err := json.Unmarshal([]byte(stdout), &entries); err != nil || len(entries) != n {
		t.Fatalf("the output is not a list of %d entries (%v):\n%s", n, err, stdout)
	}
	out := make([][]byte, n)
	for i, e := range entries {
		out[i] = e.Patch
	}
	return out
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
