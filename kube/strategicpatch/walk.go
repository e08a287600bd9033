package strategicpatch

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// member is a value at one schema position and the document it is in.
type member struct {
	doc int
	v   interface{}
}

// walker builds a schema from a LookupPatchMeta by asking it about the keys
// of the documents: all values at one position (the same field of every
// document, every element of a list) are walked together, so each value
// is visited once and each field looked up once.
type walker struct {
	pending []pendingField
	docs    []map[string]interface{}
}

// walk builds the schema covering the keys of docs. A lookup that fails
// for a field holding objects or lists in two or more documents (where
// Kubernetes would recurse) fails the walk; otherwise the field is left
// out of the schema, as plain JSON.
func walk(l LookupPatchMeta, docs []map[string]interface{}) (*reflectschema.Type, error) {
	w := &walker{docs: docs}
	roots := make([]member, 0, len(docs))
	for i, d := range docs {
		roots = append(roots, member{i, d})
	}
	root, err := w.object(l, roots)
	if err != nil {
		return nil, err
	}
	return finish(root, w.pending)
}

// checkWalk is walk without building the schema: it fails where walk
// fails, for a type whose schema comes from reflectschema.
func checkWalk(l LookupPatchMeta, docs []map[string]interface{}) error {
	w := &walker{docs: docs}
	roots := make([]member, 0, len(docs))
	for i, d := range docs {
		roots = append(roots, member{i, d})
	}
	_, err := w.object(l, roots)
	return err
}

// object builds the struct type of the objects objs from lookup l.
func (w *walker) object(l LookupPatchMeta, objs []member) (*reflectschema.Type, error) {
	t := &reflectschema.Type{Kind: reflectschema.Struct, Name: "object"}
	groups := map[string][]member{}
	var keys []string
	for _, o := range objs {
		for k, v := range o.v.(map[string]interface{}) {
			name, ok := fieldOfKey(k)
			if !ok {
				continue
			}
			if _, seen := groups[name]; !seen {
				keys = append(keys, name)
			}
			groups[name] = append(groups[name], member{o.doc, v})
		}
	}
	for _, k := range keys {
		ft, meta, err := w.field(l, k, groups[k])
		if err != nil {
			return nil, err
		}
		if ft == nil {
			continue
		}
		f := &reflectschema.Field{Name: k, Type: ft}
		t.Fields = append(t.Fields, f)
		w.pending = append(w.pending, pendingField{f, meta})
	}
	return t, nil
}

// fieldOfKey returns the field a key is about: itself, or the list a
// $setElementOrder or $deleteFromPrimitiveList directive names; other
// directives are about no field.
func fieldOfKey(k string) (string, bool) {
	if !strings.HasPrefix(k, "$") {
		return k, true
	}
	dir, list, ok := strings.Cut(k, "/")
	if ok && (dir == "$setElementOrder" || dir == "$deleteFromPrimitiveList") {
		return list, true
	}
	return "", false
}

// field builds the type of field k from its values: objects ask
// LookupPatchMetadataForStruct, lists LookupPatchMetadataForSlice,
// scalars nothing. A nil type leaves the field out.
func (w *walker) field(l LookupPatchMeta, k string, vals []member) (*reflectschema.Type, PatchMeta, error) {
	var maps, lists []member
	for _, v := range vals {
		switch v.v.(type) {
		case map[string]interface{}:
			maps = append(maps, v)
		case []interface{}:
			lists = append(lists, v)
		}
	}
	switch {
	case len(maps) > 0:
		sub, meta, err := l.LookupPatchMetadataForStruct(k)
		if err != nil {
			return nil, PatchMeta{}, lookupFailure(err, maps)
		}
		if sub == nil {
			return untyped(), meta, nil
		}
		t, err := w.object(sub, maps)
		return t, meta, err
	case len(lists) > 0:
		sub, meta, err := l.LookupPatchMetadataForSlice(k)
		if err != nil {
			return nil, PatchMeta{}, lookupFailure(err, lists)
		}
		t, err := w.list(sub, lists, meta)
		return t, meta, err
	}
	return scalar(), PatchMeta{}, nil
}

