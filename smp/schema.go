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

// The rules of navigation are reflectschema.Position's, shared with the
// property suite; slot only converts.

func (s slot) pos() reflectschema.Position {
	return reflectschema.Position{Type: s.t, Patch: s.meta, Quoted: s.quoted, Undeclared: s.unknown}
}

func slotAt(p reflectschema.Position) slot {
	return slot{t: p.Type, meta: p.Patch, quoted: p.Quoted, unknown: p.Undeclared}
}

// kind returns the slot's schema kind; positions the schema does not
// describe are Untyped.
func (s slot) kind() reflectschema.Kind { return s.pos().Kind() }

// child returns the slot of key inside an object at s.
func (s slot) child(key string) slot { return slotAt(s.pos().Child(key)) }

// elem returns the slot of a list element at s.
func (s slot) elem() slot { return slotAt(s.pos().Elem()) }

// isMergeList reports whether s is a list merged element by element.
func (s slot) isMergeList() bool { return s.pos().IsMergeList() }

// isObjectList reports whether a merge list holds objects (merged by key)
// rather than scalars (merged as a set).
func (s slot) isObjectList() bool { return s.pos().IsObjectList() }

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
