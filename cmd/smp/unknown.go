package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// unknownChange is an object or list under a field the schema does not
// know, which two documents give different values: the engine would merge
// it as plain JSON, replacing lists whole.
type unknownChange struct {
	path, schema, roles string
}

func (u *unknownChange) Error() string {
	return fmt.Sprintf("%s differ under %s, a field the schema of %s does not have: its lists would be replaced whole, not merged by key (--merge-unknown merges it as plain JSON)", u.roles, quote(u.path), u.schema)
}

// findUnknownChange walks two documents against a schema and returns the
// first field the schema lacks that both give different object or list
// values, or nil. Adding or removing such a field whole is fine.
func findUnknownChange(t *reflectschema.Type, a, b []byte) string {
	va, vb := decodeAny(a), decodeAny(b)
	return walkUnknown(t, reflectschema.PatchMeta{}, va, vb, "")
}

func decodeAny(data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// walkUnknown is findUnknownChange below path; meta is the patch metadata
// of the field holding the values.
func walkUnknown(t *reflectschema.Type, meta reflectschema.PatchMeta, a, b any, path string) string {
	if t == nil {
		return ""
	}
	switch t.Kind {
	case reflectschema.Struct:
		ma, okA := a.(map[string]any)
		mb, okB := b.(map[string]any)
		if !okA || !okB {
			return ""
		}
		for key, vb := range mb {
			va, ok := ma[key]
			if !ok || strings.HasPrefix(key, "$") {
				continue
			}
			p := join(path, key)
			f := t.Field(key)
			if f == nil {
				if (isContainer(va) || isContainer(vb)) && !reflect.DeepEqual(va, vb) {
					return p
				}
				continue
			}
			if found := walkUnknown(f.Type, f.Patch, va, vb, p); found != "" {
				return found
			}
		}
	case reflectschema.Map:
		ma, okA := a.(map[string]any)
		mb, okB := b.(map[string]any)
		if !okA || !okB {
			return ""
		}
		for key, vb := range mb {
			if va, ok := ma[key]; ok && !strings.HasPrefix(key, "$") {
				if found := walkUnknown(t.Elem, reflectschema.PatchMeta{}, va, vb, join(path, key)); found != "" {
					return found
				}
			}
		}
	case reflectschema.List:
		return walkList(t, meta, a, b, path)
	}
	return ""
}

// walkList pairs the elements of a merge list of objects by their merge
// key; other lists are replaced whole, so nothing under them merges.
func walkList(t *reflectschema.Type, meta reflectschema.PatchMeta, a, b any, path string) string {
	la, okA := a.([]any)
	lb, okB := b.([]any)
	if !okA || !okB || !meta.IsMergeList() || len(meta.MergeKey) == 0 || t.Elem == nil || t.Elem.Kind != reflectschema.Struct {
		return ""
	}
	byKey := make(map[string]any, len(la))
	for _, e := range la {
		if k, ok := mergeKey(e, meta.MergeKey); ok {
			byKey[k] = e
		}
	}
	for _, e := range lb {
		k, ok := mergeKey(e, meta.MergeKey)
		if !ok {
			continue
		}
		if ea, ok := byKey[k]; ok {
			if found := walkUnknown(t.Elem, reflectschema.PatchMeta{}, ea, e, path+"["+k+"]"); found != "" {
				return found
			}
		}
	}
	return ""
}

// mergeKey renders an element's merge key as "name=web", or reports that
// it has none.
func mergeKey(e any, keys []string) (string, bool) {
	m, ok := e.(map[string]any)
	if !ok {
		return "", false
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v, ok := m[k]
		if !ok {
			return "", false
		}
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	return strings.Join(parts, ","), true
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
