package engine

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// A patch object merged into a live object, and a patch value into a live
// value, written once for every representation: an ObjBuilder holds the
// live object and builds the result (decoded JSON here, jsonObj; Go
// structs and maps in typedwalk), a ValueSink the same for one value;
// MergeObjectOf and MergeValueOf decide what the patch says.

// An ObjBuilder reads a live object and builds its merge for
// MergeObjectOf. B is the builder's own type, F a name's place in it.
type ObjBuilder[B, F any] interface {
	// Open starts the result: empty when replace, else the live object
	// less the entries keep (nil: all) drops; the entries names lists
	// may be left out, as each is then set or removed. done says the
	// builder merged the whole patch object itself (kept: the object
	// stays).
	Open(pm map[string]any, names []string, keep map[string]bool, replace bool, s slot, at *pathNode) (b B, done, kept bool, err error)
	// Place returns where name, names[i] of Open's names, goes and its
	// slot, c, when the builder has it at hand (nil: s.Child(name));
	// held is false for a name the result cannot hold (its value is then
	// only checked).
	Place(i int, name string) (f F, c *slot, held bool)
	// Plain returns the result when it is a decoded JSON object, into
	// which MergeObjectOf writes scalars and nulls itself (the hot
	// leaf), and nil otherwise.
	Plain() map[string]any
	// Remove removes f from the result.
	Remove(f F)
	// Set stores decoded JSON value v at f, named name in the object at
	// at.
	Set(f F, v any, name string, at *pathNode) error
	// Merge merges patch value pv into the live value at f
	// (MergeValueOf) and stores the result, or removes f.
	Merge(f F, pv any, c slot, at *pathNode) error
	// LiveList reads the live value at f for a list the patch directs:
	// orig (as decoded JSON or not read) and whether it is a list
	// (isList), whether there is a value (present), and a value that is
	// neither a list nor null (other).
	LiveList(f F) (orig []any, isList, present bool, other any)
	// KeepNull keeps a live null at f that the patch leaves alone.
	KeepNull(f F, at *pathNode) error
	// MergeList merges the list input in into the live list at f.
	MergeList(f F, in ListInput, c slot, at *pathNode) error
}

// MergeObjectOf merges patch object pm into b's live object at slot s:
// $patch, $retainKeys, then every name the patch holds, the least
// name's error winning. replace starts from an empty object. kept is
// false when the object is to be removed.
func MergeObjectOf[B ObjBuilder[B, F], F any](a *Applier, b B, pm map[string]any, s slot, replace bool, at *pathNode) (res B, kept bool, err error) {
	if a.names == nil {
		a.names = a.nameBuf[:0]
	}
	base := len(a.names)
	var p ObjectPatch
	// One pass over the patch's keys; $patch and $retainKeys, which it
	// finds too, come first, and their errors before its.
	splitErr := a.SplitObjectPatch(pm, s, at, a.names[base:], &p)
	if p.hasPatch {
		d, err := format.PatchDirective(p.patch, false, at)
		if err != nil || d == format.PatchDelete {
			return b, false, err
		}
		replace = true
	}
	keep, err := a.retainedKeys(pm, p.retain, p.hasRetain, s, at)
	if err != nil {
		return b, false, err
	}
	if splitErr != nil {
		return b, false, splitErr
	}
	a.keepNames(base, p.Names)
	b, done, kept, err := b.Open(pm, p.Names, keep, replace, s, at)
	if done || err != nil {
		a.names = a.names[:base]
		return b, kept && err == nil, err
	}
	// Every name is merged, in the map's order; the least name's error
	// wins, so errors do not depend on that order and no sort is needed.
	m := objMerge[B, F]{a: a, b: b, plain: b.Plain(), pm: pm, at: at}
	var first errpath.KeyedErr
	for i, name := range p.Names {
		first.Keep(name, m.name(i, name, &p, &s))
	}
	a.names = a.names[:base]
	if first.Err != nil {
		return b, false, first.Err
	}
	return b, true, nil
}

// keepNames keeps names, an object's, in a.names from base on, below the
// names of the objects inside it: SplitObjectPatch wrote them there
// unless a.names was too short.
func (a *Applier) keepNames(base int, names []string) {
	if len(names) == 0 {
		return
	}
	if tail := a.names[base:cap(a.names)]; len(tail) >= len(names) && &tail[0] == &names[0] {
		a.names = a.names[:base+len(names)]
		return
	}
	a.names = append(a.names[:base], names...)
}

