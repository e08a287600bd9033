package smp_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

var (
	errorSection  = regexp.MustCompile("(?s)\n## (\\w+)\n(.*?)(?:\n## |$)")
	errorExample  = regexp.MustCompile("(?s)<!-- error: (\\w+) -->\\s*```json\\n(.*?)\\n```\\s*> `([^`]*)`")
	originalBlock = regexp.MustCompile("(?s)<!-- original -->\\s*```json\\n(.*?)\\n```")
)

// TestErrorsDoc checks docs/errors.md against the code: a section per
// kind, in Kinds' order, and each example fails with its kind and exactly
// the message shown.
func TestErrorsDoc(t *testing.T) {
	data, err := os.ReadFile("../docs/errors.md")
	require.NoError(t, err)
	doc := string(data)
	original := originalBlock.FindStringSubmatch(doc)
	require.NotNil(t, original)
	var kinds []smp.ErrorKind
	for i := 0; ; {
		m := errorSection.FindStringSubmatchIndex(doc[i:])
		if m == nil {
			break
		}
		kind := smp.ErrorKind(doc[i+m[2] : i+m[3]])
		body := doc[i+m[4] : i+m[5]]
		kinds = append(kinds, kind)
		t.Run(string(kind), func(t *testing.T) {
			ex := errorExample.FindStringSubmatch(body)
			require.NotNil(t, ex, "section has an example")
			op, input, want := ex[1], ex[2], ex[3]
			err := runErrorExample(op, original[1], input)
			require.Error(t, err)
			assert.Equal(t, kind, smp.KindOf(err))
			assert.Equal(t, want, err.Error())
		})
		i += m[3]
	}
	assert.Equal(t, smp.Kinds(), kinds, "one section per kind, in order")
}

func runErrorExample(op, original, input string) error {
	pod := &exampletypes.Pod{}
	var err error
	switch op {
	case "apply":
		_, err = smp.ApplyJSON([]byte(original), []byte(input), pod)
	case "schema":
		_, err = smp.ApplyJSON([]byte(original), []byte(input), 42)
	case "unknown":
		_, err = smp.ApplyJSON([]byte(`{"spec":{"extra":{"ports":[{"port":80}]}}}`), []byte(input), pod)
	case "depth1":
		_, err = smp.ApplyJSON([]byte(`{}`), []byte(input), pod, smp.WithLimits(smp.Limits{MaxDepth: 1}))
	case "threeway":
		_, err = smp.ThreeWayJSON([]byte(`{"spec":{"nodeName":"a"}}`), []byte(input), []byte(`{"spec":{"nodeName":"c"}}`), pod, smp.WithOverwrite(false))
	case "precondition":
		_, err = smp.DiffJSON([]byte(`{"kind":"A"}`), []byte(input), pod, smp.WithPreconditions(smp.RequireKeyUnchanged("kind")))
	case "compose":
		_, err = smp.ComposeJSON(pod, []byte(`{"metadata":{"finalizers":null}}`), []byte(input))
	default:
		return &smp.Error{Msg: "unknown op " + strings.TrimSpace(op)}
	}
	return err
}
