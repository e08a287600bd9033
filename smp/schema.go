package smp

import "github.com/typedpatch/typedpatch/reflectschema"

// slot is what the schema says of one position in a document
// (reflectschema.Slot: the type found there, nil where the schema says
// nothing, and the patch metadata of the field holding it). The walkers
// navigate with its methods, the property suite with the same ones.
type slot = reflectschema.Slot

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
		return slot{}, wrapError(ErrSchema, err.Error(), err)
	}
	switch t.Kind {
	case reflectschema.Struct, reflectschema.Map, reflectschema.Untyped:
	default:
		return slot{}, wrapError(ErrSchema, "schema "+t.String()+" is "+t.Kind.String()+", not an object", nil)
	}
	return slot{Type: t}, nil
}
