package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// diffList is differ.diffList for two non-null lists of node n. Merge
// lists of structs and of maps with string keys, and lists of scalars,
// are diffed on Go values; other lists (untyped values, marshallers,
// lists of lists) go to the JSON engine once they are known to differ.
func (d *tdiffer) diffList(patch *map[string]any, k string, o, m reflect.Value, n *goval.Node, c slot) (bool, error) {
	if !c.IsObjectList() && (n.Elem.Kind != reflectschema.Scalar || n.Elem.Marshaler) {
		// Before the empty list's case: an element may be no scalar.
		return d.diffMarshalledSet(patch, k, o, m, n, c)
	}
	if o.Len() == 0 {
		if m.Len() == 0 {
			return false, nil
		}
		return engine.AddFieldOf(d.Differ, goList{m, n}, patch, k, &c)
	}
	if c.IsObjectList() && goObjElems(n.Elem, o, m, d.base.At) {
		return false, d.diffObjList(patch, k, o, m, n, c)
	}
	// Equal lists yield nothing, but for the pairing of repeated keys
	// (KeyedOnly) with elements that differ.
	if (!c.IsObjectList() || !d.KeyedOnly()) && d.Equal(o, m, n) {
		return false, nil
	}
	if !c.IsObjectList() {
		return d.diffSetTyped(patch, k, o, m, n)
	}
	ol, ml, err := listsJSON(o, m, n)
	if err != nil {
		return false, err
	}
	if *patch == nil {
		*patch = map[string]any{}
	}
	saved, err := d.jsonBase(n)
	if err != nil {
		return false, err
	}
	defer d.Base.Restore(saved)
	return false, d.DiffObjectList(*patch, k, ol, ml, c, nil)
}

// goList is a list modified holds, as an engine.ModifiedValue.
type goList struct {
	m reflect.Value
	n *goval.Node
}

func (l goList) Modified() (any, error) { return goval.ListToJSON(l.m, l.n) }

// listsJSON is o's and m's JSON.
func listsJSON(o, m reflect.Value, n *goval.Node) (ol, ml []any, err error) {
	if ol, err = goval.ListToJSON(o, n); err != nil {
		return nil, nil, err
	}
	ml, err = goval.ListToJSON(m, n)
	return ol, ml, err
}

// diffMarshalledSet diffs a merge list of values that marshal themselves
// (or of lists) as JSON: only their JSON says whether each is a scalar,
// which the JSON differ checks before it compares the lists.
func (d *tdiffer) diffMarshalledSet(patch *map[string]any, k string, o, m reflect.Value, n *goval.Node, c slot) (bool, error) {
	ol, ml, err := listsJSON(o, m, n)
	if err != nil {
		return false, err
	}
	lp := map[string]any{}
	up, err := d.DiffList(lp, k, ol, ml, c, nil)
	if err != nil || up {
		return up, err
	}
	for key, v := range lp {
		put(patch, key, v)
	}
	return false, nil
}

// diffSetTyped is Differ.DiffScalarList for a typed list of scalars: PlanSetDiff
// on the values' identities; only the values the patch holds become JSON.
func (d *tdiffer) diffSetTyped(patch *map[string]any, k string, o, m reflect.Value, n *goval.Node) (bool, error) {
	oids, err := scalarIDsTyped(o, n.Elem)
	if err != nil {
		return false, err
	}
	mids, err := scalarIDsTyped(m, n.Elem)
	if err != nil {
		return false, err
	}
	sd := d.PlanSetDiff(oids, mids)
	if sd.Whole || len(sd.Adds)+len(sd.Dels) == 0 && !sd.Order {
		return sd.Whole, nil
	}
	if *patch == nil {
		*patch = map[string]any{}
	}
	return false, engine.WriteSetDiff(sd, *patch, k, &typedValues{o, m, n})
}

// scalarIDsTyped is scalarIDs for a typed list of scalars.
func scalarIDsTyped(l reflect.Value, en *goval.Node) ([]string, error) {
	ids := make([]string, l.Len())
	for i := range ids {
		id, err := scalarID(l.Index(i), en, i)
		if err != nil {
			return nil, under(err, errpath.IndexStep(i))
		}
		ids[i] = id
	}
	return ids, nil
}

// typedValues are the typed differ's set values.
type typedValues struct {
	o, m reflect.Value
	n    *goval.Node // the lists' node
}

