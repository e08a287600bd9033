package smp_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// docExample matches an example of docs/format.md: a marker comment
// naming it, its type and operation, and the directives it is written
// with when they are not the default's, then a YAML block.
var docExample = regexp.MustCompile("(?s)<!-- example: (\\S+) type=(\\S+) op=(\\S+)(?: directives=(\\S+))? -->\\s*```yaml\\n(.*?)```")

type docCase struct {
	Original map[string]any `json:"original"`
	Patch    map[string]any `json:"patch"`
	Modified map[string]any `json:"modified"`
	Result   map[string]any `json:"result"`
}

// TestFormatExamples runs every example in docs/format.md.
func TestFormatExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/format.md")
	require.NoError(t, err)
	matches := docExample.FindAllStringSubmatch(string(data), -1)
	require.GreaterOrEqual(t, len(matches), 14, "examples found")
	require.Equal(t, strings.Count(string(data), "<!-- example:"), len(matches), "every marker has a YAML block")
	for _, m := range matches {
		name, typ, op, directives, body := m[1], m[2], m[3], m[4], m[5]
		t.Run(name, func(t *testing.T) {
			var opts []smp.Option
			if directives != "" {
				d, ok := smp.ParseDirectiveSet(directives)
				require.True(t, ok, directives)
				opts = append(opts, smp.WithDirectives(d))
			}
			js, err := yaml.YAMLToJSON([]byte(body))
			require.NoError(t, err)
			dec := json.NewDecoder(strings.NewReader(string(js)))
			dec.UseNumber()
			dec.DisallowUnknownFields()
			var c docCase
			require.NoError(t, dec.Decode(&c))
			schema, ok := exampletypes.Lookup(typ)
			require.True(t, ok, typ)
			switch op {
			case "apply":
				out, err := smp.ApplyJSON(mustMarshal(c.Original), mustMarshal(c.Patch), schema, opts...)
				require.NoError(t, err)
				if d := cmp.Diff(normalize(c.Result), normalize(decodeMap(out))); d != "" {
					t.Fatalf("result (-doc +got):\n%s", d)
				}
			case "diff":
				out, err := smp.DiffJSON(mustMarshal(c.Original), mustMarshal(c.Modified), schema, opts...)
				require.NoError(t, err)
				if d := cmp.Diff(normalize(c.Patch), normalize(decodeMap(out))); d != "" {
					t.Fatalf("patch (-doc +got):\n%s", d)
				}
				res, err := smp.ApplyJSON(mustMarshal(c.Original), out, schema, opts...)
				require.NoError(t, err)
				if d := cmp.Diff(normalize(c.Modified), normalize(decodeMap(res))); d != "" {
					t.Fatalf("applying the patch does not give modified (-modified +got):\n%s", d)
				}
			default:
				t.Fatalf("unknown op %q", op)
			}
		})
	}
}
