package typedwalk

import "github.com/typedpatch/typedpatch/smp/internal/goval"

// diffItems is a list's objItems as the differ reads them: plain key
// fields from memory, looked up through the differ's memo (fieldOf).
type diffItems struct {
	*objItems
	d *tdiffer
}

func (s *diffItems) KeyField(p int, name string) (any, bool) {
	if base := s.elemBase(p); base != nil {
		if f := s.d.pairs.fieldOf(s.n, name); f != nil && f.FastScalar() {
			if !goval.FastPresent(base, f) {
				return nil, false
			}
			return goval.FastJSONIn(&s.d.boxes, base, f), true
		}
	} else if e, null := goval.DerefNull(s.cur.Index(p)); !null {
		if j, ok, done := goval.FastFieldJSON(&s.d.boxes, e, s.d.pairs.fieldOf(s.n, name)); done {
			return j, ok
		}
	}
	return s.objItems.KeyField(p, name)
}

func (s *diffItems) HasKeyField(p int, name string) bool {
	if base := s.elemBase(p); base != nil {
		if f := s.d.pairs.fieldOf(s.n, name); f != nil && f.FastScalar() {
			return goval.FastPresent(base, f)
		}
	} else if e, null := goval.DerefNull(s.cur.Index(p)); !null {
		if ok, done := goval.FastHasField(e, s.d.pairs.fieldOf(s.n, name)); done {
			return ok
		}
	}
	return s.objItems.HasKeyField(p, name)
}
