package typedwalk

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Go structs and maps as engine.ObjPair, so that engine.DiffObjectOf
// diffs them by the rules it applies to JSON objects. The pairs read
// values in place, from memory where the plan allows (goval's fast
// fields), and skip what memory shows equal.

// pairFrame holds the pairs of one depth of nested objects.
type pairFrame struct {
	s  structPair
	sm stringMapPair
	gm mapPair
}

// pairStack is a differ's frames, kept between calls, and the keys it
// lends positional lists (takeKeys).
type pairStack struct {
	frames   []*pairFrame
	used     int
	keys     []memKey
	keysUsed int
	fields   [8]fieldMemo // recent key fields (fieldOf), by round
	next     int
}

// fieldMemo is a key field a differ looked up by its node and name.
type fieldMemo struct {
	en   *goval.Node
	name string
	f    *goval.Field
}

// fieldOf is en.ByName[name], remembered: the lists of one type ask
// for the same key fields, by the same strings, element after element.
func (s *pairStack) fieldOf(en *goval.Node, name string) *goval.Field {
	if s == nil {
		return en.ByName[name]
	}
	for i := range s.fields {
		if m := &s.fields[i]; m.en == en && len(m.name) == len(name) && unsafe.StringData(m.name) == unsafe.StringData(name) {
			return m.f
		}
	}
	f := en.ByName[name]
	s.fields[s.next] = fieldMemo{en, name, f}
	s.next = (s.next + 1) % len(s.fields)
	return f
}

// takeKeys lends n keys, zero, until giveKeys takes them back: nested
// lists take theirs above their parent's. A nil stack lends new ones.
func (s *pairStack) takeKeys(n int) []memKey {
	if s == nil {
		return make([]memKey, n)
	}
	if s.keysUsed+n > len(s.keys) {
		// Keys lent before stay in the old array until given back.
		s.keys = make([]memKey, max(2*len(s.keys), s.keysUsed+n, 64))
	}
	k := s.keys[s.keysUsed : s.keysUsed+n : s.keysUsed+n]
	s.keysUsed += n
	return k
}

// giveKeys takes back the keys takeKeys lent last, cleared: the stack
// outlives the call and keeps nothing of the values.
func (s *pairStack) giveKeys(k []memKey) {
	clear(k)
	if s != nil {
		s.keysUsed -= len(k)
	}
}

var pairStacks = sync.Pool{New: func() any { return &pairStack{} }}

// push returns the frame for the next depth; pop gives it back.
func (s *pairStack) push() *pairFrame {
	if s.used == len(s.frames) {
		s.frames = append(s.frames, &pairFrame{})
	}
	s.used++
	return s.frames[s.used-1]
}

func (s *pairStack) pop() { s.used-- }

// diffStruct is engine.DiffObjectOf for two structs (invalid when absent).
// The patch is nil when empty.
func (d *tdiffer) diffStruct(o, m reflect.Value, n *goval.Node, s slot) (map[string]any, bool, error) {
	p := &d.pairs.push().s
	p.d, p.o, p.m, p.n, p.i = d, o, m, n, 0
	p.equalBelow = 0
	if d.memorySkips() {
		p.equalBelow = d.equalBelow
	}
	d.equalBelow = 0 // consumed
	var okO, okM bool
	p.po, okO = goval.StructBase(o)
	p.pm, okM = goval.StructBase(m)
	p.fast = okO && okM
	p.sameSkips = p.fast && p.po != nil && p.pm != nil && d.memorySkips()
	patch, up, err := engine.DiffObjectOf(d.Differ, p, &s)
	// The frame outlives the call: it keeps nothing of the values.
	p.o, p.m, p.ov, p.mv, p.po, p.pm, p.out = reflect.Value{}, reflect.Value{}, reflect.Value{}, reflect.Value{}, nil, nil, nil
	p.vals = goValues{}
	d.pairs.pop()
	return patch, up, err
}

