package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// doc is a Go value read as a three-way document (engine.Doc) for the
// nil ≡ empty rewrites: v of node n, pointers followed; below a node whose
// JSON only its encoding tells (a marshaller, an untyped value), the
// decoded JSON j. The zero doc is absent.
type doc struct {
	v      reflect.Value // invalid for null or absent
	n      *goval.Node
	j      engine.JSONDoc
	isJSON bool
	err    error // converting to JSON failed: no object, list or null
}

// docOf reads value v (invalid when absent) of node n.
func docOf(v reflect.Value, n *goval.Node) doc {
	if !v.IsValid() {
		return doc{}
	}
	if n.Marshaler || n.Kind == reflectschema.Untyped {
		j, err := goval.ToJSONValue(v, n, false)
		return doc{j: engine.JSONDoc{V: j}, isJSON: true, err: err}
	}
	d, null := goval.DerefNull(v)
	if null {
		return doc{n: n}
	}
	return doc{v: d, n: n}
}

// Child implements engine.Doc.
func (d doc) Child(k string) (doc, bool) {
	if d.isJSON {
		c, ok := d.j.Child(k)
		return doc{j: c, isJSON: true}, ok
	}
	if !d.v.IsValid() {
		return doc{}, false
	}
	switch d.n.Kind {
	case reflectschema.Struct:
		if f := d.n.ByName[k]; f != nil {
			if fv, ok := goval.FieldValue(d.v, f); ok {
				return docOf(fv, f.Node), true
			}
		}
	case reflectschema.Map:
		kv, err := goval.MapKeyFromText(k, d.v.Type().Key(), nil)
		if err != nil {
			return doc{}, false
		}
		if e := d.v.MapIndex(kv); e.IsValid() {
			return docOf(e, d.n.Elem), true
		}
	}
	return doc{}, false
}

// Null implements engine.Doc.
func (d doc) Null() bool {
	if d.isJSON {
		return d.err == nil && d.j.Null()
	}
	return !d.v.IsValid()
}

// Object implements engine.Doc.
func (d doc) Object() bool {
	if d.isJSON {
		return d.j.Object()
	}
	return d.v.IsValid() && (d.n.Kind == reflectschema.Struct || d.n.Kind == reflectschema.Map)
}

// List implements engine.Doc.
func (d doc) List() bool {
	if d.isJSON {
		return d.j.List()
	}
	k := d.v.Kind()
	return (k == reflect.Slice || k == reflect.Array) && (d.n.Kind == reflectschema.List || d.n.Kind == reflectschema.Atomic)
}

// All implements engine.Doc.
func (d doc) All(fn func(doc) bool) bool {
	if d.isJSON {
		return d.j.All(func(e engine.JSONDoc) bool { return fn(doc{j: e, isJSON: true}) })
	}
	switch {
	case d.Object() && d.n.Kind == reflectschema.Struct:
		for _, f := range d.n.Fields {
			if fv, ok := goval.FieldValue(d.v, f); ok && !fn(docOf(fv, f.Node)) {
				return false
			}
		}
	case d.Object():
		for it := d.v.MapRange(); it.Next(); {
			if !fn(docOf(it.Value(), d.n.Elem)) {
				return false
			}
		}
	case d.List():
		for i := range d.v.Len() {
			if !fn(docOf(d.v.Index(i), d.n.Elem)) {
				return false
			}
		}
	}
	return true
}

// JSON implements engine.Doc.
func (d doc) JSON() (any, error) {
	if d.isJSON {
		return d.j.V, d.err
	}
	if !d.v.IsValid() {
		return nil, nil
	}
	return goval.ToJSONValue(d.v, d.n, false)
}