// objMerge is one object being merged by MergeObjectOf.
type objMerge[B ObjBuilder[B, F], F any] struct {
	a     *Applier
	b     B
	plain map[string]any // b.Plain()
	pm    map[string]any
	at    *pathNode
}

// name merges the patch's field name, p.Names[i], with its parallel
// directives, of patch object p at slot s.
func (m *objMerge[B, F]) name(i int, name string, p *ObjectPatch, s *slot) error {
	pv, inPatch := m.pm[name]
	if m.plain != nil && !p.Directed(name) && jsonval.IsScalar(pv) {
		// The hot leaf of decoded JSON: no call to the builder, and no
		// path built unless it is wrong.
		if pv == nil {
			delete(m.plain, name)
			return nil
		}
		c := s.Child(name)
		if err := m.a.checkType(pv, c, nil); err != nil {
			return m.a.checkType(pv, c, m.at.Field(name))
		}
		m.plain[name] = pv
		return nil
	}
	a, b, at := m.a, m.b, m.at
	f, c, held := b.Place(i, name)
	if c == nil {
		sc := s.Child(name)
		c = &sc
	}
	if !held {
		// A name the result cannot hold (decoding drops it): the patch
		// value must still be valid.
		if inPatch && pv != nil {
			_, _, err := a.mergeValue(nil, false, pv, *c, at.Field(name))
			return err
		}
		return nil
	}
	if inPatch && pv == nil {
		b.Remove(f)
		return nil
	}
	directed := p.Directed(name)
	if !directed && jsonval.IsScalar(pv) {
		// The common leaf: no path is built unless it is wrong.
		if err := a.checkType(pv, *c, nil); err != nil {
			return a.checkType(pv, *c, at.Field(name))
		}
		return b.Set(f, pv, name, at)
	}
	cat := at.Field(name)
	if !directed {
		return b.Merge(f, pv, *c, cat)
	}
	in, err := p.ListInput(m.pm, name, at)
	if err != nil {
		return err
	}
	orig, isList, present, other := b.LiveList(f)
	if other != nil {
		return newError(errpath.ErrTypeMismatch, cat, "directives for a list, but the document holds %s", jsonval.KindOf(other).WithArticle())
	}
	in.Orig, in.OrigPresent = orig, isList
	if !in.OrigPresent && !inPatch {
		// Ordering or deleting in a list that is not there.
		if present {
			return b.KeepNull(f, cat)
		}
		return nil
	}
	if !c.IsMergeList() {
		l, err := a.orderReplacedList(in, *c, cat)
		if err != nil {
			return err
		}
		return b.Set(f, l, name, at)
	}
	return b.MergeList(f, in, *c, cat)
}

// A ValueSink reads a live value and stores its merge for MergeValueOf.
// V is the sink's own type.
type ValueSink[V any] interface {
	// Leaf stores decoded JSON value v as it is; out is v where the
	// result is decoded JSON.
	Leaf(v any, at *pathNode) (out any, keep bool, err error)
	// Undeclared returns the sink with its live value expanded, and that
	// value, for a field the schema does not declare.
	Undeclared() (v V, live any, present bool)
	// Object merges patch object pm into the live value, or into nothing
	// when replace.
	Object(pm map[string]any, s slot, replace bool, at *pathNode) (out any, keep bool, err error)
	// List merges the merge list input in (with no live list) into the
	// live value.
	List(in ListInput, s slot, at *pathNode) (out any, keep bool, err error)
}

// MergeValueOf merges patch value pv into v's live value at slot s. keep
// is false when the value is to be removed.
func MergeValueOf[V ValueSink[V]](a *Applier, v V, pv any, s slot, at *pathNode) (out any, keep bool, err error) {
	if pv == nil {
		return nil, false, nil
	}
	if err := a.checkType(pv, s, at); err != nil {
		return nil, false, err
	}
	k := s.Kind()
	if k == reflectschema.Atomic {
		return v.Leaf(pv, at)
	}
	if s.Undeclared {
		var live any
		var present bool
		if v, live, present = v.Undeclared(); present {
			if err := unknownMerge(a.Cfg, live, pv, s, at); err != nil {
				return nil, false, err
			}
		}
	}
	switch p := pv.(type) {
	case map[string]any:
		return v.Object(p, s, s.Patch.Strategy == reflectschema.Replace, at)
	case []any:
		if k == reflectschema.Untyped || !s.IsMergeList() {
			l, err := a.finalizeList(p, s, at)
			if err != nil {
				return nil, false, err
			}
			return v.Leaf(l, at)
		}
		return v.List(ListInput{Patch: p, InPatch: true}, s, at)
	}
	return v.Leaf(pv, at)
}
