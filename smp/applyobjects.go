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
}

// parseObjectElems reads a patch list of objects: each element's $patch
// directive and identity.
func (a *applier) parseObjectElems(l []any, lk listKeys, at *pathNode) ([]patchElem, error) {
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
			if err != nil {
				// Again, with the element's path for the error.
				_, _, err = lk.elementKey(m, a.cfg.directives, at.index(i))
				return nil, err
			}
			pe.ks, pe.id = ks, id
		} else {
			pe.at = at.index(i)
		}
		if _, has := m[keyPatchMergeKey]; has || pe.directive != "" {
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
	es := s.elem()
	elems, err := a.parseObjectElems(in.patch, lk, at)
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
		if orderEntries, err = a.parseObjectElems(in.setOrder, lk, in.orderAt); err != nil {
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
		x := newListIndex(in.orig)
		for _, pe := range elems {
			if pe.directive == patchDelete {
				x.removeAll(pe.ks, pe.id)
			}
		}
		survivors, survivorIDs := x.live(orderKS)
		server = firstRanks(survivorIDs)
		var added []any
		for _, pe := range elems {
			if pe.directive != "" {
				continue
			}
			frontIDs = append(frontIDs, idOf(orderKS, pe.body))
			p, n := x.first(pe.ks, pe.id)
			if n > 1 && lk.partial(pe.ks) {
				matches := x.positions(pe.ks, pe.id)
				names := make([]string, len(matches))
				for i, p := range matches {
					m, _ := expand(x.items[p]).(map[string]any)
					names[i] = Path{lk.fullSet().step(m)}.String()
				}
				return nil, newError(ErrAmbiguousMergeKey, pe.at,
					"%s %s is ambiguous: it matches %d elements (%s); name more keys to pick one", keyPatchMergeKey,
					strings.Join(pe.ks.fields, ","), len(matches), strings.Join(names, ", "))
			}
			if n > 0 {
				om, _ := expand(x.items[p]).(map[string]any)
				v, _, err := a.mergeObject(om, pe.body, es, false, pe.at)
				if err != nil {
					return nil, err
				}
				x.set(p, v)
				continue
			}
			v, _, err := a.mergeObject(nil, pe.body, es, false, pe.at)
			if err != nil {
				return nil, err
			}
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
		merged, _ = arrange(merged, ids, firstRanks(orderIDs), orderServer, a.cfg.ordering)
	}
	if merged == nil {
		merged = []any{}
	}
	return merged, nil
}

func idsUnder(ks keySet, items []any) []string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = idOf(ks, it)
	}
	return ids
}
