package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// One object diffed against another, written once for every
// representation: an ObjPair reads the two objects (decoded JSON here,
// jsonPair; Go structs and maps in typedwalk) and DiffObjectOf decides
// what the patch says.

// Entry is a name an ObjPair visits, and which objects hold it.
type Entry struct {
	Name     string
	InO, InM bool
}

// An ObjPair reads two objects side by side for DiffObjectOf. Next moves
// to an entry, which the other methods then read.
type ObjPair interface {
	// Next moves to the next entry; ok is false when there is none. The
	// names modified holds come first, then, when orig asks, those only
	// the original holds. A pair may skip an entry whose values it knows
	// equal (it writes nothing), unless all asks. An error is the name's
	// own (its JSON text cannot be made), and Entry.Name is then the text
	// the error sorts by.
	Next(orig, all bool) (e Entry, ok bool, err error)
	// Sorted reports whether names come in sorted order. If not, every
	// name is visited, and the least name's error wins over a replace.
	Sorted() bool
	// ModifiedNull and OriginalNull report whether a value is null.
	ModifiedNull() bool
	OriginalNull() bool
	// Added is modified's value as decoded JSON, and its slot.
	Added() (any, slot, error)
	// DiffField writes into patch what turns the original's value into
	// modified's, both objects holding the name.
	DiffField(patch *map[string]any, k string) (replaceUp bool, err error)
	// Out is the patch being written, nil until it has a key: kept by the
	// pair, which outlives the call, so that it costs no allocation.
	Out() *map[string]any
}