// lookupFailure is err where Kubernetes would have met it: values in two
// documents that differ, which it would recurse into; else nil, leaving
// the field out of the schema (equal values need no schema).
func lookupFailure(err error, vals []member) error {
	for _, v := range vals[1:] {
		if v.doc != vals[0].doc && !reflect.DeepEqual(v.v, vals[0].v) {
			return err
		}
	}
	return nil
}

// list builds the type of a list field from the elements of its values.
func (w *walker) list(sub LookupPatchMeta, lists []member, meta PatchMeta) (*reflectschema.Type, error) {
	if bad, ok := keyless(lists, meta.GetPatchMergeKey()); ok {
		return nil, w.missingKey(bad, meta.GetPatchMergeKey())
	}
	var objs []member
	for _, l := range lists {
		for _, e := range l.v.([]interface{}) {
			switch e.(type) {
			case map[string]interface{}:
				objs = append(objs, member{l.doc, e})
			case []interface{}:
				return &reflectschema.Type{Kind: reflectschema.Atomic, Name: "list of lists"}, nil
			}
		}
	}
	elem := scalar()
	if len(objs) > 0 || meta.GetPatchMergeKey() != "" {
		elem = untyped()
		if sub != nil {
			var err error
			if elem, err = w.object(sub, objs); err != nil {
				return nil, err
			}
			addKeyFields(elem, meta.GetPatchMergeKey())
		}
	}
	return &reflectschema.Type{Kind: reflectschema.List, Elem: elem}, nil
}

// addKeyFields declares the merge key fields no element carried, so that
// the key names fields of the element type.
func addKeyFields(elem *reflectschema.Type, mergeKey string) {
	if mergeKey == "" {
		return
	}
	for _, k := range strings.Split(mergeKey, ",") {
		found := false
		for _, f := range elem.Fields {
			found = found || f.Name == k
		}
		if !found {
			elem.Fields = append(elem.Fields, &reflectschema.Field{Name: k, Type: scalar()})
		}
	}
}

// keyless returns an object without the merge key (a Go zero key left
// out by omitempty) in a merge list Kubernetes would merge or diff: where
// the second document (the patch, or modified) and another document both
// hold the list. Kubernetes fails there. Elements carrying $patch are
// directives, which the engine checks.
func keyless(lists []member, mergeKey string) (member, bool) {
	if mergeKey == "" || !sharedWithSecond(lists) {
		return member{}, false
	}
	keys := strings.Split(mergeKey, ",")
	for _, l := range lists {
		for _, e := range l.v.([]interface{}) {
			m, ok := e.(map[string]interface{})
			if !ok {
				continue
			}
			if _, directive := m["$patch"]; directive {
				continue
			}
			for _, k := range keys {
				if _, ok := m[k]; !ok {
					return member{l.doc, m}, true
				}
			}
		}
	}
	return member{}, false
}

// sharedWithSecond reports whether document 1 and another document both
// hold one of lists.
func sharedWithSecond(lists []member) bool {
	second, other := false, false
	for _, l := range lists {
		second = second || l.doc == 1
		other = other || l.doc != 1
	}
	return second && other
}

// missingKey is the error for element bad: the engine's, at its path, with
// Kubernetes' words first.
func (w *walker) missingKey(bad member, mergeKey string) error {
	path, _ := pathTo(w.docs[bad.doc], bad.v, nil)
	return &textError{"element does not contain declared merge key", &smp.Error{
		Kind: smp.ErrMissingMergeKey, Path: path,
		Msg: fmt.Sprintf("map: %v does not contain declared merge key: %s", bad.v, mergeKey),
	}}
}

// pathTo returns the path from v to the object target (the same map).
func pathTo(v, target interface{}, at smp.Path) (smp.Path, bool) {
	switch v := v.(type) {
	case map[string]interface{}:
		if reflect.ValueOf(v).UnsafePointer() == reflect.ValueOf(target).UnsafePointer() {
			return at, true
		}
		for k, e := range v {
			if p, ok := pathTo(e, target, append(at[:len(at):len(at)], smp.FieldStep(k))); ok {
				return p, true
			}
		}
	case []interface{}:
		for i, e := range v {
			if p, ok := pathTo(e, target, append(at[:len(at):len(at)], smp.IndexStep(i))); ok {
				return p, true
			}
		}
	}
	return nil, false
}
