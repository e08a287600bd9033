package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// Diffing typed maps as engine.ObjPair: maps of strings, maps of any
// other key type, and the base entries a three-way delta pairs with.

// diffMap is engine.DiffObjectOf for two non-nil maps.
func (d *tdiffer) diffMap(o, m reflect.Value, n *goval.Node, s slot) (map[string]any, bool, error) {
	if d.KeysCollide(o, n) || d.KeysCollide(m, n) {
		return d.diffMapJSON(o, m, n, s) // mapkeys.go
	}
	fr := d.pairs.push()
	defer d.pairs.pop()
	es := slot{Type: n.Elem.Schema}
	if n.StringMap {
		p := &fr.sm
		keys := p.keys[:0]
		*p = stringMapPair{d: d, om: goval.AsStringMap(o), mm: goval.AsStringMap(m), es: es}
		for k := range p.mm {
			keys = append(keys, k)
		}
		p.keys, p.nm = keys, len(keys)
		patch, up, err := engine.DiffObjectOf(d.Differ, p, &s)
		clear(p.keys) // the pair keeps its buffer, not the caller's strings
		*p = stringMapPair{keys: p.keys[:0]}
		return patch, up, err
	}
	p := &fr.gm
	t := m.Type()
	*p = mapPair{d: d, o: o, m: m, n: n, es: es, pos: goval.Pos{Node: n.Elem, Slot: es}, key: d.Take(t.Key()), mv: d.Take(t.Elem())}
	if o.Len() <= goval.SmallMap {
		p.small = d.ReadMap(o, n)
	}
	p.it.Reset(m)
	patch, up, err := engine.DiffObjectOf(d.Differ, p, &s)
	p.release()
	return patch, up, err
}

// stringMapPair reads two maps of strings, whose keys are valid UTF-8
// (KeysCollide), so each is its own JSON text, in no order.
type stringMapPair struct {
	d      *tdiffer
	om, mm map[string]string
	es     slot
	keys   []string // modified's, then the original's only
	i, nm  int
	ov, mv string
	out    map[string]any
}

func (p *stringMapPair) Out() *map[string]any { return &p.out }

func (p *stringMapPair) Next(orig, all bool) (engine.Entry, bool, error) {
	for ; p.i < p.nm; p.i++ {
		k := p.keys[p.i]
		var inO bool
		p.mv = p.mm[k]
		p.ov, inO = p.om[k]
		if !inO || all || !goval.SameWireString(p.ov, p.mv) {
			p.i++
			return engine.Entry{Name: k, InO: inO, InM: true}, true, nil
		}
	}
	if !orig {
		return engine.Entry{}, false, nil
	}
	if p.i == p.nm && len(p.keys) == p.nm {
		for k := range p.om {
			if _, ok := p.mm[k]; !ok {
				p.keys = append(p.keys, k)
			}
		}
	}
	if p.i == len(p.keys) {
		return engine.Entry{}, false, nil
	}
	k := p.keys[p.i]
	p.i++
	p.ov = p.om[k]
	return engine.Entry{Name: k, InO: true}, true, nil
}

func (p *stringMapPair) Sorted() bool { return false }

func (p *stringMapPair) ModifiedNull() bool { return false }

func (p *stringMapPair) OriginalNull() bool { return false }

func (p *stringMapPair) Added() (any, slot, error) { return goval.WireString(p.mv), p.es, nil }

func (p *stringMapPair) DiffField(patch *map[string]any, k string) (bool, error) {
	return false, engine.ReplaceIfChanged(p.d.Differ, wireStrings{p.ov, p.mv}, patch, k)
}

// wireStrings are two map values as an engine.Change.
type wireStrings struct{ ov, mv string }

func (w wireStrings) Equal() bool { return goval.SameWireString(w.ov, w.mv) }

func (w wireStrings) Modified() (any, error) { return goval.WireString(w.mv), nil }

// mapPair reads two maps of another key type in no order: modified's
// entries, read into scratch values, each looked up in the original (read
// whole into scratch arrays when small), then the original's entries
// modified lacks.
type mapPair struct {
	d        *tdiffer
	o, m     reflect.Value
	n        *goval.Node // the maps'
	es       slot
	key, mv  reflect.Value // scratch: the entry's key; modified's value
	ov       reflect.Value // the original's value, when it has the entry
	ovBig    reflect.Value // scratch for values of a big original
	small    goval.MapEntries
	found    uint64 // the small original's entries modified has
	it       reflect.MapIter
	deleting bool      // visiting the original's entries
	j        int       // the next small entry to visit, deleting
	pos      goval.Pos // the values' position
	vals     goValues
	out      map[string]any
}

func (p *mapPair) Out() *map[string]any { return &p.out }

