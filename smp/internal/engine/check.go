package engine

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"strconv"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// checkType reports a patch value whose JSON type or range does not fit
// the Go field it is for: a typed client could not decode the result.
// WithTypeChecks(false) turns it off, for Kubernetes' leniency.
func (a *Applier) checkType(v any, s slot, at *pathNode) error {
	if v == nil || s.Type == nil || a.Cfg.NoTypeChecks {
		return nil
	}
	want := ""
	switch s.Type.Kind {
	case reflectschema.Struct, reflectschema.Map:
		if _, ok := v.(map[string]any); !ok {
			want = "an object"
		}
	case reflectschema.List:
		if _, ok := v.([]any); !ok {
			want = "an array"
		}
	case reflectschema.Scalar:
		return checkScalar(v, s, at)
	}
	if want != "" {
		return newError(errpath.ErrTypeMismatch, at, "expected %s for %s, found %s", want, s.Type, jsonval.KindOf(v).WithArticle())
	}
	return nil
}

// checkScalar checks a scalar against its Go kind, including integer range
// and the json ",string" option.
func checkScalar(v any, s slot, at *pathNode) error {
	if s.Type.Go == nil {
		return checkJSONScalar(v, s.Type, at)
	}
	gk := s.Type.Go.Kind()
	if s.Quoted && gk != reflect.String {
		str, ok := v.(string)
		if !ok {
			return newError(errpath.ErrTypeMismatch, at, "expected a quoted %s for %s, found %s", gk, s.Type, jsonval.KindOf(v).WithArticle())
		}
		if gk == reflect.Bool {
			if str != "true" && str != "false" {
				return newError(errpath.ErrInvalidValue, at, "%q is not a quoted boolean", str)
			}
			return nil
		}
		v = json.Number(str)
	}
	if s.Type.Go == jsonNumberType {
		// json.Number is a string type that encodes as a number.
		if _, ok := v.(json.Number); !ok {
			return newError(errpath.ErrTypeMismatch, at, "expected a number for %s, found %s", s.Type, jsonval.KindOf(v).WithArticle())
		}
		return nil
	}
	mismatch := func(want string) error {
		return newError(errpath.ErrTypeMismatch, at, "expected %s for %s, found %s", want, s.Type, jsonval.KindOf(v).WithArticle())
	}
	switch gk {
	case reflect.String:
		if _, ok := v.(string); !ok {
			return mismatch("a string")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return mismatch("a boolean")
		}
	case reflect.Slice: // []byte
		str, ok := v.(string)
		if !ok {
			return mismatch("a base64 string")
		}
		if _, err := base64.StdEncoding.DecodeString(str); err != nil {
			return newError(errpath.ErrInvalidValue, at, "%q is not base64: %v", str, err)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch("an integer")
		}
		i, err := strconv.ParseInt(string(n), 10, s.Type.Go.Bits())
		if err != nil {
			return newError(errpath.ErrInvalidValue, at, "%s does not fit %s", n, s.Type)
		}
		_ = i
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch("an unsigned integer")
		}
		if _, err := strconv.ParseUint(string(n), 10, s.Type.Go.Bits()); err != nil {
			return newError(errpath.ErrInvalidValue, at, "%s does not fit %s", n, s.Type)
		}
	case reflect.Float32, reflect.Float64:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch("a number")
		}
		f, err := strconv.ParseFloat(string(n), s.Type.Go.Bits())
		if err != nil || math.IsInf(f, 0) {
			return newError(errpath.ErrInvalidValue, at, "%s does not fit %s", n, s.Type)
		}
	}
	return nil
}

var jsonNumberType = reflect.TypeFor[json.Number]()
