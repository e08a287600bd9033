package property

// The deletions the model expects from a three-way patch: what the new
// configuration dropped, where current still holds it.

// deletions finds the whole deletions under m (present at path).
func (md *threeWayModel) deletions(o, m, c any, n node, path string) {
	switch mv := m.(type) {
	case map[string]any:
		if n.wholeObject() {
			return
		}
		om, _ := o.(map[string]any)
		cm, _ := c.(map[string]any)
		for _, k := range unionKeys(om, mv) {
			ov, cv := om[k], cm[k]
			mk, inM := mv[k]
			p := joinField(path, k)
			if mk == nil {
				switch {
				case !isEmpty(ov) && n.isUnion() && setsMember(mv):
					// $retainKeys clears it; the patch deletes it whole.
					md.whole[p] = "modified drops a union member"
				case ov != nil:
					md.deletionPoint(ov, cv, n.child(k), p, "modified drops it")
				case inM && cv != nil:
					md.whole[p] = "modified sets it to null"
				}
				continue
			}
			md.deletions(ov, mk, cv, n.child(k), p)
		}
	case []any:
		if !n.keyedList() {
			return
		}
		keys := n.fullKey()
		oe, me, ce := elementsByPath(o, path, keys), elementsByPath(mv, path, keys), elementsByPath(c, path, keys)
		for p := range oe {
			if _, ok := me[p]; !ok {
				md.whole[p] = "modified removes the element"
			}
		}
		for p, e := range me {
			md.deletions(oe[p], e, ce[p], n.elem(), p)
		}
	}
}

// fillDropped is fillServerKeys' fillDeleted for a value of the original
// that modified drops whole: at any depth, each element of a merge list
// with recommended keys takes the key fields of the element of current it
// became. It returns o, or a changed copy.
func fillDropped(o, c any, n node) any {
	switch ov := o.(type) {
	case map[string]any:
		cm, ok := c.(map[string]any)
		if !ok || n.wholeObject() {
			return o
		}
		out := make(map[string]any, len(ov))
		for k, e := range ov {
			out[k] = fillDropped(e, cm[k], n.child(k))
		}
		return out
	case []any:
		cl, ok := c.([]any)
		if !ok || !n.keyedList() || len(n.meta.RecommendedMergeKey) == 0 {
			return o
		}
		full := n.fullKey()
		oByID, cByID := map[string]int{}, map[string]int{}
		for i, e := range ov {
			oByID[elementID(full, e)] = i
		}
		for i, e := range cl {
			cByID[elementID(full, e)] = i
		}
		out := append([]any(nil), ov...)
		fillDeleted(keyedList{out, oByID}, keyedList{cl, cByID}, nil, make([]bool, len(cl)), n)
		return out
	}
	return o
}

// setsMember reports whether a union object sets any member (not null):
// the differ then writes $retainKeys for it.
func setsMember(m map[string]any) bool {
	for _, v := range m {
		if v != nil {
			return true
		}
	}
	return false
}

// keyedList is a list and the position of each element by its full key.
type keyedList struct {
	items []any
	byID  map[string]int
}

// fillDeleted gives each element of the original's list (o) that current
// (c) does not hold the key fields of current's element it became when
// the server filled them in: the one element of current, held by neither
// the original nor modified (ml) and not paired with one of modified's
// (taken), with its default key that agrees on every key field it has.
// The deletions half deletes that element where modified drops it, and
// for the conflict check (which pairs them so: pairFilled) its filled-in
// key fields are no change of current's.
func fillDeleted(o, c keyedList, ml []any, taken []bool, n node) {
	ol, cl, oByID, cByID := o.items, c.items, o.byID, c.byID
	full, def := n.fullKey(), n.defaultKey()
	inM := map[string]bool{}
	for _, e := range ml {
		inM[elementID(full, e)] = true
	}
	for i, e := range ol {
		em, ok := e.(map[string]any)
		id := elementID(full, e)
		if _, held := cByID[id]; !ok || held {
			continue
		}
		found := -1
		for p, ce := range cl {
			cem, ok := ce.(map[string]any)
			cid := elementID(full, ce)
			if _, inO := oByID[cid]; !ok || taken[p] || inO || inM[cid] ||
				elementID(def, ce) != elementID(def, e) || !keysAgree(em, cem, full) {
				continue
			}
			if found >= 0 {
				found = -2
				break
			}
			found = p
		}
		if found >= 0 {
			ol[i] = withKeysOf(e, cl[found].(map[string]any), full)
		}
	}
}

// deletionPoint records the deletion of original's value ov at path,
// narrowed (kubernetes#48164) to original's entries where current added
// entries to the object, at any depth: only what the original had is
// deleted, and what another writer added below is kept.
func (md *threeWayModel) deletionPoint(ov, cv any, n node, path, why string) {
	if isEmpty(ov) {
		return // an empty collection turning absent is no change
	}
	om, ok1 := ov.(map[string]any)
	cm, ok2 := cv.(map[string]any)
	if ok1 && ok2 && n.narrowable() && md.addedUnder(path) {
		for k, e := range om {
			md.deletionPoint(e, cm[k], n.child(k), joinField(path, k), why+", narrowed to original's entries")
		}
		return
	}
	md.whole[path] = why
}
