package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	rs "github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// Values of --validate.
const (
	validateStrict = "strict" // an unknown field is an error
	validateWarn   = "warn"   // an unknown field is a warning
	validateIgnore = "ignore" // an unknown field is accepted
)

// step is one level of the place of a value in a document: the Step a
// message prints, and the key or index that finds it in the YAML text.
type step struct {
	step  smp.Step
	key   string // an object's key, if index < 0
	index int    // a list's position, or -1
}

// finding is a field a schema does not declare, or a scalar of the wrong
// JSON type.
type finding struct {
	at      []step
	unknown bool   // an undeclared field
	key     bool   // a map's key "true" or "false", maybe written otherwise
	want    string // else a scalar of the wrong type: the JSON type the schema asks for
	got     any    // and the value found
}

// path returns where the finding is, as engine errors print paths.
func (f finding) path() smp.Path {
	p := make(smp.Path, len(f.at))
	for i, s := range f.at {
		p[i] = s.step
	}
	return p
}

// maxFindings bounds the findings of one document.
const maxFindings = 20

// checker walks a document against its schema and collects findings.
type checker struct {
	found []finding
	at    []step
}

// check returns the fields of doc that t does not declare and the
// scalars whose JSON type is not the one t says. Keys starting with "$"
// are a patch's directives.
func check(doc []byte, t *rs.Type) ([]finding, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	c := &checker{}
	c.walk(v, t, nil)
	return c.found, nil
}

func (c *checker) add(f finding) {
	if len(c.found) < maxFindings {
		f.at = append([]step(nil), c.at...)
		c.found = append(c.found, f)
	}
}

func (c *checker) push(s step) { c.at = append(c.at, s) }
func (c *checker) pop()        { c.at = c.at[:len(c.at)-1] }

// walk checks v against t; meta is the patch metadata of the field
// holding v, for the keys of list elements.
func (c *checker) walk(v any, t *rs.Type, meta *rs.PatchMeta) {
	if t == nil || v == nil || len(c.found) >= maxFindings {
		return
	}
	switch t.Kind {
	case rs.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return // the engine reports a value of the wrong type
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if strings.HasPrefix(k, "$") {
				continue
			}
			c.push(step{step: smp.FieldStep(k), key: k, index: -1})
			if name, ok := t.FieldName([]byte(k)); ok {
				f := t.Field(name)
				c.walk(obj[k], f.Type, &f.Patch)
			} else if !t.PreserveUnknown {
				c.add(finding{unknown: true})
			}
			c.pop()
		}
	case rs.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if strings.HasPrefix(k, "$") {
				continue
			}
			c.push(step{step: smp.FieldStep(k), key: k, index: -1})
			if k == "true" || k == "false" {
				c.add(finding{key: true}) // if YAML 1.1 read on or yes so
			}
			c.walk(obj[k], t.Elem, nil)
			c.pop()
		}
	case rs.List:
		list, ok := v.([]any)
		if !ok {
			return
		}
		for i, e := range list {
			c.push(step{step: elementStep(e, i, meta), index: i})
			c.walk(e, t.Elem, nil)
			c.pop()
		}
	case rs.Scalar:
		// YAML 1.1 reads unquoted y, no, on, 1.0 as booleans and numbers;
		// other mismatches are the engine's to report.
		if got := jsonType(v); scalarType(t) == rs.JSONString && got != rs.JSONString && got != "object" && got != "array" {
			c.add(finding{want: rs.JSONString, got: v})
		}
	}
}

// elementStep names a list element by its merge key, else by position.
func elementStep(e any, i int, meta *rs.PatchMeta) smp.Step {
	obj, ok := e.(map[string]any)
	if !ok || meta == nil || len(meta.MergeKey) == 0 {
		return smp.IndexStep(i)
	}
	var key smp.KeyStep
	for _, k := range meta.MergeKey {
		val := "<absent>"
		switch x := obj[k].(type) {
		case string:
			val = x
		case nil:
		default:
			b, _ := json.Marshal(x)
			val = string(b)
		}
		key = append(key, smp.KeyField{Name: k, Value: val})
	}
	return key
}