func (t *typedValues) Original(i int) (any, error) { return elemJSON(t.o, i, t.n.Elem) }

func (t *typedValues) Modified(i int) (any, error) { return elemJSON(t.m, i, t.n.Elem) }

// elemJSON is element i of list l, of node en, as JSON.
func elemJSON(l reflect.Value, i int, en *goval.Node) (any, error) {
	v, err := goval.ToJSONValue(l.Index(i), en, false)
	if err != nil {
		return nil, under(err, errpath.IndexStep(i))
	}
	return v, nil
}

func (t *typedValues) ModifiedList() ([]any, error) { return goval.ListToJSON(t.m, t.n) }

// jsonBase hands the JSON engine, diffing a value of node n, the base in
// decoded form (Differ.Base), and returns the one to restore.
func (d *tdiffer) jsonBase(n *goval.Node) (saved any, err error) {
	var b any
	if d.WithBase() && d.base.At.IsValid() {
		if b, err = goval.ToJSONValue(d.base.At, n, false); err != nil {
			return nil, err
		}
	}
	return d.Base.Descend(b), nil
}

// diffObjList is Differ.DiffObjectList for merge lists of structs or of maps
// with string keys (goObjElems). Lists whose
// elements keep their keys and places (the common case) are diffed
// element by element without allocating; others by objList, on Go values.
func (d *tdiffer) diffObjList(patch *map[string]any, k string, o, m reflect.Value, n *goval.Node, c slot) error {
	ks := d.ListKeySet(c)
	def := format.KeysOf(c).DefaultSet()
	// The deletions half of a three-way patch may rename elements by
	// current's keys (liveRename), which only objList does.
	renames := d.WithBase() && d.IgnoreChanges() && ks.Directive
	if !renames && d.positional(o, m, n.Elem, ks, def) {
		x := &tstructList{d: d, k: k, o: o, m: m, n: n, en: n.Elem, es: c.Elem(), ks: ks}
		return x.diffPositional(patch)
	}
	w := &objElems{d: d, n: n, es: c.Elem(), ks: ks}
	w.items[0], w.items[1] = objItems{cur: o, n: n.Elem}, objItems{cur: m, n: n.Elem}
	w.o, w.m = &w.items[0], &w.items[1]
	w.sides = [3]diffItems{{w.o, d}, {w.m, d}}
	var b engine.DiffSide
	if base := d.base.At; d.WithBase() && base.IsValid() && (base.Kind() == reflect.Slice || base.Kind() == reflect.Array) {
		w.b = &objItems{cur: base, n: n.Elem}
		w.sides[2] = diffItems{w.b, d}
		b = &w.sides[2]
	}
	out := *patch
	if out == nil {
		out = map[string]any{}
	}
	x := d.NewObjList(w, &w.sides[0], &w.sides[1], b, c)
	if err := x.Diff(out, k); err != nil {
		return err
	}
	for _, side := range []*objItems{w.o, w.m, w.b} {
		if side != nil && side.err != nil {
			return side.err
		}
	}
	if len(out) > 0 {
		*patch = out
	}
	return nil
}

// objElems is the typed differ's side of objList: elements are
// structs, or pointers to them.
type objElems struct {
	d       *tdiffer
	o, m, b *objItems    // b, the followed document's list, or nil
	items   [2]objItems  // what o and m point to
	sides   [3]diffItems // o, m and b as ObjList reads them
	n       *goval.Node  // the list's node
	es      slot
	ks      format.KeySet
}

func (w *objElems) DiffElem(p, i, b int) (map[string]any, bool, error) {
	d, en := w.d, w.n.Elem
	oe, _ := goval.DerefNull(w.o.cur.Index(p))
	me, _ := goval.DerefNull(w.m.cur.Index(i))
	var below uintptr
	if d.memorySkips() {
		if en.Kind != reflectschema.Struct {
			if d.SameMemory(oe, me, en) {
				return nil, false, nil
			}
		} else if same, upTo := d.SameMemoryUpTo(oe, me, en); same {
			return nil, false, nil
		} else {
			below = upTo
		}
	}
	if d.WithBase() {
		var be reflect.Value
		if b >= 0 {
			be, _ = goval.DerefNull(w.b.cur.Index(b))
		}
		defer d.base.Restore(d.base.Descend(be))
	}
	diff := d.diffStruct
	if en.Kind != reflectschema.Struct {
		diff = d.diffMap
	}
	d.equalBelow = below
	sub, up, err := diff(oe, me, en, w.es)
	if err != nil {
		return nil, false, under(err, goval.KeyStepOf(me, en, w.ks))
	}
	return sub, up, nil
}

