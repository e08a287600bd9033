package smp

import (
	"github.com/typedpatch/typedpatch/reflectschema"
)

// slot is what the schema says of one position in a document: the type
// found there (nil where the schema says nothing: untyped JSON or a field
// the type does not declare) and the patch metadata of the field holding it.
type slot struct {
	t      *reflectschema.Type
	meta   reflectschema.PatchMeta
	quoted bool
	// unknown marks a field its struct does not declare (and does not
	// preserve unknown fields): WithMergeUnknown decides what merges there.
	unknown bool
}

// kind returns the slot's schema kind; positions the schema does not
// describe are Untyped.
func (s slot) kind() reflectschema.Kind {
	if s.t == nil {
		return reflectschema.Untyped
	}
	return s.t.Kind
}

// child returns the slot of key inside an object at s.
func (s slot) child(key string) slot {
	if s.t == nil {
		return slot{}
	}
	switch s.t.Kind {
	case reflectschema.Struct:
		if f := s.t.Field(key); f != nil {
			return slot{t: f.Type, meta: f.Patch, quoted: f.Quoted}
		}
		return slot{unknown: !s.t.PreserveUnknown}
	case reflectschema.Map:
		return slot{t: s.t.Elem}
	}
	return slot{}
}

// elem returns the slot of a list element at s. Elements of a merge list
// with retainKeys carry it, as seed 003 puts it on Volume.
func (s slot) elem() slot {
	if s.t == nil || s.t.Kind != reflectschema.List {
		return slot{}
	}
	return slot{t: s.t.Elem, meta: reflectschema.PatchMeta{RetainKeys: s.meta.RetainKeys && s.meta.IsMergeList()}}
}

// isMergeList reports whether s is a list merged element by element.
func (s slot) isMergeList() bool {
	return s.kind() == reflectschema.List && s.meta.IsMergeList()
}

// isObjectList reports whether a merge list holds objects (merged by key)
// rather than scalars (merged as a set).
func (s slot) isObjectList() bool {
	if s.t == nil || s.t.Elem == nil {
		return false
	}
	switch s.t.Elem.Kind {
	case reflectschema.Struct, reflectschema.Map, reflectschema.Untyped:
		return true
	}
	return false
}

// schemaFor resolves the dataStruct argument of the Kubernetes-style API:
// a struct value, a pointer to one, or a *reflectschema.Type, which must
// describe an object and pass its Validate (a hand-built schema may lack
// parts; one without Go types is sealed by its reader).
func schemaFor(dataStruct any) (slot, error) {
	t, err := reflectschema.OfValue(dataStruct)
	if err == nil {
		err = t.Validate()
	}
	if err != nil {
		return slot{}, &Error{Kind: ErrSchema, Msg: err.Error(), err: err}
	}
	switch t.Kind {
	case reflectschema.Struct, reflectschema.Map, reflectschema.Untyped:
	default:
		return slot{}, &Error{Kind: ErrSchema, Msg: "schema " + t.String() + " is " + t.Kind.String() + ", not an object"}
	}
	return slot{t: t}, nil
}
