package engine

// A Doc is a three-way document's value at one place, as the nil ≡ empty
// rewrites (NarrowDeletions, DropEmptyChanges) read it: decoded JSON
// (JSONDoc) or a Go value (the typed walkers'). The zero Doc is absent.
type Doc[D any] interface {
	// Child returns field k of an object and whether the object has it.
	Child(k string) (D, bool)
	// Null reports null or absent.
	Null() bool
	// Object reports a JSON object (not null).
	Object() bool
	// List reports a JSON array (not null).
	List() bool
	// All reports whether fn holds for every value of an object or
	// element of a list, stopping at the first that fails.
	All(fn func(D) bool) bool
	// JSON returns the value as decoded JSON: nil for null or absent.
	JSON() (any, error)
}

// JSONDoc is decoded JSON as a Doc.
type JSONDoc struct{ V any }

// Child implements Doc.
func (d JSONDoc) Child(k string) (JSONDoc, bool) {
	m, _ := d.V.(map[string]any)
	v, ok := m[k]
	return JSONDoc{v}, ok
}

// Null implements Doc.
func (d JSONDoc) Null() bool { return d.V == nil }

// Object implements Doc.
func (d JSONDoc) Object() bool { _, ok := d.V.(map[string]any); return ok }

// List implements Doc.
func (d JSONDoc) List() bool { _, ok := d.V.([]any); return ok }

// All implements Doc.
func (d JSONDoc) All(fn func(JSONDoc) bool) bool {
	switch v := d.V.(type) {
	case map[string]any:
		for _, e := range v {
			if !fn(JSONDoc{e}) {
				return false
			}
		}
	case []any:
		for _, e := range v {
			if !fn(JSONDoc{e}) {
				return false
			}
		}
	}
	return true
}

// JSON implements Doc.
func (d JSONDoc) JSON() (any, error) { return d.V, nil }
