package strategicpatch

import (
	"bytes"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// rawSafe reports, without decoding, whether doc fits schema t so well
// that the walk through Kubernetes' lookups cannot fail on it: every
// object sits at a struct field t declares as a struct (or in a map of
// scalars... holding scalars), every list at a declared list field, and
// every element of a merge list of objects carries its merge key (or is a
// $patch directive). Anything else, malformed JSON, escaped keys and deep
// nesting included, answers false, and the caller walks the decoded
// documents instead. With strictLists, a declared list field must hold a
// list (not null), so that no $setElementOrder can meet a null list
// (checkOrderLists). The scan is linear and allocates nothing.
func rawSafe(doc []byte, t *reflectschema.Type, strictLists bool) bool {
	s := rawScanner{doc: doc, strictLists: strictLists}
	s.skipSpace()
	if !s.value(t, nil, 0) {
		return false
	}
	s.skipSpace()
	return s.i == len(s.doc)
}

// rawDepthLimit bounds the scan's recursion; deeper documents are walked.
const rawDepthLimit = 200

type rawScanner struct {
	doc         []byte
	i           int
	strictLists bool
}

func (s *rawScanner) skipSpace() {
	for s.i < len(s.doc) {
		switch s.doc[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value scans one value of type t; key is the merge key when the value is
// an element of a merge list of objects.
func (s *rawScanner) value(t *reflectschema.Type, key []string, depth int) bool {
	if s.i >= len(s.doc) || depth > rawDepthLimit {
		return false
	}
	switch s.doc[s.i] {
	case '{':
		return t != nil && (t.Kind == reflectschema.Struct || t.Kind == reflectschema.Map) && s.object(t, key, depth)
	case '[':
		return t != nil && t.Kind == reflectschema.List && s.list(t, depth)
	}
	if s.strictLists && t != nil && t.Kind == reflectschema.List {
		return false
	}
	return s.scalarValue()
}

// object scans an object of struct or map type t, checking that it holds
// the merge key fields key.
func (s *rawScanner) object(t *reflectschema.Type, key []string, depth int) bool {
	s.i++
	found, directive := 0, false
	for first := true; ; first = false {
		s.skipSpace()
		if s.i < len(s.doc) && s.doc[s.i] == '}' && first {
			s.i++
			break
		}
		name, ok := s.str()
		if !ok || name == nil {
			return false // malformed, or an escaped key: let the walk decode it
		}
		s.skipSpace()
		if s.i >= len(s.doc) || s.doc[s.i] != ':' {
			return false
		}
		s.i++
		s.skipSpace()
		if !s.member(t, name, depth) {
			return false
		}
		for _, k := range key {
			if string(name) == k {
				found++
			}
		}
		directive = directive || string(name) == "$patch"
		s.skipSpace()
		if s.i >= len(s.doc) {
			return false
		}
		if s.doc[s.i] == '}' {
			s.i++
			break
		}
		if s.doc[s.i] != ',' {
			return false
		}
		s.i++
	}
	return directive || found >= len(key)
}

// member scans the value of field name of an object of type t.
func (s *rawScanner) member(t *reflectschema.Type, name []byte, depth int) bool {
	if t.Kind == reflectschema.Map {
		if t.Elem == nil || t.Elem.Kind != reflectschema.Scalar {
			return false // Kubernetes looks inside the values of a map of objects
		}
		return s.value(t.Elem, nil, depth+1)
	}
	if len(name) > 0 && name[0] == '$' {
		return s.directive(t, name, depth)
	}
	f := t.Field(string(name))
	if f == nil {
		return s.scalarValue() // a field the type does not declare may hold a scalar
	}
	var key []string
	if f.Type != nil && f.Type.Kind == reflectschema.List && f.Patch.IsMergeList() {
		key = f.Patch.MergeKey
	}
	if key != nil {
		return s.keyedList(f.Type, key, depth)
	}
	return s.value(f.Type, nil, depth+1)
}

// directive scans the value of a $ key: $setElementOrder and
// $deleteFromPrimitiveList lists of a declared list, $patch and
// $retainKeys scalars or lists of them.
func (s *rawScanner) directive(t *reflectschema.Type, name []byte, depth int) bool {
	for _, prefix := range [...]string{"$setElementOrder/", "$deleteFromPrimitiveList/"} {
		if list, ok := bytes.CutPrefix(name, []byte(prefix)); ok {
			f := t.Field(string(list))
			if f == nil || f.Type == nil || f.Type.Kind != reflectschema.List {
				return false
			}
			return s.member(t, list, depth)
		}
	}
	if s.i < len(s.doc) && s.doc[s.i] == '[' {
		return s.list(&reflectschema.Type{Kind: reflectschema.List, Elem: &reflectschema.Type{Kind: reflectschema.Scalar}}, depth)
	}
	return s.scalarValue()
}

// keyedList scans a merge list of objects whose elements need key.
func (s *rawScanner) keyedList(t *reflectschema.Type, key []string, depth int) bool {
	if s.i >= len(s.doc) || s.doc[s.i] != '[' {
		return !s.strictLists && s.scalarValue()
	}
	return s.elements(t.Elem, key, depth)
}

func (s *rawScanner) list(t *reflectschema.Type, depth int) bool {
	return s.elements(t.Elem, nil, depth)
}

// elements scans the elements of a list of element type elem.
func (s *rawScanner) elements(elem *reflectschema.Type, key []string, depth int) bool {
	s.i++
	for first := true; ; first = false {
		s.skipSpace()
		if s.i < len(s.doc) && s.doc[s.i] == ']' && first {
			s.i++
			return true
		}
		if key != nil && (s.i >= len(s.doc) || s.doc[s.i] != '{') {
			return false // a scalar in a merge list of objects: let the walk decide
		}
		if !s.value(elem, key, depth+1) {
			return false
		}
		s.skipSpace()
		if s.i >= len(s.doc) {
			return false
		}
		if s.doc[s.i] == ']' {
			s.i++
			return true
		}
		if s.doc[s.i] != ',' {
			return false
		}
		s.i++
	}
}

// scalarValue scans a value that must be a scalar.
func (s *rawScanner) scalarValue() bool {
	if s.i >= len(s.doc) {
		return false
	}
	if s.doc[s.i] == '"' {
		_, ok := s.str()
		return ok
	}
	return s.scalar()
}

// str scans a string, returning its content; a string with escapes has
// no content to compare (nil), which is fine for a value but not a key.
func (s *rawScanner) str() ([]byte, bool) {
	if s.i >= len(s.doc) || s.doc[s.i] != '"' {
		return nil, false
	}
	start, escaped := s.i+1, false
	for j := start; j < len(s.doc); j++ {
		switch c := s.doc[j]; {
		case c == '"':
			s.i = j + 1
			if escaped {
				return nil, true
			}
			return s.doc[start:j], true
		case c == '\\':
			escaped = true
			j++
		case c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// scalar scans a number, true, false or null.
func (s *rawScanner) scalar() bool {
	start := s.i
	for s.i < len(s.doc) {
		c := s.doc[s.i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'E' {
			s.i++
			continue
		}
		break
	}
	return s.i > start
}