// scalarType returns the JSON type a scalar schema asks for, or "" for
// any.
func scalarType(t *rs.Type) string {
	if t.Go == nil {
		return t.JSONType
	}
	switch t.Go.Kind() {
	case reflect.String:
		return rs.JSONString
	case reflect.Bool:
		return rs.JSONBoolean
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return rs.JSONInteger
	case reflect.Float32, reflect.Float64:
		return rs.JSONNumber
	}
	return ""
}

// jsonType returns the JSON type of a decoded scalar.
func jsonType(v any) string {
	switch x := v.(type) {
	case string:
		return rs.JSONString
	case bool:
		return rs.JSONBoolean
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return rs.JSONNumber
		}
		return rs.JSONInteger
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return ""
}

// describeFinding says what is wrong, with the text the document has
// where it is YAML.
func describeFinding(f finding, text string, schema string) string {
	if f.unknown {
		return fmt.Sprintf("%s: unknown field: %s does not declare it", f.path(), schema)
	}
	if f.key {
		return fmt.Sprintf("%s: the key %s is read as the boolean %s (YAML 1.1 reads it so), but keys are strings: write it quoted", f.path(), quote(text), f.at[len(f.at)-1].key)
	}
	js, _ := json.Marshal(f.got)
	if text == "" {
		text = string(js)
	}
	msg := fmt.Sprintf("%s: %s is read as %s, but the schema of %s says string; write it quoted", f.path(), quote(text), article(jsonType(f.got)), schema)
	if text != string(js) {
		msg += " (unquoted, YAML 1.1 reads it so)"
	}
	return msg
}

func article(jsonType string) string {
	switch jsonType {
	case rs.JSONInteger, rs.JSONNumber:
		return "a number"
	case rs.JSONBoolean:
		return "a boolean"
	}
	return "a " + jsonType
}

// validationError lists what is wrong in one document, a line each.
type validationError struct {
	role  string
	lines []string
	hint  string
}

func (e *validationError) Error() string {
	var b strings.Builder
	b.WriteString(e.role + ": ")
	for i, l := range e.lines {
		if i > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString(clean(bounded(l)))
	}
	if e.hint != "" {
		b.WriteString("\n" + e.hint)
	}
	return b.String()
}

// validate checks the documents of a group against their schema: a field
// the schema does not declare is an error with --validate=strict, a
// warning with warn, accepted with ignore, and at most a warning in the
// live object; a scalar of another JSON type than the schema's is always
// an error, so that no string field receives true.
func (r *patchRun) validate(e *env, o *options, ds any, name string, g *group) error {
	t, ok := ds.(*rs.Type)
	if !ok {
		var err error
		if t, err = rs.OfValue(ds); err != nil {
			return err
		}
	}
	for i, obj := range g.objs {
		if obj.checked {
			continue
		}
		found, err := check(obj.json, t)
		if err != nil {
			return err
		}
		var (
			errs []string
			hint string
			text *textTree // obj.text parsed, once, if a message needs it
		)
		for _, f := range found {
			written := ""
			if !f.unknown {
				if text == nil {
					text = parseText(obj.text)
				}
				at := append(slices.Clip(obj.prefix), f.at...)
				if f.key {
					if written = text.key(at); written == "" || written == f.at[len(f.at)-1].key {
						continue // written as it is read
					}
				} else {
					written = text.scalar(at)
				}
			}
			msg := describeFinding(f, written, name)
			switch {
			case !f.unknown:
				errs = append(errs, msg)
			case o.validate == validateStrict && i != r.live:
				errs = append(errs, msg)
				hint = "(--validate=warn or --validate=ignore accepts unknown fields)"
			case o.validate != validateIgnore:
				fmt.Fprintf(e.stderr, "smp: warning: %s: %s\n", obj.role, clean(msg))
			}
		}
		if len(errs) > 0 {
			return &validationError{role: obj.role, lines: errs, hint: hint}
		}
	}
	return nil
}
