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

// typedMerges returns, by identity under the default key, the patch
// elements that merge into live elements, when each of them is sure to
// merge into the live element of its identity and nothing else: none
// names its keys ($patchMergeKey), none repeats an identity, none carries
// $retainKeys (which would drop the tag) or the tag itself.
func typedMerges(patch []any, lk listKeys) (map[string]map[string]any, bool) {
	def := lk.defaultSet()
	bodies := make(map[string]map[string]any, len(patch))
	for _, e := range patch {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		if _, has := m[keyPatchMergeKey]; has {
			return nil, false
		}
		if _, has := m[keyRetainKeys]; has {
			return nil, false
		}
		if _, has := m[standTag]; has {
			return nil, false
		}
		if _, directive := m[keyPatch]; directive {
			continue
		}
		id := idOf(def, m)
		if _, dup := bodies[id]; dup {
			return nil, false
		}
		bodies[id] = m
	}
	return bodies, true
}

// lightPatch is a patch list whose merging elements hold only their key:
// the applier decides with them which elements the result has, in which
// order, and typedResult then merges their full content in Go.
func lightPatch(patch []any, def keySet) []any {
	out := make([]any, len(patch))
	for i, e := range patch {
		m, ok := e.(map[string]any)
		if _, directive := m[keyPatch]; !ok || directive {
			out[i] = e
			continue
		}
		light := make(map[string]any, len(def.fields))
		for _, f := range def.fields {
			if v, ok := m[f]; ok {
				light[f] = v
			}
		}
		out[i] = light
	}
	return out
}

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

// plainStructList is mergeStructList for the common patch: merging
// elements (no $patchMergeKey), each carrying its default key once, and
// deletions ($patch: delete) of other keys, onto a live list whose
// elements are all present with unique identities, with a $setElementOrder
// of plain entries if any. It orders the result as mergeObjectList would,
// without stand-ins, and merges each element in Go. done is false, with
// nothing written, for any other list.
func (a *tapplier) plainStructList(dv, cur reflect.Value, in listInput, bodies map[string]map[string]any, n *tnode, c slot, at *pathNode) (done bool, err error) {
	if in.hasDeletes {
		return false, nil
	}
	lk := keysOf(c)
	def := lk.defaultSet()
	// plainIDs gives the identities of merging elements and, where
	// deletions are allowed, of deleted ones.
	plainIDs := func(l []any, deletions bool) (merges, deletes []string, ok bool) {
		merges = make([]string, 0, len(l))
		for _, e := range l {
			m, _ := e.(map[string]any)
			if m == nil {
				return nil, nil, false
			}
			d, directive := m[keyPatch]
			if directive && (!deletions || d != patchDelete) {
				return nil, nil, false
			}
			ks, id, err := lk.elementKey(m, a.cfg.directives, nil)
			if err != nil || ks.directive {
				return nil, nil, false
			}
			if directive {
				deletes = append(deletes, id)
			} else {
				merges = append(merges, id)
			}
		}
		return merges, deletes, true
	}
	patchIDs, deleteIDs, ok := plainIDs(in.patch, true)
	if !ok || len(bodies) != len(patchIDs) {
		return false, nil
	}
	for _, id := range deleteIDs {
		if _, merged := bodies[id]; merged {
			return false, nil // deleted, then made anew from the patch alone
		}
	}
	var orderIDs []string
	if in.hasSetOrder {
		if orderIDs, _, ok = plainIDs(in.setOrder, false); !ok {
			return false, nil
		}
	}
	// The live elements' identities, as their JSON would give them.
	en := n.elem
	scratch := make(map[string]any, len(def.fields))
	live := make(map[string]int, cur.Len())
	liveIDs := make([]string, cur.Len())
	for i := range cur.Len() {
		e, null := derefNull(cur.Index(i))
		if null {
			return false, nil
		}
		clear(scratch)
		if err := addKeyFields(scratch, e, en, def); err != nil {
			return false, nil
		}
		id := idOf(def, scratch)
		if _, dup := live[id]; dup {
			return false, nil
		}
		live[id] = i
		liveIDs[i] = id
	}
	deleted := make(map[string]bool, len(deleteIDs))
	for _, id := range deleteIDs {
		if _, ok := live[id]; ok {
			deleted[id] = true
		}
	}
	items := make([]any, 0, cur.Len()+len(patchIDs))
	ids := make([]string, 0, cur.Len()+len(patchIDs))
	for i, id := range liveIDs {
		if !deleted[id] {
			items = append(items, i)
			ids = append(ids, id)
		}
	}
	server := firstRanks(ids)
	survivors := len(ids)
	for _, id := range patchIDs {
		if _, ok := live[id]; !ok {
			items = append(items, cur.Len()) // a new element, made from bodies[id]
			ids = append(ids, id)
		}
	}
	// As mergeObjectList: $setElementOrder ranks live items against a view
	// where the first new items fill the places deletions freed.
	orderServer := server
	if freed := len(deleted); freed > 0 {
		orderServer = firstRanks(ids[:survivors+min(freed, len(ids)-survivors)])
	}
	if in.inPatch && len(ids) > 0 {
		items, ids = arrange(items, ids, firstRanks(patchIDs), server, a.cfg.ordering)
	}
	if in.hasSetOrder {
		if checkSetOrder(patchIDs, orderIDs, at, in.orderAt) != nil {
			return false, nil // the general path reports it, after what it finds first
		}
		items, ids = arrange(items, ids, firstRanks(orderIDs), orderServer, a.cfg.ordering)
	}
	saved := a.decodeErr
	dv = allocChain(dv)
	out := reflect.MakeSlice(dv.Type(), len(items), len(items))
	es := c.Elem()
	for j, it := range items {
		src := it.(int)
		var ce reflect.Value
		var body map[string]any
		if src < cur.Len() {
			ce = cur.Index(src)
			if body = bodies[ids[j]]; body == nil {
				a.soft(underPath(under(a.copyValue(out.Index(j), ce, en), IndexStep(j)), at))
				continue
			}
			ce, _ = derefNull(ce)
		} else {
			body = bodies[ids[j]]
		}
		keep, err := a.mergeStruct(allocChain(out.Index(j)), ce, body, en, es, false, at.keyed(&def, body))
		if err != nil {
			return true, err
		}
		if !keep {
			a.decodeErr = saved
			return false, nil
		}
	}
	dv.Set(out)
	return true, nil
}
