package typedwalk

import (
	"reflect"
	"strconv"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// objItems is a live merge list of structs or of maps with string keys,
// as a list plan reads it.
type objItems struct {
	cur     reflect.Value // the live list, invalid when there is none
	n       *goval.Node   // the elements' node
	at      *pathNode     // the list's path
	scratch map[string]any
	err     error // the first failure to read a key field
	// key is the field named keyName, the last one field looked up.
	key     *goval.Field
	keyName string
	// data and size locate the elements of a slice of structs (size -1:
	// another list; 0: not yet known).
	data unsafe.Pointer
	size int
}

// elemBase is the address of live element p when the list is a slice of
// structs held in place, else nil.
func (s *objItems) elemBase(p int) unsafe.Pointer {
	if s.size == 0 {
		s.size = -1
		if data, size := structElems(s.cur); data != nil && size > 0 {
			s.data, s.size = data, int(size)
		}
	}
	if s.size < 0 {
		return nil
	}
	return unsafe.Add(s.data, p*s.size)
}

// fastKeyID is KeyID of a struct at base under the one key field f, a
// fast string or integer field; false for a string SingleKey does not
// give as it is.
func fastKeyID(base unsafe.Pointer, f *goval.Field) (string, bool) {
	if !goval.FastPresent(base, f) {
		return format.AbsentMark, true
	}
	if f.Fast == goval.FastString {
		return format.StringKey(*(*string)(unsafe.Add(base, f.Offset)))
	}
	// An integer's canonical form (jsonval.NumberKey) is its decimal
	// digits.
	n, _ := goval.FastInteger(base, f)
	var b [24]byte
	if f.Fast >= goval.FastUint8 {
		return string(strconv.AppendUint(append(b[:0], "\x00n"...), n, 10)), true
	}
	return string(strconv.AppendInt(append(b[:0], "\x00n"...), int64(n), 10)), true
}

// field is the elements' field of that name, nil when none.
func (s *objItems) field(name string) *goval.Field {
	if s.key == nil || s.keyName != name {
		s.key, s.keyName = s.n.ByName[name], name
	}
	return s.key
}

func (s *objItems) Count() int {
	if !s.cur.IsValid() {
		return 0
	}
	return s.cur.Len()
}

// keyFields returns live element p's key fields under ks as its JSON has
// them, in a map reused by the next call; ok is false for a null element.
func (s *objItems) keyFields(p int, ks format.KeySet) (map[string]any, bool) {
	e, null := goval.DerefNull(s.cur.Index(p))
	if null {
		return nil, false
	}
	if s.scratch == nil {
		s.scratch = make(map[string]any, len(ks.Fields))
	}
	clear(s.scratch)
	if err := addKeyFields(s.scratch, e, s.n, ks); err != nil && s.err == nil {
		s.err = underPath(under(err, errpath.IndexStep(p)), s.at)
	}
	return s.scratch, true
}

func (s *objItems) KeyID(p int, ks format.KeySet) string {
	if len(ks.Fields) == 1 {
		// A plain string or integer field, the common key, is read from
		// memory as format.SingleKey reads its JSON.
		if f := s.field(ks.Fields[0]); f != nil && f.FastKey() {
			base := s.elemBase(p)
			if base == nil {
				e, null := goval.DerefNull(s.cur.Index(p))
				if null {
					return format.IDOf(ks, nil)
				}
				base, _ = goval.StructBase(e) // nil when e has no address
			}
			if base != nil {
				if id, ok := fastKeyID(base, f); ok {
					return id
				}
			}
		}
	}
	return s.keyIDOf(p, ks)
}

// KeyIDs is KeyID of every element, read from memory at once when the
// list is a slice of structs held in place keyed by one fast field.
func (s *objItems) KeyIDs(ks format.KeySet, ids []string) {
	if len(ks.Fields) == 1 && len(ids) > 0 {
		if f := s.field(ks.Fields[0]); f != nil && f.FastKey() && s.elemBase(0) != nil {
			for p := range ids {
				id, ok := fastKeyID(unsafe.Add(s.data, p*s.size), f)
				if !ok {
					id = s.keyIDOf(p, ks)
				}
				ids[p] = id
			}
			return
		}
	}
	for p := range ids {
		ids[p] = s.KeyID(p, ks)
	}
}

// keyIDOf is KeyID read from the element's key fields as JSON.
func (s *objItems) keyIDOf(p int, ks format.KeySet) string {
	m, ok := s.keyFields(p, ks)
	if !ok {
		return format.IDOf(ks, nil)
	}
	id, _ := ks.ID(m)
	return id
}

func (s *objItems) KeyField(p int, name string) (any, bool) {
	e, null := goval.DerefNull(s.cur.Index(p))
	if null {
		return nil, false
	}
	j, ok, err := goval.KeyJSON(e, s.n, name)
	if err != nil && s.err == nil {
		s.err = underPath(under(err, errpath.IndexStep(p)), s.at)
	}
	return j, ok
}

func (s *objItems) HasKeyField(p int, name string) bool {
	e, null := goval.DerefNull(s.cur.Index(p))
	return !null && goval.HasKey(e, s.n, name)
}

func (s *objItems) IsObject(p int) bool {
	if s.elemBase(p) != nil {
		return true // a struct held in place
	}
	_, null := goval.DerefNull(s.cur.Index(p))
	return !null
}
