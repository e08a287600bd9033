package engine

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// checkJSONScalar checks a scalar against a schema without a Go type (one
// read from OpenAPI): its JSON type, and the range its format sets.
func checkJSONScalar(v any, t *reflectschema.Type, at *pathNode) error {
	mismatch := func(want string) error {
		return newError(errpath.ErrTypeMismatch, at, "expected %s for %s, found %s", want, t, jsonval.KindOf(v).WithArticle())
	}
	switch t.JSONType {
	case reflectschema.JSONString:
		str, ok := v.(string)
		if !ok {
			return mismatch("a string")
		}
		if t.Format == "byte" {
			if _, err := base64.StdEncoding.DecodeString(str); err != nil {
				return newError(errpath.ErrInvalidValue, at, "%q is not base64: %v", str, err)
			}
		}
	case reflectschema.JSONBoolean:
		if _, ok := v.(bool); !ok {
			return mismatch("a boolean")
		}
	case reflectschema.JSONInteger:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch("an integer")
		}
		bits := 64
		if t.Format == "int32" {
			bits = 32
		}
		if _, err := strconv.ParseInt(string(n), 10, bits); err != nil {
			return newError(errpath.ErrInvalidValue, at, "%s does not fit %s", n, t)
		}
	case reflectschema.JSONNumber:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch("a number")
		}
		bits := 64
		if t.Format == "float" {
			bits = 32
		}
		f, err := strconv.ParseFloat(string(n), bits)
		if err != nil || math.IsInf(f, 0) {
			return newError(errpath.ErrInvalidValue, at, "%s does not fit %s", n, t)
		}
	default:
		switch v.(type) {
		case map[string]any, []any:
			return mismatch("a scalar")
		}
	}
	return nil
}
