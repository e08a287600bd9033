package property

// The model's reading of server-filled key fields: elements paired across
// documents where the server filled in key fields, as docs/compat.md says.

// survivorShares reports whether current's list cl keeps an element
// (one neither the original's list ov nor modified's ml holds) whose
// default key an element of modified new to current has: the result
// would hold both, and skew-safe mode writes such a list whole.
func survivorShares(ov any, cl, ml []any, n node) bool {
	full, def := n.fullKey(), n.defaultKey()
	ol, _ := ov.([]any)
	inO, inC, inM := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, e := range ol {
		inO[elementID(full, e)] = true
	}
	for _, e := range cl {
		inC[elementID(full, e)] = true
	}
	fresh := map[string]bool{}
	for _, e := range ml {
		inM[elementID(full, e)] = true
		if !inC[elementID(full, e)] {
			fresh[elementID(def, e)] = true
		}
	}
	for _, e := range cl {
		if id := elementID(full, e); !inO[id] && !inM[id] && fresh[elementID(def, e)] {
			return true
		}
	}
	return false
}

// keyable reports whether every element of a merge list carries its
// default key; the differ replaces a list where one does not.
func keyable(l []any, def []string) bool {
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		for _, k := range def {
			if _, ok := m[k]; !ok {
				return false
			}
		}
	}
	return true
}

// fillServerKeys returns original and modified as the delta half of a
// three-way patch pairs modified's elements with current's: an element of
// a merge list with recommended keys that lacks some key fields, and has
// no element of current with its whole key, is the one element of current
// that has its default key and agrees on every key field it has, provided
// the original never held that element and no other element of modified
// is paired with it. The element then takes current's key fields, and so
// does original's element with modified's key: one element in all three.
// Neither argument is changed.
func fillServerKeys(o, m, c any, n node, skewSafe bool) (any, any) {
	switch mv := m.(type) {
	case map[string]any:
		return fillServerKeysObject(o, mv, c, n, skewSafe)
	case []any:
		return fillServerKeysList(o, mv, c, n, skewSafe)
	}
	return o, m
}

// fillServerKeysObject is fillServerKeys for an object of modified.
func fillServerKeysObject(o any, mv map[string]any, c any, n node, skewSafe bool) (any, any) {
	om, _ := o.(map[string]any)
	cm, _ := c.(map[string]any)
	if n.wholeObject() || cm == nil {
		return o, mv
	}
	mout := make(map[string]any, len(mv))
	var oout map[string]any
	if om != nil {
		oout = make(map[string]any, len(om))
		for k, e := range om {
			oout[k] = e
		}
	}
	for k, e := range mv {
		ok, mk := fillServerKeys(om[k], e, cm[k], n.child(k), skewSafe)
		mout[k] = mk
		if _, has := om[k]; has {
			oout[k] = ok
		}
	}
	for k, e := range om {
		if mv[k] == nil && oout != nil {
			oout[k] = fillDropped(e, cm[k], n.child(k))
		}
	}
	if oout == nil {
		return o, mout
	}
	return oout, mout
}

// fillServerKeysList is fillServerKeys for a list of modified.
func fillServerKeysList(o any, mv []any, c any, n node, skewSafe bool) (any, any) {
	cl, ok := c.([]any)
	if !ok || !n.keyedList() {
		return o, mv
	}
	full, def := n.fullKey(), n.defaultKey()
	ol, _ := o.([]any)
	oByID := map[string]int{}
	for i, e := range ol {
		oByID[elementID(full, e)] = i
	}
	cByID := map[string]int{}
	for i, e := range cl {
		cByID[elementID(full, e)] = i
	}
	pairs := make([]int, len(mv))
	taken := make([]bool, len(cl))
	for i, e := range mv {
		p, ok := cByID[elementID(full, e)]
		if !ok {
			pairs[i] = -1
			continue
		}
		pairs[i] = p
		taken[p] = true
	}
	// Skew-safe mode writes a list whose default key is shared whole,
	// unpaired.
	shared := skewSafe && n.hasRecommended() && (repeatsKey(cl, def) || repeatsKey(mv, def))
	if len(n.meta.RecommendedMergeKey) > 0 && !shared {
		pairByKeys(mv, cl, pairs, taken, oByID, n)
	}
	mout := make([]any, len(mv))
	oout := append([]any(nil), ol...)
	if len(n.meta.RecommendedMergeKey) > 0 {
		// Even where skew-safe mode writes the list whole: the
		// conflict check pairs these all the same.
		fillDeleted(keyedList{oout, oByID}, keyedList{cl, cByID}, mv, taken, n)
	}
	for i, e := range mv {
		em, ok := e.(map[string]any)
		oi, inO := oByID[elementID(full, e)]
		if !ok || pairs[i] < 0 {
			mout[i] = e
			continue
		}
		ce := cl[pairs[i]].(map[string]any)
		var oe any
		if inO {
			oe = withKeysOf(ol[oi], ce, full)
		}
		oe, mout[i] = fillServerKeys(oe, withKeysOf(em, ce, full), ce, n.elem(), skewSafe)
		if inO {
			oout[oi] = oe
		}
	}
	if o == nil {
		return o, mout
	}
	return oout, mout
}

// pairByKeys pairs each element of modified (mv) that current (cl) does
// not hold whole with the one unpaired element of current that has its
// default key, agrees on every key field it has and the original (oByID)
// never held, unless another element of modified claims it too.
func pairByKeys(mv, cl []any, pairs []int, taken []bool, oByID map[string]int, n node) {
	full, def := n.fullKey(), n.defaultKey()
	claims := map[int]int{}
	for i, e := range mv {
		em, ok := e.(map[string]any)
		if pairs[i] >= 0 || !ok {
			continue
		}
		cand, count := -1, 0
		for p, ce := range cl {
			cem, ok := ce.(map[string]any)
			if !ok || taken[p] || elementID(def, ce) != elementID(def, e) {
				continue
			}
			if _, had := oByID[elementID(full, ce)]; had || !keysAgree(em, cem, full) {
				continue
			}
			cand, count = p, count+1
		}
		if count != 1 {
			continue
		}
		if _, dup := claims[cand]; dup {
			claims[cand] = -1
		} else {
			claims[cand] = i
		}
	}
	for p, i := range claims {
		if i >= 0 {
			pairs[i] = p
		}
	}

}

// withKeysOf returns a copy of the element e with the key fields of from.
func withKeysOf(e any, from map[string]any, keys []string) any {
	em, ok := e.(map[string]any)
	if !ok {
		return e
	}
	out := make(map[string]any, len(em)+len(keys))
	for k, v := range em {
		out[k] = v
	}
	for _, f := range keys {
		if v, ok := from[f]; ok {
			out[f] = v
		}
	}
	return out
}

// keysAgree reports whether every key field m has, o has with the same
// value.
func keysAgree(m, o map[string]any, fields []string) bool {
	for _, f := range fields {
		mv, inM := m[f]
		if !inM {
			continue
		}
		ov, inO := o[f]
		if !inO || scalarID(mv) != scalarID(ov) {
			return false
		}
	}
	return true
}
