package smp

import "reflect"

// Typed merge lists of plain structs: merged in place, element by
// element, when the patch holds only what such a merge can take.

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
