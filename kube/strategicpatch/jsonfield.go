package strategicpatch

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// fieldCache maps a struct type to its JSON fields (jsonFields).
var fieldCache sync.Map // map[reflect.Type][]reflect.StructField

// jsonField returns the struct field encoding/json uses for the JSON name
// key in t (a struct or a pointer to one), falling back, as encoding/json
// does, to a case-insensitive match.
func jsonField(t reflect.Type, key string) (reflect.StructField, error) {
	if t == nil {
		return reflect.StructField{}, fmt.Errorf("unable to find api field %q: no type", key)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, fmt.Errorf("merging an object in json but data type is not struct, instead is: %s", t.Kind())
	}
	fields := jsonFields(t)
	fold := -1
	for i := range fields {
		name := fieldName(fields[i])
		if name == key {
			return fields[i], nil
		}
		if fold < 0 && strings.EqualFold(name, key) {
			fold = i
		}
	}
	if fold >= 0 {
		return fields[fold], nil
	}
	return reflect.StructField{}, fmt.Errorf("unable to find api field in struct %s for the json field %q", t.Name(), key)
}

// jsonFields lists the fields encoding/json encodes for struct t, those of
// embedded structs in place, a shallower field hiding deeper ones of the
// same name. Each has its JSON name in its Name.
func jsonFields(t reflect.Type) []reflect.StructField {
	if v, ok := fieldCache.Load(t); ok {
		return v.([]reflect.StructField)
	}
	var out []reflect.StructField
	seen := map[string]int{} // name -> depth it was found at
	visited := map[reflect.Type]bool{}
	level := []reflect.Type{t}
	for depth := 0; len(level) > 0; depth++ {
		var next []reflect.Type
		found := map[string][]reflect.StructField{}
		var order []string
		for _, st := range level {
			if visited[st] {
				continue
			}
			visited[st] = true
			for i := 0; i < st.NumField(); i++ {
				f := st.Field(i)
				name, embedded, ok := jsonName(f)
				if !ok {
					continue
				}
				if embedded != nil {
					next = append(next, embedded)
					continue
				}
				if _, hidden := seen[name]; hidden {
					continue
				}
				if _, dup := found[name]; !dup {
					order = append(order, name)
				}
				f.Name = name
				found[name] = append(found[name], f)
			}
		}
		for _, name := range order {
			seen[name] = depth
			if f, ok := dominant(found[name]); ok {
				out = append(out, f)
			}
		}
		level = next
	}
	fieldCache.Store(t, out)
	return out
}

// jsonName returns a field's JSON name, or the struct type to inline for
// an untagged embedded struct; ok is false for a field JSON skips.
func jsonName(f reflect.StructField) (name string, embedded reflect.Type, ok bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", nil, false
	}
	name, _, _ = strings.Cut(tag, ",")
	ft := f.Type
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
		return "", ft, true
	}
	if !f.IsExported() {
		return "", nil, false
	}
	if name == "" {
		name = f.Name
	}
	return name, nil, true
}

// dominant picks among same-depth fields of one name the only one, or the
// only tagged one; several leave the name out, as in encoding/json.
func dominant(fs []reflect.StructField) (reflect.StructField, bool) {
	if len(fs) == 1 {
		return fs[0], true
	}
	var pick []reflect.StructField
	for _, f := range fs {
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n != "" {
			pick = append(pick, f)
		}
	}
	if len(pick) == 1 {
		return pick[0], true
	}
	return reflect.StructField{}, false
}

// fieldName is the JSON name jsonFields stored in Name.
func fieldName(f reflect.StructField) string { return f.Name }