// structPair reads two structs field by field in name order.
type structPair struct {
	d      *tdiffer
	o, m   reflect.Value
	n      *goval.Node
	po, pm unsafe.Pointer // the structs' memory, when fast
	fast   bool
	// sameSkips: both structs are in memory, and a field holding the
	// same bits in both (goval.FastSame) writes nothing.
	sameSkips bool
	// equalBelow: the fields that end at or below it are equal in memory
	// (tdiffer.equalBelow), and write nothing.
	equalBelow uintptr
	i          int // the next field
	f          *goval.Field
	ov, mv     reflect.Value
	// scalar says the current field is read from memory (both present
	// or modified's alone), and ov and mv are not set.
	scalar bool
	vals   goValues // the field's, when not scalar
	out    map[string]any
}

func (p *structPair) Out() *map[string]any { return &p.out }

func (p *structPair) Next(orig, all bool) (engine.Entry, bool, error) {
	fields, fast, po, pm := p.n.Sorted, p.fast, p.po, p.pm
	for i := p.i; i < len(fields); i++ {
		f := fields[i]
		if f.Offset < p.equalBelow && !all && !f.ViaPtr && f.Offset+f.Meta.GoType.Size() <= p.equalBelow {
			continue // equal in memory
		}
		var ov, mv reflect.Value
		var mp, op bool
		if fast && f.Fast != goval.FastNone {
			if p.sameSkips && !all && goval.FastSame(po, pm, f) {
				continue
			}
			mp, op = goval.FastPresent(pm, f), goval.FastPresent(po, f)
			if mp && f.FastScalar() {
				if op && !all && goval.FastEqual(po, pm, f) {
					continue
				}
				p.i, p.f, p.scalar = i+1, f, true
				return engine.Entry{Name: f.Name, InO: op, InM: true}, true, nil
			}
			if mp {
				mv = goval.FieldOf(p.m, f)
			}
			if op {
				ov = goval.FieldOf(p.o, f)
			}
		} else {
			mv, mp = goval.FieldValue(p.m, f)
			ov, op = goval.FieldValue(p.o, f)
		}
		if mp || op && orig {
			p.i, p.f, p.scalar, p.ov, p.mv = i+1, f, false, ov, mv
			return engine.Entry{Name: f.Name, InO: op, InM: mp}, true, nil
		}
	}
	p.i = len(fields)
	return engine.Entry{}, false, nil
}

func (p *structPair) Sorted() bool { return true }

func (p *structPair) ModifiedNull() bool { return !p.scalar && isNullValue(p.mv, p.f.Node) }

func (p *structPair) OriginalNull() bool { return isNullValue(p.ov, p.f.Node) }

func (p *structPair) Added() (any, slot, error) {
	f := p.f
	if p.scalar {
		return goval.FastJSONIn(&p.d.boxes, p.pm, f), f.Slot, nil
	}
	j, err := goval.ToJSONValue(p.mv, f.Node, f.Quoted)
	if err != nil {
		return nil, f.Slot, under(err, errpath.FieldStep(f.Name))
	}
	return j, f.Slot, nil
}

func (p *structPair) DiffField(patch *map[string]any, k string) (bool, error) {
	d, f := p.d, p.f
	if p.scalar {
		return false, engine.ReplaceIfChanged(d.Differ, fastScalar{p.po, p.pm, f, &d.boxes}, patch, k)
	}
	v := &p.vals
	v.d, v.ov, v.mv, v.pos, v.f = d, p.ov, p.mv, &f.Pos, f
	up, err := d.diffValue(patch, k, v)
	if err != nil {
		return false, under(err, errpath.FieldStep(k))
	}
	return up, nil
}

// fastScalar is a scalar field of two structs read from memory, as an
// engine.Change.
type fastScalar struct {
	po, pm unsafe.Pointer
	f      *goval.Field
	b      *jsonval.Boxes
}

func (s fastScalar) Equal() bool { return goval.FastEqual(s.po, s.pm, s.f) }

func (s fastScalar) Modified() (any, error) { return goval.FastJSONIn(s.b, s.pm, s.f), nil }

// baseChild is the base's value for field f, dereferenced; invalid when
// absent or null.
func baseChild(base reflect.Value, f *goval.Field) reflect.Value {
	v, ok := goval.FieldValue(base, f)
	if !ok {
		return reflect.Value{}
	}
	if v, null := goval.DerefNull(v); !null {
		return v
	}
	return reflect.Value{}
}