// release gives the scratch values back.
func (p *mapPair) release() {
	d := p.d
	d.Give(p.key)
	d.Give(p.mv)
	if p.ovBig.IsValid() {
		d.Give(p.ovBig)
	}
	if p.small.Keys.IsValid() {
		d.Release(p.small)
	}
	*p = mapPair{}
}

func (p *mapPair) Next(orig, all bool) (engine.Entry, bool, error) {
	if !p.deleting {
		for p.it.Next() {
			p.key.SetIterKey(&p.it)
			p.mv.SetIterValue(&p.it)
			p.ov = reflect.Value{}
			if p.small.Keys.IsValid() {
				if j := p.small.Find(p.key); j >= 0 {
					p.ov = p.small.Vals.Index(j)
					p.found |= 1 << j
				}
			} else if p.d.MapLookup(p.o, p.key, p.bigValue()) {
				p.ov = p.ovBig
			}
			if !p.ov.IsValid() && p.d.IgnoreChanges() && !all {
				continue // an addition the pass leaves out
			}
			return p.entry(p.key, p.ov.IsValid(), true)
		}
		if !orig {
			return engine.Entry{}, false, nil
		}
		p.deleting = true
		p.it.Reset(p.o)
	}
	if !orig {
		return engine.Entry{}, false, nil
	}
	if p.small.Keys.IsValid() {
		for p.j < p.small.Len {
			j := p.j
			p.j++
			if p.found&(1<<j) == 0 {
				p.ov = p.small.Vals.Index(j)
				return p.entry(p.small.Keys.Index(j), true, false)
			}
		}
		return engine.Entry{}, false, nil
	}
	for p.it.Next() {
		p.key.SetIterKey(&p.it)
		if !p.m.MapIndex(p.key).IsValid() {
			p.ov = p.bigValue()
			p.ov.SetIterValue(&p.it)
			return p.entry(p.key, true, false)
		}
	}
	return engine.Entry{}, false, nil
}

// bigValue is the scratch value for the big original's values.
func (p *mapPair) bigValue() reflect.Value {
	if !p.ovBig.IsValid() {
		p.ovBig = p.d.Take(p.m.Type().Elem())
	}
	return p.ovBig
}

// entry names the entry of key; an error names it by the text it sorts by.
func (p *mapPair) entry(key reflect.Value, inO, inM bool) (engine.Entry, bool, error) {
	k, err := goval.MapKeyText(key, p.n)
	if err != nil {
		return engine.Entry{Name: goval.FmtKey(key)}, true, err
	}
	return engine.Entry{Name: k, InO: inO, InM: inM}, true, nil
}

func (p *mapPair) Sorted() bool { return false }

func (p *mapPair) ModifiedNull() bool { return isNullValue(p.mv, p.n.Elem) }

func (p *mapPair) OriginalNull() bool { return isNullValue(p.ov, p.n.Elem) }

func (p *mapPair) Added() (any, slot, error) {
	j, err := goval.ToJSONValue(goval.Detach(p.mv, p.n.Elem), p.n.Elem, false)
	if err != nil {
		k, _ := goval.MapKeyText(p.key, p.n)
		return nil, p.es, under(err, errpath.FieldStep(k))
	}
	return j, p.es, nil
}

func (p *mapPair) DiffField(patch *map[string]any, k string) (bool, error) {
	d, en := p.d, p.n.Elem
	v := &p.vals
	v.d, v.ov, v.mv, v.pos, v.key = d, goval.Detach(p.ov, en), goval.Detach(p.mv, en), &p.pos, p.key
	up, err := d.diffValue(patch, k, v)
	if err != nil {
		return false, under(err, errpath.FieldStep(k))
	}
	return up, nil
}

// baseEntry is the base map's value for key, dereferenced; invalid when
// absent or null.
func baseEntry(base, key reflect.Value) reflect.Value {
	if !base.IsValid() || base.Kind() != reflect.Map {
		return reflect.Value{}
	}
	v := base.MapIndex(key)
	if !v.IsValid() {
		return reflect.Value{}
	}
	if v, null := goval.DerefNull(v); !null {
		return v
	}
	return reflect.Value{}
}

// diffMapJSON diffs two maps whose keys may collide in JSON through their
// JSON, as DiffJSON diffs what json.Marshal writes for them.
func (d *tdiffer) diffMapJSON(o, m reflect.Value, n *goval.Node, s slot) (map[string]any, bool, error) {
	oj, mj, err := goval.PairJSON(o, m, n)
	if err != nil {
		return nil, false, err
	}
	saved, err := d.jsonBase(n)
	if err != nil {
		return nil, false, err
	}
	defer d.Base.Restore(saved)
	p, up, err := d.DiffObject(oj.(map[string]any), mj.(map[string]any), s, nil)
	if len(p) == 0 {
		p = nil
	}
	return p, up, err
}
