package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// mergeMap is MergeObject for a map with string keys: it fills dst (a
// settable zero map) with the merge of patch object pm into cur (invalid
// when absent, null or replaced). Entries the patch does not name are
// deep-copied from cur, the ones it names merged in Go. A map whose keys
// are not each their own JSON text merges as JSON. keep is false when the
// map is to be removed. A map's values are never merge lists in a schema
// read from Go types, so SplitObjectPatch has refused any list directive
// for an entry.
func (a *tapplier) mergeMap(dst, cur reflect.Value, pm map[string]any, n *goval.Node, s slot, at *pathNode) (bool, error) {
	op, cur, err := a.openPatch(pm, cur, s, at)
	if err != nil || op.deleted {
		return false, err
	}
	if a.keysCollide(cur, n) {
		return a.objectAsJSON(dst, cur, pm, n, s, at)
	}
	size := len(op.p.Names)
	if cur.IsValid() {
		size += cur.Len()
	}
	m := mapMerge{out: reflect.MakeMapWithSize(dst.Type(), size), cur: cur, n: n, s: s, at: at}
	if cur.IsValid() {
		a.soft(underPath(a.copyUnnamed(&m, op), at))
	}
	// As in MergeObject, the least name's error wins.
	var first errpath.KeyedErr
	for _, name := range op.p.Names {
		first.Keep(name, a.mergeEntry(&m, pm[name], name))
	}
	if first.Err != nil {
		return false, first.Err
	}
	dst.Set(m.out)
	return true, nil
}

// mapMerge is one map being merged: the result and the live map (invalid
// when absent).
type mapMerge struct {
	out, cur reflect.Value
	n        *goval.Node
	s        slot
	at       *pathNode
}

// keysCollide reports a live map whose keys are not their own JSON text,
// which the typed merge leaves to MergeObject.
func (a *tapplier) keysCollide(cur reflect.Value, n *goval.Node) bool {
	if !cur.IsValid() {
		return false
	}
	sc := goval.GetScratch()
	defer goval.PutScratch(sc)
	return sc.KeysCollide(cur, n)
}

// copyUnnamed copies the live entries that the patch does not name and
// $retainKeys keeps.
func (a *tapplier) copyUnnamed(m *mapMerge, op openedPatch) error {
	copied := op.copied()
	var first errpath.KeyedErr
	for it := m.cur.MapRange(); it.Next(); {
		k := it.Key().String()
		if !copied(k) {
			continue
		}
		v := reflect.New(m.out.Type().Elem()).Elem()
		if err := a.CopyValue(v, it.Value(), m.n.Elem); err != nil {
			first.Keep(k, under(err, errpath.FieldStep(k)))
		}
		m.out.SetMapIndex(it.Key(), v)
	}
	return first.Err
}

// mergeEntry merges patch value pv into entry name.
func (a *tapplier) mergeEntry(m *mapMerge, pv any, name string) error {
	if pv == nil {
		return nil // deleted
	}
	key := reflect.ValueOf(name).Convert(m.out.Type().Key())
	var cv reflect.Value
	if m.cur.IsValid() { // $retainKeys lists every entry the patch sets
		cv = m.cur.MapIndex(key)
	}
	v := reflect.New(m.out.Type().Elem()).Elem()
	kept, err := a.mergeValueTyped(v, cv, pv, goval.Pos{Node: m.n.Elem, Slot: m.s.Child(name)}, m.at.Field(name))
	if err != nil || !kept {
		return err
	}
	m.out.SetMapIndex(key, v)
	return nil
}
