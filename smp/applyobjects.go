package smp

import (
	"strings"
)

// patchElem is one element of a patch list of objects.
type patchElem struct {
	body      map[string]any // the element without $patch and $patchMergeKey
	directive string         // its $patch value, if any
	ks        keySet
	id        string
	at        *pathNode
	// unread says the element names its keys by $patchMergeKey, which
	// this applier does not read (an older directive set).
	unread bool
}

// parseObjectElems reads a patch list of objects: each element's $patch
// directive and identity. keyless lets elements lack key fields: in a
// list the patch replaces, nothing is matched by key (an element whose
// merge key is an omitempty zero value has no key field in its JSON).
func (a *applier) parseObjectElems(l []any, lk listKeys, keyless bool, at *pathNode) ([]patchElem, error) {
	out := make([]patchElem, 0, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, newError(ErrMixedList, at.index(i), "merge list of objects holds %s", kindOf(e).withArticle())
		}
		pe := patchElem{body: m}
		if raw, ok := m[keyPatch]; ok {
			d, _ := raw.(string)
			switch d {
			case patchDelete, patchReplace:
				pe.directive = d
			case patchMerge:
				return nil, newError(ErrInvalidDirective, at.index(i).field(keyPatch), "%s: merge is a strategy of struct tags, not a patch directive", keyPatch)
			default:
				return nil, newError(ErrInvalidDirective, at.index(i).field(keyPatch), "unknown %s value %s in a list (want replace or delete)", keyPatch, describe(raw))
			}
		}
		if pe.directive == "" || pe.directive == patchDelete {
			ks, id, err := lk.elementKey(m, a.cfg.directives, nil)
			if err != nil && keyless && pe.directive == "" && KindOf(err) == ErrMissingMergeKey {
				ks, err = lk.defaultSet(), nil
				id, pe.at = idOf(ks, m), at.index(i)
			}
			if err != nil {
				// Again, with the element's path for the error.
				_, _, err = lk.elementKey(m, a.cfg.directives, at.index(i))
				return nil, err
			}
			pe.ks, pe.id = ks, id
		} else {
			pe.at = at.index(i)
		}
		_, named := m[keyPatchMergeKey]
		pe.unread = named && !a.cfg.directives.understood(dirPatchMergeKey)
		if named || pe.directive != "" {
			body := make(map[string]any, len(m))
			for k, v := range m {
				if k != keyPatchMergeKey && k != keyPatch {
					body[k] = v
				}
			}
			pe.body = body
		}
		out = append(out, pe)
		if pe.at == nil {
			// The path names the key set stored in out, whose backing
			// array never moves (its capacity is len(l)).
			last := &out[len(out)-1]
			last.at = at.keyed(&last.ks, m)
		}
	}
	return out, nil
}

