package reflectschema

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// rawField is a JSON field found while walking a struct and the structs it
// embeds, before name conflicts are resolved.
type rawField struct {
	name   string
	tagged bool
	index  []int
	goName string
	sf     reflect.StructField
	tags   fieldTags
}

// embedded is a struct to walk in the next round of the breadth-first
// search, reached through index from the outer struct.
type embedded struct {
	typ    reflect.Type
	index  []int
	goName string
}

// structFields lists the JSON fields of struct type t as encoding/json
// does: embedded structs without a JSON name are inlined breadth first, a
// shallower field hides a deeper one, and at equal depth a tagged field
// hides an untagged one. Where encoding/json would silently drop two
// conflicting fields, structFields reports an error naming both.
func structFields(t reflect.Type) ([]rawField, error) {
	var fields []rawField
	next := []embedded{{typ: t}}
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current := next
		next = nil
		reached := map[reflect.Type][]embedded{}
		for _, e := range current {
			reached[e.typ] = append(reached[e.typ], e)
		}
		for _, e := range current {
			if visited[e.typ] {
				continue
			}
			visited[e.typ] = true
			for i := range e.typ.NumField() {
				sf := e.typ.Field(i)
				if !visible(sf) {
					continue
				}
				tags, err := parseTags(sf)
				if err != nil {
					return nil, &Error{Type: t, Field: joinName(e.goName, sf.Name), Rule: RuleTag, Msg: err.Error()}
				}
				if tags.skip {
					continue
				}
				index := append(slices.Clone(e.index), i)
				goName := joinName(e.goName, sf.Name)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if tags.name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, embedded{typ: ft, index: index, goName: goName})
					continue
				}
				if tags.inline {
					return nil, &Error{Type: t, Field: goName, Rule: RuleInline,
						Msg: `json ",inline" on a field that is not an embedded struct without a JSON name: encoding/json would not inline it`}
				}
				name := tags.name
				if name == "" {
					name = sf.Name
				}
				f := rawField{name: name, tagged: tags.name != "", index: index, goName: goName, sf: sf, tags: tags}
				fields = append(fields, f)
				if r := reached[e.typ]; len(r) > 1 {
					// The same struct reached twice at one depth: its
					// fields conflict with themselves, as in encoding/json.
					// The copy carries the second path, so the error
					// names both.
					dup := f
					dup.index = append(slices.Clone(r[1].index), i)
					dup.goName = joinName(r[1].goName, sf.Name)
					fields = append(fields, dup)
				}
			}
		}
	}
	return dominantFields(t, fields)
}

// visible reports whether encoding/json considers a struct field at all.
func visible(sf reflect.StructField) bool {
	if sf.Anonymous {
		t := sf.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		return sf.IsExported() || t.Kind() == reflect.Struct
	}
	return sf.IsExported()
}

// dominantFields keeps, for each JSON name, the field encoding/json would
// use, and returns the fields in struct order.
func dominantFields(t reflect.Type, fields []rawField) ([]rawField, error) {
	slices.SortStableFunc(fields, func(a, b rawField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) > 1 && len(group[0].index) == len(group[1].index) && group[0].tagged == group[1].tagged {
			return nil, &Error{Type: t, Field: group[0].goName, Rule: RuleConflict,
				Msg: "JSON name " + quote(group[0].name) + " is used by both " + group[0].goName + " and " + group[1].goName +
					" at the same depth; encoding/json would silently drop both"}
		}
		out = append(out, group[0])
		i = j
	}
	slices.SortFunc(out, func(a, b rawField) int { return slices.Compare(a.index, b.index) })
	return out, nil
}

func joinName(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
