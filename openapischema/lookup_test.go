package openapischema_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/openapischema"
)

// A kind the schemas do not define is an error wrapping ErrUnknownKind
// that names the kinds nearest to the one asked for, never a nil schema.
func TestLookupUnknown(t *testing.T) {
	s := load(t, "openapi-v2.json") // apps/v1 Deployment only
	for _, c := range []struct{ apiVersion, kind, want string }{
		{"apps/v1", "deployment", `openapischema: apiVersion "apps/v1" kind "deployment": unknown kind; known: apps/v1 Deployment`},
		{"apps/v2", "Deployment", `openapischema: apiVersion "apps/v2" kind "Deployment": unknown kind; known: apps/v1 Deployment`},
		{"apps/v1", "StatefulSet", `openapischema: apiVersion "apps/v1" kind "StatefulSet": unknown kind; that apiVersion holds Deployment`},
		{"v1", "Pod", `openapischema: apiVersion "v1" kind "Pod": unknown kind; no kind in that apiVersion; the schemas define 1 kind in 1 apiVersion`},
		{"v1", "Pod\x1b[2J", `openapischema: apiVersion "v1" kind "Pod\x1b[2J": unknown kind; no kind in that apiVersion; the schemas define 1 kind in 1 apiVersion`},
	} {
		st, err := s.Lookup(c.apiVersion, c.kind)
		assert.Nil(t, st, c.kind)
		assert.True(t, errors.Is(err, openapischema.ErrUnknownKind), "%q: %v", c.kind, err)
		assert.EqualError(t, err, c.want)
	}
}

// A document of definitions alone defines no kind; Lookup says where its
// schemas are found instead.
func TestLookupNoKinds(t *testing.T) {
	s, err := openapischema.Read([]byte(`{"openapi": "3.0.0", "components": {"schemas": {"Widget": {"type": "object"}}}}`))
	require.NoError(t, err)
	_, err = s.Lookup("example.com/v1", "Widget")
	assert.EqualError(t, err, `openapischema: apiVersion "example.com/v1" kind "Widget": unknown kind; the schemas define no kind (see Definition)`)
	assert.NotNil(t, s.Definition("Widget"))
}

// The error names a few kinds and how many there are, however many the
// document defines.
func TestLookupUnknownBounded(t *testing.T) {
	var stream []string
	for _, k := range []string{"Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"} {
		stream = append(stream, strings.ReplaceAll(crd("a", " {type: string}"), "Widget", k))
	}
	s, err := openapischema.Read([]byte(strings.Join(stream, "---\n")))
	require.NoError(t, err)
	_, err = s.Lookup("example.com/v1", "Omega")
	assert.EqualError(t, err, `openapischema: apiVersion "example.com/v1" kind "Omega": unknown kind; that apiVersion holds Alpha, Beta, Delta, Epsilon, … (6 in all)`)
}
