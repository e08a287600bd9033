package reflectschema

import (
	"reflect"
	"strings"
)

// Kind says how the engine treats a value of a type.
type Kind uint8

const (
	// Scalar is a JSON string, number, boolean or null (also []byte).
	Scalar Kind = iota + 1
	// Atomic is a value replaced as a whole: a type with its own JSON or
	// text marshaller (times, quantities, int-or-string, raw JSON) or a list
	// of lists.
	Atomic
	// Struct is a JSON object with a fixed set of fields.
	Struct
	// Map is a JSON object whose keys are data; its values share one type.
	Map
	// List is a JSON array; how it merges is decided by the field holding it.
	List
	// Untyped is arbitrary JSON (an interface type): objects merge key by
	// key, everything else is replaced.
	Untyped
)

var kindNames = [...]string{"invalid", "scalar", "atomic", "struct", "map", "list", "untyped"}

// String returns the kind's lower-case name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Strategy is a field's declared patchStrategy, without retainKeys (see
// [PatchMeta.RetainKeys]).
type Strategy uint8

const (
	// Default means no strategy was declared: lists are replaced, objects
	// are merged.
	Default Strategy = iota
	// Merge merges lists element by element (by merge key for lists of
	// objects, as a set for lists of scalars).
	Merge
	// Replace replaces the value as a whole.
	Replace
)

// String returns the tag spelling of the strategy ("" for Default).
func (s Strategy) String() string {
	switch s {
	case Merge:
		return "merge"
	case Replace:
		return "replace"
	}
	return ""
}

// PatchMeta is the patch metadata a field declares in its tags.
type PatchMeta struct {
	// Strategy is merge, replace or the default.
	Strategy Strategy
	// RetainKeys marks a union: a patch carrying $retainKeys clears the
	// members it does not list. On a merge list it applies to each element.
	RetainKeys bool
	// MergeKey is the patchMergeKey: the JSON names of the fields that
	// identify an element of a merge list of objects. Several names form a
	// multi-field key, all of which a patch element must carry.
	MergeKey []string
	// RecommendedMergeKey is the recommendedPatchMergeKey: MergeKey
	// followed by the extra fields a patch may name with $patchMergeKey.
	RecommendedMergeKey []string
}

// IsMergeList reports whether a list field merges element by element.
func (m PatchMeta) IsMergeList() bool { return m.Strategy == Merge }

// StrategyTag returns the strategy as the OpenAPI extension
// x-kubernetes-patch-strategy spells it, for example "merge,retainKeys".
func (m PatchMeta) StrategyTag() string {
	var parts []string
	if s := m.Strategy.String(); s != "" {
		parts = append(parts, s)
	}
	if m.RetainKeys {
		parts = append(parts, "retainKeys")
	}
	return strings.Join(parts, ",")
}

// Type is the schema of one Go type, or of a JSON value described some
// other way (an OpenAPI document; see [Seal]). Pointers are followed: the
// schema of *T is the schema of T. A Type is immutable once returned.
type Type struct {
	// Go is the Go type described (never a pointer); nil for a schema
	// without a Go type, which only the JSON API accepts.
	Go reflect.Type
	// Kind says how values of the type are treated.
	Kind Kind
	// Fields lists a struct's JSON fields in encoding/json's order, with
	// those of inlined structs in place.
	Fields []*Field
	// PreserveUnknown says a struct's undeclared fields are arbitrary JSON
	// (OpenAPI's x-kubernetes-preserve-unknown-fields): they merge as
	// Untyped values. Elsewhere two objects or lists meeting under an
	// undeclared field are an error unless the caller opts into merging
	// them as plain JSON.
	PreserveUnknown bool
	// Elem is the type of a list's elements or a map's values.
	Elem *Type
	// JSONType is, for a Scalar without a Go type, the JSON type its
	// values must have: one of the JSONString, JSONInteger, JSONNumber or
	// JSONBoolean constants, or "" for any scalar.
	JSONType string
	// Format refines JSONType as OpenAPI's format does: "int32" and
	// "int64" bound integers, "float" and "double" numbers, and "byte" a
	// base64 string. Other formats are kept for messages only.
	Format string
	// Name names a type without a Go type in messages, such as the
	// OpenAPI definition it was read from.
	Name string

	byName map[string]*Field
	sealed bool // checked and indexed by Seal
}

// The JSON types of [Type.JSONType], spelled as OpenAPI's type keyword.
const (
	JSONString  = "string"
	JSONInteger = "integer"
	JSONNumber  = "number"
	JSONBoolean = "boolean"
)

// Field is one JSON field of a struct.
type Field struct {
	// Name is the JSON name.
	Name string
	// GoName is the Go field name, dotted through inlined structs
	// ("ProbeHandler.Exec").
	GoName string
	// Index is the reflect index path from the struct to the field,
	// through inlined structs (for reflect.Value.FieldByIndex).
	Index []int
	// GoType is the declared type of the field (possibly a pointer).
	GoType reflect.Type
	// Type is the field's schema.
	Type *Type
	// OmitEmpty reports the json "omitempty" option.
	OmitEmpty bool
	// OmitZero reports the json "omitzero" option.
	OmitZero bool
	// Quoted reports the json "string" option.
	Quoted bool
	// Patch is the field's patch metadata.
	Patch PatchMeta
}

// FieldName returns the JSON name of the field named exactly name, for a
// struct: the schema's own string, which a decoder can share instead of
// copying the key.
func (t *Type) FieldName(name []byte) (string, bool) {
	if t == nil || t.Kind != Struct {
		return "", false
	}
	f, ok := t.byName[string(name)]
	if !ok {
		return "", false
	}
	return f.Name, true
}

// Field returns the struct field with the given JSON name, or nil. Like
// encoding/json, it falls back to a case-insensitive match.
func (t *Type) Field(name string) *Field {
	if t == nil || t.Kind != Struct {
		return nil
	}
	if f, ok := t.byName[name]; ok {
		return f
	}
	for _, f := range t.Fields {
		if strings.EqualFold(f.Name, name) {
			return f
		}
	}
	return nil
}

// String returns the Go type's name; for a type without one, its Name,
// else its Format or JSONType, else what JSON value it is.
func (t *Type) String() string {
	switch {
	case t == nil:
		return "<nil>"
	case t.Go != nil:
		return t.Go.String()
	case t.Name != "":
		return t.Name
	case t.Format != "":
		return t.Format
	case t.JSONType != "":
		return t.JSONType
	}
	switch t.Kind {
	case Struct, Map, Untyped:
		return "object"
	case List:
		return "array"
	case Scalar:
		return "scalar"
	}
	return t.Kind.String() + " value"
}
