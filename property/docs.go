package property

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// decode reads JSON as the engine holds it: numbers keep their text.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

// decodeObject decodes a JSON object; anything else is an error.
func decodeObject(data []byte) (map[string]any, error) {
	v, err := decode(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object: %.100s", data)
	}
	return m, nil
}

// dropNulls returns v without object members whose value is null: the
// engine treats a null field as an absent one.
func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}

// isEmpty reports whether v is absent or an empty collection: an empty
// list, or an object holding only nulls and empty collections (the
// engine's nil ≡ empty, kubernetes#48164).
func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range x {
			if !isEmpty(e) {
				return false
			}
		}
		return true
	case []any:
		return len(x) == 0
	}
	return false
}

// same reports whether two values are one value where absent and empty
// collections are alike and null members are absent. An empty object and
// an empty list (which untyped JSON can hold in one place) are not alike.
func same(a, b any) bool {
	if isEmpty(a) && isEmpty(b) && !objectAndList(a, b) {
		return true
	}
	return reflect.DeepEqual(dropNulls(a), dropNulls(b))
}

// objectAndList reports whether one value is an object and the other a
// list.
func objectAndList(a, b any) bool {
	_, ao := a.(map[string]any)
	_, al := a.([]any)
	_, bo := b.(map[string]any)
	_, bl := b.([]any)
	return ao && bl || al && bo
}

// scalarText renders a scalar for a path step: strings as they are,
// other values as JSON.
func scalarText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// scalarID identifies a scalar: its JSON type and text.
func scalarID(v any) string {
	switch x := v.(type) {
	case string:
		return "s" + x
	case json.Number:
		return "n" + string(x)
	}
	b, _ := json.Marshal(v)
	return "j" + string(b)
}

// keyStep renders a merge-list element's key as the engine's paths do:
// [name=a], [port=53,protocol=TCP], with <absent> for an absent field.
func keyStep(keys []string, e map[string]any) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		if v, ok := e[k]; ok {
			b.WriteString(scalarText(v))
		} else {
			b.WriteString("<absent>")
		}
	}
	b.WriteByte(']')
	return b.String()
}

// elementID identifies a merge-list element under keys: each field's
// scalarID after its length, so that no two tuples of values share one.
func elementID(keys []string, e any) string {
	m, ok := e.(map[string]any)
	if !ok {
		return "\x02" + scalarID(e)
	}
	var b strings.Builder
	for _, k := range keys {
		if v, ok := m[k]; ok {
			id := scalarID(v)
			fmt.Fprintf(&b, "%d:%s", len(id), id)
		} else {
			b.WriteString("-")
		}
	}
	return b.String()
}

func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// entryKind says what an indexed position holds.
type entryKind uint8

const (
	entObject entryKind = iota // an object merged field by field (struct, map, element)
	entKeyed                   // a merge list of objects
	entSet                     // a merge list of scalars
	// The leaves: values compared as wholes.
	entScalar // a scalar
	entList   // a list that is replaced whole
	entMember // a value of a merge list of scalars (its value is true)
	entWhole  // an object replaced whole (atomic or patchStrategy replace)
)

func (k entryKind) leaf() bool { return k >= entScalar }

// entry is one position of an indexed document.
type entry struct {
	v      any
	kind   entryKind
	n      node
	parent string
	// field is the name of the field or map key the position is under in
	// its parent object ("" for list elements).
	field string
}

// index maps the path of every non-null position of a document to its
// entry. Merge-list elements are addressed by their whole key, as the
// engine's paths print them (spec.containers[name=a].image); values of
// merge lists of scalars as [=value]; other lists are leaves. A key
// repeated in one list gets #2, #3... after its step.
type index map[string]entry

func indexDoc(doc any, root node) index {
	ix := index{}
	ix.add(doc, root, "", "", "")
	return ix
}

func (ix index) add(v any, n node, path, parent, field string) {
	if v == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if n.wholeObject() {
			ix[path] = entry{v: v, kind: entWhole, n: n, parent: parent, field: field}
			return
		}
		ix[path] = entry{v: v, kind: entObject, n: n, parent: parent, field: field}
		for k, e := range x {
			ix.add(e, n.child(k), joinField(path, k), path, k)
		}
	case []any:
		switch {
		case n.keyedList():
			ix[path] = entry{v: v, kind: entKeyed, n: n, parent: parent, field: field}
			keys := n.fullKey()
			seen := map[string]int{}
			for _, e := range x {
				m, ok := e.(map[string]any)
				if !ok {
					continue
				}
				ep := path + keyStep(keys, m)
				seen[ep]++
				if c := seen[ep]; c > 1 {
					ep += fmt.Sprintf("#%d", c)
				}
				ix.add(e, n.elem(), ep, path, "")
			}
		case n.isMergeList():
			ix[path] = entry{v: v, kind: entSet, n: n, parent: parent, field: field}
			for _, e := range x {
				ix[path+"[="+scalarText(e)+"]"] = entry{v: true, kind: entMember, n: n, parent: path}
			}
		default:
			ix[path] = entry{v: v, kind: entList, n: n, parent: parent, field: field}
		}
	default:
		ix[path] = entry{v: v, kind: entScalar, n: n, parent: parent, field: field}
	}
}

// get returns the value at path, nil when absent.
func (ix index) get(path string) any {
	if e, ok := ix[path]; ok {
		return e.v
	}
	return nil
}

// ancestors returns path's ancestors in ix, nearest first (path itself
// excluded). A path absent from ix has none.
func (ix index) ancestors(path string) []string {
	var out []string
	e, ok := ix[path]
	for ok && path != "" {
		path = e.parent
		out = append(out, path)
		e, ok = ix[path]
	}
	return out
}

// listOrder returns the identities of a merge list's items in order.
func listOrder(v any, n node) []string {
	l, _ := v.([]any)
	ids := make([]string, len(l))
	for i, e := range l {
		if n.isObjectList() {
			ids[i] = elementID(n.fullKey(), e)
		} else {
			ids[i] = scalarID(e)
		}
	}
	return ids
}

// relativeOrder returns the items of a that are in b, in a's order.
func relativeOrder(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, id := range b {
		in[id] = true
	}
	var out []string
	for _, id := range a {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}

// orderMismatch reports whether the items two lists share are in a
// different relative order.
func orderMismatch(a, b []string) bool {
	return !slices.Equal(relativeOrder(a, b), relativeOrder(b, a))
}
