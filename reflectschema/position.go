package reflectschema

// Position is what a schema says of one position in a JSON document: the
// type found there and the patch metadata of the field holding it. The
// engine's walkers and the property suite navigate documents with it, so
// that both read a schema alike (docs/format.md).
type Position struct {
	// Type is the schema there; nil where the schema says nothing:
	// untyped JSON, or a field its struct does not declare.
	Type *Type
	// Patch is the patch metadata of the field holding the value.
	Patch PatchMeta
	// Quoted reports the json "string" option of that field.
	Quoted bool
	// Undeclared marks a field its struct neither declares nor preserves
	// as unknown (see Type.PreserveUnknown).
	Undeclared bool
}

// Kind returns the kind there; positions the schema does not describe
// are Untyped.
func (p Position) Kind() Kind {
	if p.Type == nil {
		return Untyped
	}
	return p.Type.Kind
}

// Child returns the position of key inside an object at p: a struct's
// field, a map's value, or an undescribed position.
func (p Position) Child(key string) Position {
	if p.Type == nil {
		return Position{}
	}
	switch p.Type.Kind {
	case Struct:
		if f := p.Type.Field(key); f != nil {
			return Position{Type: f.Type, Patch: f.Patch, Quoted: f.Quoted}
		}
		return Position{Undeclared: !p.Type.PreserveUnknown}
	case Map:
		return Position{Type: p.Type.Elem}
	}
	return Position{}
}

// Elem returns the position of an element of a list at p. Elements of a
// merge list with retainKeys carry it, as the retainKeys proposal puts it on Volume.
func (p Position) Elem() Position {
	if p.Type == nil || p.Type.Kind != List {
		return Position{}
	}
	return Position{Type: p.Type.Elem, Patch: PatchMeta{RetainKeys: p.Patch.RetainKeys && p.Patch.IsMergeList()}}
}

// IsMergeList reports whether p is a list merged element by element.
func (p Position) IsMergeList() bool {
	return p.Kind() == List && p.Patch.IsMergeList()
}

// IsObjectList reports whether a list at p holds objects (a merge list
// of them merges by key) rather than scalars (a merge list of them is a
// set).
func (p Position) IsObjectList() bool {
	if p.Type == nil || p.Type.Elem == nil {
		return false
	}
	switch p.Type.Elem.Kind {
	case Struct, Map, Untyped:
		return true
	}
	return false
}