// mergeObjectList merges a merge list of objects by merge key: deletions
// first, then each patch element merged into the first live element with
// its identity or appended, then the result ordered.
func (a *applier) mergeObjectList(in listInput, s slot, at *pathNode) ([]any, error) {
	lk := keysOf(s)
	es := s.Elem()
	elems, err := a.parseObjectElems(in.patch, lk, hasReplaceMarker(in.patch), at)
	if err != nil {
		return nil, err
	}
	orderKS := lk.defaultSet()
	replace := false
	for _, pe := range elems {
		if pe.ks.directive {
			orderKS = lk.fullSet()
		}
		replace = replace || pe.directive == patchReplace
	}
	var orderEntries []patchElem
	if in.hasSetOrder {
		if orderEntries, err = a.parseObjectElems(in.setOrder, lk, false, in.orderAt); err != nil {
			return nil, err
		}
		for _, e := range orderEntries {
			if e.ks.directive {
				orderKS = lk.fullSet()
			}
		}
	}

	var merged []any
	var mergedIDs []string
	var server, orderServer map[string]int
	var frontIDs []string
	// A patch element named by part of its keys ($patchMergeKey) is
	// placed as the live element it merged into: by that one's identity.
	var renamed map[string]string
	var x *listIndex // the live list being patched, when there is one
	switch {
	case replace || !in.origPresent:
		for _, pe := range elems {
			if pe.directive != "" {
				continue // deletions and list markers
			}
			v, keep, err := a.mergeObject(nil, pe.body, es, false, pe.at)
			if err != nil {
				return nil, err
			}
			if keep {
				merged = append(merged, v)
			}
		}
		server = firstRanks(idsUnder(orderKS, in.orig))
	default:
		x = newListIndex(in.orig)
		reset := deleteElems(x, elems, in.hasSetOrder)
		survivors, survivorIDs := x.live(orderKS)
		server = firstRanks(survivorIDs)
		var added []any
		for _, pe := range elems {
			if pe.directive != "" {
				continue
			}
			p, n := x.first(pe.ks, pe.id)
			if n > 1 && lk.partial(pe.ks) {
				matches := x.positions(pe.ks, pe.id)
				name := func(p int) string {
					m, _ := expand(x.items[p]).(map[string]any)
					return Path{lk.fullSet().step(m)}.String()
				}
				return nil, newError(ErrAmbiguousMergeKey, pe.at,
					"%s %s is ambiguous: it matches %d elements (%s); name more keys to pick one", keyPatchMergeKey,
					strings.Join(pe.ks.fields, ","), len(matches), listed(matches, name, ", "))
			}
			if n > 0 {
				om, _ := expand(x.items[p]).(map[string]any)
				if reset[p] {
					om = nil
				}
				v, _, err := a.mergeObject(om, pe.body, es, false, pe.at)
				if err != nil {
					return nil, err
				}
				x.set(p, v)
				frontIDs = append(frontIDs, idOf(orderKS, v))
				if from, to := idOf(orderKS, pe.body), frontIDs[len(frontIDs)-1]; from != to {
					if renamed == nil {
						renamed = map[string]string{}
					}
					renamed[from] = to
				}
				continue
			}
			v, _, err := a.mergeObject(nil, pe.body, es, false, pe.at)
			if err != nil {
				return nil, err
			}
			frontIDs = append(frontIDs, idOf(orderKS, pe.body))
			x.add(v)
			added = append(added, v)
		}
		merged, mergedIDs = x.live(orderKS)
		// Kubernetes orders by $setElementOrder against a view of the live
		// list's array, where the first items appended fill the places
		// that deletions freed. Matching it keeps the results equal.
		freed := len(in.orig) - len(survivors)
		orderServer = firstRanks(idsUnder(orderKS, append(survivors, added[:min(freed, len(added))]...)))
	}
	if orderServer == nil {
		orderServer = server
	}
	ids := mergedIDs
	if ids == nil {
		ids = idsUnder(orderKS, merged)
	}
	if in.inPatch && in.origPresent && !replace && len(in.orig)+len(in.patch) > 0 {
		merged, ids = arrange(merged, ids, firstRanks(frontIDs), server, a.cfg.ordering)
	}
	if in.hasSetOrder {
		var patchIDs []string
		for _, pe := range elems {
			if pe.directive == "" {
				patchIDs = append(patchIDs, idOf(orderKS, pe.body))
			}
		}
		orderIDs := make([]string, 0, len(orderEntries))
		for _, e := range orderEntries {
			if e.directive == "" {
				orderIDs = append(orderIDs, idOf(orderKS, e.body))
			}
		}
		if err := checkSetOrder(patchIDs, orderIDs, at, in.orderAt); err != nil {
			return nil, err
		}
		resolvePartial(orderIDs, orderEntries, renamed, x, lk, orderKS)
		merged, _ = arrange(merged, ids, firstRanks(orderIDs), orderServer, a.cfg.ordering)
	}
	if merged == nil {
		merged = []any{}
	}
	return merged, nil
}

// deleteElems runs the deletions of a patch list. With $setElementOrder
// (keep), an element the patch deletes and creates anew (the differ's way
// to replace one whole) keeps its place among the live elements the order
// does not name: its first live match stays, to be merged into from
// nothing (reset), so that applying the patch again leaves the order as it
// is. (Kubernetes moves it; without the order, so does this applier.)
// Elements whose $patchMergeKey this applier does not read may be two
// elements to their writer: they are deleted and added as usual.
func deleteElems(x *listIndex, elems []patchElem, keep bool) (reset map[int]bool) {
	var created map[string]bool
	for _, pe := range elems {
		if !keep {
			break
		}
		if pe.directive == "" && !pe.unread {
			if created == nil {
				created = make(map[string]bool, len(elems))
			}
			created[pe.ks.sig()+"\x01"+pe.id] = true
		}
	}
	for _, pe := range elems {
		if pe.directive != patchDelete {
			continue
		}
		if !pe.unread && created[pe.ks.sig()+"\x01"+pe.id] {
			if ps := x.positions(pe.ks, pe.id); len(ps) > 0 {
				if reset == nil {
					reset = map[int]bool{}
				}
				reset[ps[0]] = true // the first match is re-created in place
				for _, p := range ps[1:] {
					x.remove(p)
				}
				continue
			}
		}
		x.removeAll(pe.ks, pe.id)
	}
	return reset
}

func idsUnder(ks keySet, items []any) []string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = idOf(ks, it)
	}
	return ids
}

// resolvePartial names each $setElementOrder entry that gives part of its
// keys ($patchMergeKey) by the identity of the element it names: the
// patch element's merged result (renamed), or the one live element with
// those keys; an entry naming several live elements is left as it is.
func resolvePartial(orderIDs []string, entries []patchElem, renamed map[string]string, x *listIndex, lk listKeys, orderKS keySet) {
	i := 0
	for _, e := range entries {
		if e.directive != "" {
			continue
		}
		if to, ok := renamed[orderIDs[i]]; ok {
			orderIDs[i] = to
		} else if x != nil && lk.partial(e.ks) {
			if p, n := x.first(e.ks, e.id); n == 1 {
				orderIDs[i] = idOf(orderKS, x.items[p])
			}
		}
		i++
	}
}