// DiffObjectOf returns the patch turning p's original object into its
// modified one, at slot s: nil when empty. replaceUp asks the caller to
// replace the whole object: a value inside cannot be patched (a list of
// scalars holding a value twice).
func DiffObjectOf[P ObjPair](d *Differ, p P, s *slot) (map[string]any, bool, error) {
	patch := p.Out()
	buildRetain := s.Patch.RetainKeys && d.Cfg.Directives.Understood(format.DirRetainKeys)
	sorted := p.Sorted()
	var retain []any
	var first errpath.KeyedErr
	replace, additional := false, false
	for {
		orig := (!d.ignoreDeletions() || buildRetain) && first.Err == nil && !replace
		e, ok, err := p.Next(orig, buildRetain)
		if !ok {
			break
		}
		up := false
		switch {
		case err != nil:
		case !e.InM:
			if !d.ignoreDeletions() {
				Put(patch, e.Name, nil)
			}
			additional = additional || buildRetain && !p.OriginalNull()
			continue
		default:
			if buildRetain && !p.ModifiedNull() {
				retain = append(retain, e.Name)
			}
			if e.InO {
				up, err = p.DiffField(patch, e.Name)
			} else if !d.IgnoreChanges() {
				var v any
				var c slot
				if v, c, err = p.Added(); err == nil {
					up = d.addField(patch, e.Name, v, c)
				}
			}
		}
		if err != nil {
			if sorted {
				return nil, false, err
			}
			first.Keep(e.Name, err)
		}
		if up {
			if sorted {
				return nil, true, nil
			}
			replace = true
		}
	}
	if first.Err != nil || replace {
		return nil, replace && first.Err == nil, first.Err
	}
	if len(retain) > 0 && (len(*patch) > 0 || additional) {
		if !sorted {
			slices.SortFunc(retain, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
		}
		Put(patch, format.KeyRetainKeys, retain)
	}
	return *patch, false, nil
}

// addField writes v, a value modified adds or whose kind changed, whole
// under k (Added), in a pass that writes additions (the callers ask).
// replaceUp says it cannot: v is a set holding a value twice, so the
// object holding it is replaced.
func (d *Differ) addField(patch *map[string]any, k string, v any, c slot) (replaceUp bool) {
	if setWithDuplicates(v, c) {
		return true
	}
	Put(patch, k, d.Added(v, c))
	return false
}

// Put sets a patch key, making the patch on first use.
func Put(p *map[string]any, k string, v any) {
	if *p == nil {
		*p = make(map[string]any)
	}
	(*p)[k] = v
}

// jsonPair is two decoded JSON objects as an ObjPair: modified's keys in
// sorted order, then the original's that modified lacks.
type jsonPair struct {
	d      *Differ
	om, mm map[string]any
	s      slot
	c      slot // the field's, while DiffField runs (schema only, not cleared)
	at     *pathNode
	keys   []string // modified's sorted, then the original's only; the buffer stays for the next object at this depth
	i      int
	nm     int // how many keys are modified's
	shared int // keys of om that mm has, among those visited
	ov, mv any
	out    map[string]any
	small  [8]string // the first buffer of keys
}

// jsonPairs are DiffObject's pairs, one per depth of nested objects,
// kept in a pool between top-level objects.
type jsonPairs struct {
	frames []*jsonPair
	used   int
}

var jsonPairPool = sync.Pool{New: func() any { return &jsonPairs{} }}

// pairAt returns the pair for an object at the next depth of nesting,
// its key buffer empty; donePair gives it back.
func (d *Differ) pairAt() *jsonPair {
	if d.pairs == nil {
		d.pairs = jsonPairPool.Get().(*jsonPairs)
	}
	ps := d.pairs
	if ps.used == len(ps.frames) {
		p := &jsonPair{}
		p.keys = p.small[:0]
		ps.frames = append(ps.frames, p)
	}
	ps.used++
	return ps.frames[ps.used-1]
}

// donePair clears the deepest pair, so that the pool holds nothing of the
// documents, and returns the frames to the pool when none is in use.
func (d *Differ) donePair(p *jsonPair) {
	clear(p.keys)
	p.keys = p.keys[:0]
	p.d, p.om, p.mm, p.s, p.at, p.ov, p.mv, p.out = nil, nil, nil, slot{}, nil, nil, nil, nil
	d.pairs.used--
	if d.pairs.used == 0 {
		jsonPairPool.Put(d.pairs)
		d.pairs = nil
	}
}

func (p *jsonPair) Next(orig, all bool) (Entry, bool, error) {
	for p.i < p.nm {
		k := p.keys[p.i]
		p.i++
		var inO bool
		p.mv = p.mm[k]
		if p.ov, inO = p.om[k]; inO {
			p.shared++
			if !all && sameScalar(p.ov, p.mv) {
				continue
			}
		}
		return Entry{Name: k, InO: inO, InM: true}, true, nil
	}
	if !orig {
		return Entry{}, false, nil
	}
	if p.i == p.nm && p.shared < len(p.om) {
		for k := range p.om {
			if _, ok := p.mm[k]; !ok {
				p.keys = append(p.keys, k)
			}
		}
		p.shared = len(p.om) // collected
	}
	if p.i >= len(p.keys) {
		return Entry{}, false, nil
	}
	k := p.keys[p.i]
	p.i++
	p.ov, p.mv = p.om[k], nil
	return Entry{Name: k, InO: true}, true, nil
}

// sameScalar reports two strings, numbers of one text or booleans that
// are equal: values a patch never writes.
func sameScalar(a, b any) bool {
	switch a.(type) {
	case string, json.Number, bool:
		return jsonval.Equal(a, b)
	}
	return false
}

func (p *jsonPair) Sorted() bool { return true }

func (p *jsonPair) Out() *map[string]any { return &p.out }

func (p *jsonPair) ModifiedNull() bool { return p.mv == nil }

func (p *jsonPair) OriginalNull() bool { return p.ov == nil }

func (p *jsonPair) Added() (any, slot, error) { return p.mv, p.s.Child(p.keys[p.i-1]), nil }

func (p *jsonPair) DiffField(patch *map[string]any, k string) (bool, error) {
	p.c = p.s.Child(k)
	v := jsonField{d: p.d, ov: p.ov, mv: p.mv, k: k, parent: p.at, named: true}
	return DiffFieldOf(p.d, &p.d.Base, v, patch, k, &p.c)
}
