package typedwalk

import (
	"reflect"
	"slices"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Diffing typed maps: maps of any key type, their retainKeys, and the
// base entries a three-way delta pairs with.

// diffMap is Differ.DiffObject for two non-nil maps.
func (d *tdiffer) diffMap(o, m reflect.Value, n *goval.Node, s slot) (patch map[string]any, up bool, err error) {
	if d.KeysCollide(o, n) || d.KeysCollide(m, n) {
		return d.diffMapJSON(o, m, n, s) // mapkeys.go
	}
	if n.StringMap {
		om, mm := goval.AsStringMap(o), goval.AsStringMap(m)
		for k, mv := range mm {
			ov, ok := om[k]
			if !d.IgnoreChanges() && (!ok || !goval.SameWireString(ov, mv)) {
				put(&patch, goval.WireString(k), goval.WireString(mv))
			}
		}
		if !d.IgnoreDeletions() {
			for k := range om {
				if _, ok := mm[k]; !ok {
					put(&patch, goval.WireString(k), nil)
				}
			}
		}
	} else if patch, up, err = d.diffGenericMap(o, m, n); err != nil || up {
		return nil, up, err
	}
	if s.Patch.RetainKeys && d.Cfg.Directives.Understood(format.DirRetainKeys) {
		return d.mapRetainKeys(patch, o, m, n)
	}
	return patch, false, nil
}

// diffGenericMap diffs maps entry by entry, reading entries into scratch
// values: the original's entries all at once when it is small.
func (d *tdiffer) diffGenericMap(o, m reflect.Value, n *goval.Node) (patch map[string]any, up bool, err error) {
	t := m.Type()
	key, mv := d.Take(t.Key()), d.Take(t.Elem())
	defer func() { d.Give(key); d.Give(mv) }()
	var small goval.MapEntries
	var found uint64 // the small original's entries m also has
	if o.Len() <= goval.SmallMap {
		small = d.ReadMap(o, n)
		defer d.Release(small)
	}
	var ovBig reflect.Value
	var first errpath.KeyedErr // every entry is visited, so that errors do not depend on the order
	replace := false
	es := slot{Type: n.Elem.Schema}
	var it reflect.MapIter
	it.Reset(m)
	for it.Next() {
		key.SetIterKey(&it)
		mv.SetIterValue(&it)
		var ov reflect.Value
		if small.Keys.IsValid() {
			if j := small.Find(key); j >= 0 {
				ov = small.Vals.Index(j)
				found |= 1 << j
			}
		} else {
			if !ovBig.IsValid() {
				ovBig = d.Take(t.Elem())
				defer d.Give(ovBig)
			}
			if d.MapLookup(o, key, ovBig) {
				ov = ovBig
			}
		}
		if !ov.IsValid() {
			if !d.IgnoreChanges() {
				whole, errKey, err := d.addedEntry(&patch, key, mv, n, es)
				first.Keep(errKey, err) // the least key's error: mapkeys.go
				replace = replace || whole
			}
			continue
		}
		k, err := goval.MapKeyText(key, n)
		if err != nil {
			first.Keep(goval.FmtKey(key), err)
			continue
		}
		var base reflect.Value
		if d.WithBase() {
			base = d.tbase
			d.tbase = d.baseEntry(base, key)
		}
		up, err := d.diffValue(&patch, k, goval.Detach(ov, n.Elem), goval.Detach(mv, n.Elem), goval.Pos{Node: n.Elem, Slot: es})
		if d.WithBase() {
			d.tbase = base
		}
		if err != nil {
			first.Keep(k, under(err, errpath.FieldStep(k)))
			continue
		}
		replace = replace || up
	}
	if first.Err != nil || replace {
		return nil, replace && first.Err == nil, first.Err
	}
	if d.IgnoreDeletions() {
		return patch, false, nil
	}
	if err := d.deletedEntries(&patch, o, m, n, small, found); err != nil {
		return nil, false, err
	}
	return patch, false, nil
}

// addedEntry writes the entry m adds under key, with value mv. whole says
// the map must be written whole (a set in the value holds a duplicate);
// an error comes with the key it sorts by.
func (d *tdiffer) addedEntry(patch *map[string]any, key, mv reflect.Value, n *goval.Node, es slot) (whole bool, errKey string, err error) {
	k, err := goval.MapKeyText(key, n)
	if err != nil {
		return false, goval.FmtKey(key), err
	}
	j, err := goval.ToJSONValue(goval.Detach(mv, n.Elem), n.Elem, false)
	if err != nil {
		return false, k, under(err, errpath.FieldStep(k))
	}
	put(patch, k, d.Added(j, es))
	return engine.SetWithDuplicates(j, es), "", nil
}

// deletedEntries writes a deletion for each entry of o that m lacks: from
// small, with found marking the entries m has, or by lookups in m.
func (d *tdiffer) deletedEntries(patch *map[string]any, o, m reflect.Value, n *goval.Node, small goval.MapEntries, found uint64) error {
	if small.Keys.IsValid() {
		for j := range small.Len {
			if found&(1<<j) == 0 {
				k, err := goval.MapKeyText(small.Keys.Index(j), n)
				if err != nil {
					return err
				}
				put(patch, k, nil)
			}
		}
		return nil
	}
	var err error
	d.EachKey(o, func(key reflect.Value) bool {
		if m.MapIndex(key).IsValid() {
			return true
		}
		var k string
		if k, err = goval.MapKeyText(key, n); err != nil {
			return false
		}
		put(patch, k, nil)
		return true
	})
	return err
}

// baseEntry is the base map's value for key, dereferenced; invalid when
// absent or null.
func (d *tdiffer) baseEntry(base, key reflect.Value) reflect.Value {
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

// mapRetainKeys adds $retainKeys to a map's patch, as Differ.DiffObject does for
// a map field with the retainKeys strategy: every non-null key, sorted.
func (d *tdiffer) mapRetainKeys(patch map[string]any, o, m reflect.Value, n *goval.Node) (map[string]any, bool, error) {
	oj, mj, err := goval.PairJSON(o, m, n)
	if err != nil {
		return nil, false, err
	}
	mm, om := mj.(map[string]any), oj.(map[string]any)
	var retain []any
	for _, k := range jsonval.SortedKeys(mm) {
		if mm[k] != nil {
			retain = append(retain, k)
		}
	}
	if len(retain) > 0 && (len(patch) > 0 || engine.HasAdditionalField(om, mm)) {
		put(&patch, format.KeyRetainKeys, slices.Clip(retain))
	}
	return patch, false, nil
}

// diffMapJSON diffs two maps whose keys may collide in JSON through their
// JSON, as DiffJSON diffs what json.Marshal writes for them.
func (d *tdiffer) diffMapJSON(o, m reflect.Value, n *goval.Node, s slot) (map[string]any, bool, error) {
	oj, mj, err := goval.PairJSON(o, m, n)
	if err != nil {
		return nil, false, err
	}
	if d.WithBase() {
		saved := d.Differ.Base
		defer func() { d.Differ.Base = saved }()
		d.Differ.Base = nil
		if d.tbase.IsValid() {
			if d.Differ.Base, err = goval.ToJSONValue(d.tbase, n, false); err != nil {
				return nil, false, err
			}
		}
	}
	p, up, err := d.DiffObject(oj.(map[string]any), mj.(map[string]any), s, nil)
	if len(p) == 0 {
		p = nil
	}
	return p, up, err
}
