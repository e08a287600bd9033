package reflectschema

// Slot is what a schema says of one place in a JSON document: the
// type found there and the patch metadata of the field holding it. The
// engine's walkers and the property suite navigate documents with it, so
// that both read a schema alike (docs/format.md).
type Slot struct {
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

// Kind returns the kind there; slots the schema does not describe
// are Untyped.
func (p Slot) Kind() Kind {
	if p.Type == nil {
		return Untyped
	}
	return p.Type.Kind
}

// Child returns the slot of key inside an object at p: a struct's
// field, a map's value, or an undescribed slot.
func (p Slot) Child(key string) Slot {
	if p.Type == nil {
		return Slot{}
	}
	switch p.Type.Kind {
	case Struct:
		if f := p.Type.Field(key); f != nil {
			return Slot{Type: f.Type, Patch: f.Patch, Quoted: f.Quoted}
		}
		return Slot{Undeclared: !p.Type.PreserveUnknown}
	case Map:
		return Slot{Type: p.Type.Elem}
	}
	return Slot{}
}

// Elem returns the slot of an element of a list at p. Elements of a
// merge list with retainKeys carry it, as the retainKeys proposal puts it on Volume.
func (p Slot) Elem() Slot {
	if p.Type == nil || p.Type.Kind != List {
		return Slot{}
	}
	return Slot{Type: p.Type.Elem, Patch: PatchMeta{RetainKeys: p.Patch.RetainKeys && p.Patch.IsMergeList()}}
}

// IsMergeList reports whether p is a list merged element by element.
func (p Slot) IsMergeList() bool {
	return p.Kind() == List && p.Patch.IsMergeList()
}

// IsObjectList reports whether a list at p holds objects (a merge list
// of them merges by key) rather than scalars (a merge list of them is a
// set).
func (p Slot) IsObjectList() bool {
	if p.Type == nil || p.Type.Elem == nil {
		return false
	}
	switch p.Type.Elem.Kind {
	case Struct, Map, Untyped:
		return true
	}
	return false
}
