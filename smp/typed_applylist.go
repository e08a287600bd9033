package smp

import (
	"reflect"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// mergeListTyped merges a merge list into dv (a settable zero value of the
// list's type). cur is the live list (invalid when in.origPresent is
// false). Lists of structs pass the JSON applier stand-ins for their
// elements (see mergeStructList); other lists pass their JSON.
func (a *tapplier) mergeListTyped(dv, cur reflect.Value, in listInput, n *tnode, c slot, at *pathNode) error {
	if c.IsObjectList() && n.elem.kind == reflectschema.Struct {
		return a.mergeStructList(dv, cur, in, n, c, at)
	}
	if in.origPresent {
		ol, err := docListJSON(cur, n)
		if err != nil {
			return underPath(err, at)
		}
		in.orig = ol
	}
	l, err := a.mergeList(in, c, at)
	if err != nil {
		return err
	}
	return a.soft(fromJSONValue(dv, l, n, false, at))
}

// mergeStructList merges a merge list of structs without converting the
// elements the patch leaves alone. The applier identifies live elements by
// their key fields only, and keeps the elements no patch element merges
// into as they are. So it runs on stand-ins holding just the key fields
// (and a tag naming the live element). In its result, a stand-in is its
// live element, deep-copied; a tagged object is a live element a patch
// element merged into, merged again here in Go (typedMerges says when the
// patch element is known); everything else comes from the patch and is
// decoded. When the patch element is not known, a second run gives the
// elements merged into their full JSON.
func (a *tapplier) mergeStructList(dv, cur reflect.Value, in listInput, n *tnode, c slot, at *pathNode) error {
	if !in.origPresent {
		l, err := a.mergeList(in, c, at)
		if err != nil {
			return err
		}
		return a.soft(fromJSONValue(dv, l, n, false, at))
	}
	en := n.elem
	lk := keysOf(c)
	keys := lk.rec
	if len(keys) == 0 {
		keys = lk.def
	}
	bodies, typed := typedMerges(in.patch, lk)
	if typed {
		if done, err := a.plainStructList(dv, cur, in, bodies, n, c, at); done {
			return err
		}
	}
	stand := make([]any, cur.Len())
	index := make(map[uintptr]int, cur.Len())
	for i := range stand {
		e, null := derefNull(cur.Index(i))
		if null {
			continue
		}
		m := make(map[string]any, len(keys)+1)
		if err := addKeyFields(m, e, en, keySet{fields: keys}); err != nil {
			return underPath(under(err, IndexStep(i)), at)
		}
		if typed {
			m[standTag] = i
		}
		stand[i] = m
		index[reflect.ValueOf(m).Pointer()] = i
	}
	first := in
	first.orig = stand
	if typed {
		first.patch = lightPatch(in.patch, lk.defaultSet())
	}
	res, err := a.mergeList(first, c, at)
	if err != nil {
		return a.mergeListFull(dv, cur, in, n, c, at)
	}
	if typed {
		saved := a.decodeErr
		err := a.typedResult(dv, cur, res, index, bodies, lk.defaultSet(), n, c, at)
		if err == nil {
			return nil
		}
		a.decodeErr = saved
		return a.mergeListFull(dv, cur, in, n, c, at)
	}
	kept := make([]bool, cur.Len())
	for _, item := range res {
		if i, ok := standIn(item, index); ok {
			kept[i] = true
		}
	}
	second := in
	second.orig = stand
	full := false
	for i, ok := range kept {
		if ok || stand[i] == nil {
			continue
		}
		if !full {
			second.orig = append([]any(nil), stand...)
			full = true
		}
		j, err := docJSON(cur.Index(i), en, false)
		if err != nil {
			return underPath(under(err, IndexStep(i)), at)
		}
		second.orig[i] = j
	}
	if full {
		if res, err = a.mergeList(second, c, at); err != nil {
			return err
		}
	}
	return a.listResult(dv, cur, res, index, n, at)
}

// standTag marks a stand-in with the index of its live element. The
// applier copies it into what it merges into the stand-in.
const standTag = "\x00typedpatch:stand-in"

// typedResult builds the merged list from a run on tagged stand-ins and a
// light patch (lightPatch): stand-ins are copied, tagged items are live
// elements merged with their patch element, others are new elements made
// from theirs.
func (a *tapplier) typedResult(dv, cur reflect.Value, res []any, index map[uintptr]int, bodies map[string]map[string]any, def keySet, n *tnode, c slot, at *pathNode) error {
	dv = allocChain(dv)
	out := reflect.MakeSlice(dv.Type(), len(res), len(res))
	es := c.Elem()
	for j, item := range res {
		if i, ok := standIn(item, index); ok {
			err := a.copyValue(out.Index(j), cur.Index(i), n.elem)
			a.soft(underPath(under(err, IndexStep(j)), at))
			continue
		}
		m, ok := item.(map[string]any)
		if !ok {
			a.soft(fromJSONValue(out.Index(j), item, n.elem, false, at.index(j)))
			continue
		}
		body := bodies[idOf(def, m)]
		if body == nil {
			return errNoBody
		}
		var ce reflect.Value
		if i, tagged := m[standTag].(int); tagged {
			if e, null := derefNull(cur.Index(i)); !null {
				ce = e
			}
		}
		keep, err := a.mergeStruct(allocChain(out.Index(j)), ce, body, n.elem, es, false, at.keyed(&def, body))
		if err != nil {
			return err
		}
		if !keep {
			return errNoBody
		}
	}
	dv.Set(out)
	return nil
}

// errNoBody makes typedResult give up for the general path.
var errNoBody = &Error{Kind: ErrInvalidValue, Msg: "no patch element for a merged element"}

// standIn reports whether item is a stand-in, and for which element.
func standIn(item any, index map[uintptr]int) (int, bool) {
	m, ok := item.(map[string]any)
	if !ok || m == nil {
		return 0, false
	}
	i, ok := index[reflect.ValueOf(m).Pointer()]
	return i, ok
}

// listResult builds the merged list: stand-ins become copies of their
// live elements, the rest is decoded.
func (a *tapplier) listResult(dv, cur reflect.Value, res []any, index map[uintptr]int, n *tnode, at *pathNode) error {
	dv = allocChain(dv)
	out := reflect.MakeSlice(dv.Type(), len(res), len(res))
	for j, item := range res {
		var err error
		if i, ok := standIn(item, index); ok {
			err = a.copyValue(out.Index(j), cur.Index(i), n.elem)
			err = a.soft(underPath(under(err, IndexStep(j)), at))
		} else {
			err = a.soft(fromJSONValue(out.Index(j), item, n.elem, false, at.index(j)))
		}
		if err != nil {
			return err
		}
	}
	dv.Set(out)
	return nil
}

// mergeListFull merges with every element in JSON form.
func (a *tapplier) mergeListFull(dv, cur reflect.Value, in listInput, n *tnode, c slot, at *pathNode) error {
	ol, err := docListJSON(cur, n)
	if err != nil {
		return underPath(err, at)
	}
	in.orig = ol
	l, err := a.mergeList(in, c, at)
	if err != nil {
		return err
	}
	return a.soft(fromJSONValue(dv, l, n, false, at))
}