func (w *objElems) Added(i int) (map[string]any, error) {
	me, _ := goval.DerefNull(w.m.cur.Index(i))
	j, err := goval.ToJSONValue(me, w.n.Elem, false)
	if err != nil {
		return nil, under(err, goval.KeyStepOf(me, w.n.Elem, w.ks))
	}
	return j.(map[string]any), nil
}

func (w *objElems) Lists(original bool) (ol, ml []any, err error) {
	if original {
		if ol, err = goval.ListToJSON(w.o.cur, w.n); err != nil {
			return nil, nil, err
		}
	}
	ml, err = goval.ListToJSON(w.m.cur, w.n)
	return ol, ml, err
}

func (w *objElems) Equal() bool { return w.d.Equal(w.o.cur, w.m.cur, w.n) }

// replaceWholeList writes the list as a replacement, as DiffObjectList
// does when an element cannot be patched.
func (d *tdiffer) replaceWholeList(patch *map[string]any, k string, m reflect.Value, n *goval.Node) error {
	return engine.Write(d.Differ, replacedList{goList{m, n}}, patch, k)
}

// replacedList is a list modified holds, replaced whole.
type replacedList struct{ goList }

func (r replacedList) Modified() (any, error) {
	ml, err := goval.ListToJSON(r.m, r.n)
	if err != nil {
		return nil, err
	}
	return engine.ReplaceList(ml), nil
}

// addKeyFields copies an element's key fields into its patch.
func addKeyFields(dst map[string]any, e reflect.Value, en *goval.Node, ks format.KeySet) error {
	for _, name := range ks.Fields {
		j, ok, err := keyJSON(e, en, name)
		if err != nil {
			return err
		}
		if ok {
			dst[name] = j
		}
	}
	return nil
}

// keyJSON is goval.KeyJSON, reading a plain key field from memory.
func keyJSON(e reflect.Value, en *goval.Node, name string) (any, bool, error) {
	if j, ok, done := goval.FastKeyJSON(e, en, name); done {
		return j, ok, nil
	}
	return goval.KeyJSON(e, en, name)
}

// setOrderList is the $setElementOrder list of a modified list.
func (d *tdiffer) setOrderList(m reflect.Value, en *goval.Node, ks format.KeySet) ([]any, error) {
	order := make([]any, m.Len())
	var kfa [4]*goval.Field
	kf, plain := d.keyFields(en, ks, kfa[:0])
	for _, f := range kf {
		plain = plain && f.FastScalar()
	}
	items := objItems{cur: m, n: en}
	for i := range order {
		entry := make(map[string]any, len(ks.Fields)+1)
		var me reflect.Value
		p := items.elemBase(i) // a struct held in place, read there
		if p == nil {
			me, _ = goval.DerefNull(m.Index(i))
			p, _ = goval.StructBase(me)
		}
		if plain && p != nil {
			// Plain key fields, resolved once, read from memory.
			for _, f := range kf {
				if goval.FastPresent(p, f) {
					entry[f.Name] = goval.FastJSONIn(&d.boxes, p, f)
				}
			}
		} else {
			if !me.IsValid() {
				me = m.Index(i)
			}
			if err := addKeyFields(entry, me, en, ks); err != nil {
				return nil, err
			}
		}
		order[i] = engine.WithKeyDirective(entry, ks, true)
	}
	return order, nil
}

// goObjElems reports whether merge-list elements of node en are merged
// and diffed on Go values: structs, or maps with string keys each its own
// JSON text in every list of ls (invalid or non-list values skipped), so
// that a key field is the entry of its name.
func goObjElems(en *goval.Node, ls ...reflect.Value) bool {
	if en.Kind == reflectschema.Struct {
		return true
	}
	if !en.StringKeys() {
		return false
	}
	sc := goval.GetScratch()
	defer goval.PutScratch(sc)
	for _, l := range ls {
		if !l.IsValid() || l.Kind() != reflect.Slice && l.Kind() != reflect.Array {
			continue
		}
		for i := range l.Len() {
			if e, null := goval.DerefNull(l.Index(i)); !null && sc.KeysCollide(e, en) {
				return false
			}
		}
	}
	return true
}
