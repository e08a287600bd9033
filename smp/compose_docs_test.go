package smp_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

var composeExample = regexp.MustCompile("(?s)<!-- compose: (\\S+) type=(\\S+) -->\\s*```yaml\\n(.*?)```")

type composeDocCase struct {
	Documents []map[string]any `json:"documents"`
	Patches   []map[string]any `json:"patches"`
	Composed  map[string]any   `json:"composed"`
	Error     string           `json:"error"`
}

// TestComposeDocs runs the examples of docs/format.md's "Composing
// patches": the patches compose into exactly the patch shown (or fail
// with the error shown), which on each document gives what the patches
// give in turn.
func TestComposeDocs(t *testing.T) {
	data, err := os.ReadFile("../docs/format.md")
	require.NoError(t, err)
	matches := composeExample.FindAllStringSubmatch(string(data), -1)
	require.Len(t, matches, strings.Count(string(data), "<!-- compose:"), "every marker has a YAML block")
	require.NotEmpty(t, matches)
	for _, m := range matches {
		name, typ, body := m[1], m[2], m[3]
		t.Run(name, func(t *testing.T) {
			js, err := yaml.YAMLToJSON([]byte(body))
			require.NoError(t, err)
			dec := json.NewDecoder(strings.NewReader(string(js)))
			dec.DisallowUnknownFields()
			var c composeDocCase
			require.NoError(t, dec.Decode(&c))
			schema, ok := exampletypes.Lookup(typ)
			require.True(t, ok, typ)
			raw := make([][]byte, len(c.Patches))
			for i, p := range c.Patches {
				raw[i] = []byte(jsonText(t, p))
			}
			got, err := smp.ComposeJSON(schema, raw...)
			if c.Error != "" {
				require.Error(t, err)
				assert.Equal(t, c.Error, err.Error())
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, jsonText(t, c.Composed), string(got))
			docs := make([]string, len(c.Documents))
			for i, d := range c.Documents {
				docs[i] = jsonText(t, d)
			}
			patches := make([]string, len(raw))
			for i, p := range raw {
				patches[i] = string(p)
			}
			composeSame(t, schema, docs, patches...)
		})
	}
}
