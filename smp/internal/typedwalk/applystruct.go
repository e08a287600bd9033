package typedwalk

import (
	"reflect"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// structObj is engine.MergeObjectOf's builder of a struct: dst (a
// settable zero struct) receives the merge into cur (invalid when absent
// or replaced); keep is what $retainKeys keeps of cur (nil: all). A name
// goes to its field; a name that is no field is only checked, since
// decoding drops it. named holds the fields of the names Open was given,
// in order (nil for none), in the tapplier's fields.
type structObj struct {
	a        *tapplier
	dst, cur reflect.Value
	n        *goval.Node
	keep     map[string]bool
	named    []*goval.Field
}

// Open copies the fields of cur the patch does not name and $retainKeys
// keeps: the whole struct under Share, then zeroing the others; merges
// as JSON a patch with a key naming a field in another case, which
// json.Unmarshal decides between.
func (o *structObj) Open(pm map[string]any, names []string, keep map[string]bool, replace bool, s slot, at *pathNode) (*structObj, bool, bool, error) {
	if replace {
		o.cur = reflect.Value{}
	}
	o.keep = keep
	base := len(o.a.fields)
	for _, name := range names {
		f := o.n.ByName[name]
		if f == nil && o.n.Schema.Field(name) != nil { // a field's name in another case
			o.a.fields = o.a.fields[:base]
			kept, err := o.a.objectAsJSON(o.dst, o.cur, pm, o.n, s, at)
			return o, true, kept, err
		}
		o.a.fields = append(o.a.fields, f)
	}
	named := o.a.fields[base:len(o.a.fields):len(o.a.fields)]
	o.named = named
	dst, cur, n := o.dst, o.cur, o.n
	switch {
	case !cur.IsValid():
	case o.a.Share && cur.Type() == dst.Type() && !viaPointer(n):
		// The whole struct, unexported fields too; then the fields the
		// patch names or $retainKeys drops start from zero, as below.
		dst.Set(cur)
		zeroReplaced(dst, n, named, names, keep)
	default:
		copied := copiedBy(names, keep)
		for _, f := range n.Fields {
			if !copied(f.Name) {
				continue
			}
			if fv, ok := goval.FieldValue(cur, f); ok {
				if err := o.a.CopyField(dst, fv, f); err != nil {
					o.a.soft(underPath(err, at))
				}
			}
		}
	}
	return o, false, false, nil
}

// copiedBy returns whether a live field or entry of that name is copied
// as it is: the patch does not name it and $retainKeys keeps it.
func copiedBy(names []string, keep map[string]bool) func(name string) bool {
	named := make(map[string]bool, len(names))
	for _, name := range names {
		named[name] = true
	}
	return func(name string) bool { return !named[name] && (keep == nil || keep[name]) }
}

// zeroReplaced zeroes the fields of dst, a struct of n's copied whole,
// that are not copied as they are: those the patch names (named, of
// names) and those $retainKeys drops.
func zeroReplaced(dst reflect.Value, n *goval.Node, named []*goval.Field, names []string, keep map[string]bool) {
	if keep != nil {
		copied := copiedBy(names, keep)
		for _, f := range n.Fields {
			if !copied(f.Name) {
				dst.FieldByIndex(f.Index).SetZero()
			}
		}
		return
	}
	for _, f := range named {
		if f != nil {
			dst.FieldByIndex(f.Index).SetZero()
		}
	}
}

func (o *structObj) Place(i int, name string) (*goval.Field, *slot, bool) {
	f := o.named[i]
	if f == nil {
		return nil, nil, false
	}
	return f, &f.Slot, true
}

// Plain is nil: a struct is no decoded JSON.
func (o *structObj) Plain() map[string]any { return nil }

// Remove leaves f zero: Open copied nothing into it.
func (o *structObj) Remove(*goval.Field) {}

// Set stores v in field f; the field's path is made only for an error,
// which is found with paths below it and then put under it.
func (o *structObj) Set(f *goval.Field, v any, name string, at *pathNode) error {
	if !f.ViaPtr { // intoField's common case, without its closure
		o.set(o.dst.FieldByIndex(f.Index), f, v, name, at)
		return nil
	}
	err := o.a.intoField(o.dst, f, nil, func(fv reflect.Value) (bool, error) {
		o.set(fv, f, v, name, at)
		return true, nil
	})
	if err != nil {
		return underPath(err, at.Field(name))
	}
	return nil
}

// set stores v in fv, field f named name; a failure is soft.
func (o *structObj) set(fv reflect.Value, f *goval.Field, v any, name string, at *pathNode) {
	if err := goval.FromJSONValue(fv, v, f.Node, f.Quoted, nil); err != nil {
		o.a.soft(underPath(err, at.Field(name)))
	}
}

// live returns cur's field f, unless $retainKeys drops it.
func (o *structObj) live(f *goval.Field) (reflect.Value, bool) {
	if o.cur.IsValid() && (o.keep == nil || o.keep[f.Name]) {
		return goval.FieldValue(o.cur, f)
	}
	return reflect.Value{}, false
}

func (o *structObj) Merge(f *goval.Field, pv any, c slot, at *pathNode) error {
	cv, present := o.live(f)
	if !present {
		cv = reflect.Value{}
	}
	return o.a.intoField(o.dst, f, at, func(fv reflect.Value) (bool, error) {
		_, keep, err := engine.MergeValueOf(&o.a.Applier, goValue{a: o.a, dv: fv, cv: cv, p: f.Pos}, pv, c, at)
		return keep, err
	})
}

// LiveList reports the live list as present; MergeList reads it.
func (o *structObj) LiveList(f *goval.Field) ([]any, bool, bool, any) {
	cv, present := o.live(f)
	if !present {
		return nil, false, false, nil
	}
	_, null := goval.DerefNull(cv)
	return nil, !null, true, nil
}

// KeepNull makes the embedded structs on the way to f, as decoding the
// key would.
func (o *structObj) KeepNull(f *goval.Field, at *pathNode) error {
	_, err := goval.SettableField(o.dst, f)
	return underPath(err, at)
}

func (o *structObj) MergeList(f *goval.Field, in engine.ListInput, c slot, at *pathNode) error {
	var list reflect.Value
	if in.OrigPresent {
		cv, _ := o.live(f)
		list, _ = goval.DerefNull(cv)
	}
	return o.a.intoField(o.dst, f, at, func(fv reflect.Value) (bool, error) {
		return true, o.a.mergeListTyped(fv, list, in, f.Node, c, at)
	})
}

// intoField runs fill on field f of dst. A field behind an embedded
// pointer is filled in a temporary first, so that a value the merge drops
// makes no embedded struct.
func (a *tapplier) intoField(dst reflect.Value, f *goval.Field, at *pathNode, fill func(reflect.Value) (bool, error)) error {
	if !f.ViaPtr {
		fv := dst.FieldByIndex(f.Index)
		keep, err := fill(fv)
		if err == nil && !keep {
			fv.SetZero()
		}
		return err
	}
	tmp := reflect.New(f.Meta.GoType).Elem()
	keep, err := fill(tmp)
	if err != nil || !keep {
		return err
	}
	fv, err := goval.SettableField(dst, f)
	if err != nil {
		return underPath(err, at)
	}
	fv.Set(tmp)
	return nil
}
