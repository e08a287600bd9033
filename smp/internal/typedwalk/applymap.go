package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// mergeMap is MergeObject for a map with string keys: it fills dst (a
// settable zero map) with the merge of patch object pm into cur (invalid
// when absent, null or replaced). keep is false when the map is to be
// removed.
func (a *tapplier) mergeMap(dst, cur reflect.Value, pm map[string]any, n *goval.Node, s slot, at *pathNode) (bool, error) {
	m, keep, err := engine.MergeObjectOf(&a.Applier, mapObj{a: a, dst: dst, cur: cur, n: n}, pm, s, false, at)
	if err != nil || !keep {
		return false, err
	}
	if m.out.IsValid() {
		dst.Set(m.out)
	}
	return true, nil
}

// mapObj is engine.MergeObjectOf's builder of a map with string keys:
// the result out (made by Open, unless the map merges as JSON) receives
// the merge into cur (invalid when absent or replaced). Entries the
// patch does not name are deep-copied from cur, the ones it names merged
// in Go. A map's values are never merge lists in a schema read from Go
// types, so SplitObjectPatch has refused any list directive for an
// entry.
type mapObj struct {
	a             *tapplier
	dst, out, cur reflect.Value
	n             *goval.Node
}

// Open merges as JSON a map whose keys are not each their own JSON text,
// and otherwise copies the live entries the patch does not name and
// $retainKeys keeps.
func (o mapObj) Open(pm map[string]any, names []string, keep map[string]bool, replace bool, s slot, at *pathNode) (mapObj, bool, bool, error) {
	if replace {
		o.cur = reflect.Value{}
	}
	if o.a.keysCollide(o.cur, o.n) {
		kept, err := o.a.objectAsJSON(o.dst, o.cur, pm, o.n, s, at)
		return o, true, kept, err
	}
	size := len(names)
	if o.cur.IsValid() {
		size += o.cur.Len()
	}
	o.out = reflect.MakeMapWithSize(o.dst.Type(), size)
	if o.cur.IsValid() {
		o.a.soft(underPath(o.copyUnnamed(copiedBy(names, keep)), at))
	}
	return o, false, false, nil
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

// copyUnnamed copies the live entries that copied says are copied as
// they are.
func (o mapObj) copyUnnamed(copied func(string) bool) error {
	var first errpath.KeyedErr
	for it := o.cur.MapRange(); it.Next(); {
		k := it.Key().String()
		if !copied(k) {
			continue
		}
		v := reflect.New(o.out.Type().Elem()).Elem()
		if err := o.a.CopyValue(v, it.Value(), o.n.Elem); err != nil {
			first.Keep(k, under(err, errpath.FieldStep(k)))
		}
		o.out.SetMapIndex(it.Key(), v)
	}
	return first.Err
}

func (o mapObj) Place(_ int, name string) (string, *slot, bool) { return name, nil, true }

// Plain is nil: a Go map is no decoded JSON.
func (o mapObj) Plain() map[string]any { return nil }

// Remove leaves the entry out: Open copied nothing into it.
func (o mapObj) Remove(string) {}

// entry returns a new entry value, and the live one (invalid when
// absent); $retainKeys lists every entry the patch sets.
func (o mapObj) entry(name string) (key, v, cv reflect.Value) {
	key = reflect.ValueOf(name).Convert(o.out.Type().Key())
	if o.cur.IsValid() {
		cv = o.cur.MapIndex(key)
	}
	return key, reflect.New(o.out.Type().Elem()).Elem(), cv
}

func (o mapObj) Set(name string, pv any, _ string, at *pathNode) error {
	key, v, _ := o.entry(name)
	o.a.soft(goval.FromJSONValue(v, pv, o.n.Elem, false, at.Field(name)))
	o.out.SetMapIndex(key, v)
	return nil
}

func (o mapObj) Merge(name string, pv any, c slot, at *pathNode) error {
	key, v, cv := o.entry(name)
	_, kept, err := engine.MergeValueOf(&o.a.Applier, goValue{a: o.a, dv: v, cv: cv, p: goval.Pos{Node: o.n.Elem, Slot: c}}, pv, c, at)
	if err != nil || !kept {
		return err
	}
	o.out.SetMapIndex(key, v)
	return nil
}

func (o mapObj) LiveList(name string) ([]any, bool, bool, any) {
	_, _, cv := o.entry(name)
	if !cv.IsValid() {
		return nil, false, false, nil
	}
	_, null := goval.DerefNull(cv)
	return nil, !null, true, nil
}

func (o mapObj) KeepNull(name string, _ *pathNode) error {
	key, v, _ := o.entry(name)
	o.out.SetMapIndex(key, v)
	return nil
}

func (o mapObj) MergeList(name string, in engine.ListInput, c slot, at *pathNode) error {
	key, v, cv := o.entry(name)
	list, _ := goval.DerefNull(cv)
	if !in.OrigPresent {
		list = reflect.Value{}
	}
	if err := o.a.mergeListTyped(v, list, in, o.n.Elem, c, at); err != nil {
		return err
	}
	o.out.SetMapIndex(key, v)
	return nil
}
