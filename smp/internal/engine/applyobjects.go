package engine

import (
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// PatchElem is one element of a patch list of objects.
type PatchElem struct {
	Body      map[string]any // the element without $patch and $patchMergeKey
	directive string         // its $patch value, if any
	ks        format.KeySet
	id        string
	At        *pathNode
	node      pathNode // At's storage, when At names the element by key
	// unread says the element names its keys by $patchMergeKey, which
	// this applier does not read (an older directive set).
	unread bool
}

// parseObjectElems reads a patch list of objects: each element's $patch
// directive and identity. keyless lets elements lack key fields: in a
// list the patch replaces, nothing is matched by key (an element whose
// merge key is an omitempty zero value has no key field in its JSON).
// The entries of a $setElementOrder (orderOf's; at, when nil, is then
// its path, made when needed) are only identified: their bodies keep
// their directives and they get no path by key.
//
// The elements are appended to out, which has room for them all: an
// element's path may point into it.
func (a *Applier) parseObjectElems(out []PatchElem, l []any, lk format.ListKeys, keyless bool, orderOf *ListInput, at *pathNode) ([]PatchElem, error) {
	order := orderOf != nil
	where := func(i int) *pathNode { // the element's path, made when needed
		if order && at == nil {
			at = orderOf.orderAt()
		}
		return at.Index(i)
	}
	if cap(out)-len(out) < len(l) {
		out = make([]PatchElem, 0, len(l))
	}
	single := "" // the default key's field, when it is one
	if len(lk.Def) == 1 && lk.Def[0] != "" && lk.Def[0] != format.KeyPatch && lk.Def[0] != format.KeyPatchMergeKey {
		single = lk.Def[0]
	}
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, newError(errpath.ErrMixedList, where(i), "merge list of objects holds %s", jsonval.KindOf(e).WithArticle())
		}
		out = append(out, PatchElem{Body: m})
		pe := &out[len(out)-1] // out never moves: it has room for l
		if order && len(m) == 1 {
			// The common $setElementOrder entry, its key field alone.
			if v, ok := singleKey(m, single, false); ok {
				pe.ks, pe.id = lk.DefaultSet(), format.SingleKey(v)
				continue
			}
		}
		if raw, ok := m[format.KeyPatch]; ok {
			var err error
			if pe.directive, err = format.PatchDirective(raw, true, nil); err != nil {
				_, err = format.PatchDirective(raw, true, where(i)) // again, with the path
				return nil, err
			}
		}
		_, named := m[format.KeyPatchMergeKey]
		if pe.directive == "" || pe.directive == format.PatchDelete {
			var ks format.KeySet
			var id string
			var err error
			if v, ok := singleKey(m, single, named); ok {
				// The default key, one field, present: what ElementKey
				// reads, read once.
				ks, id = lk.DefaultSet(), format.SingleKey(v)
			} else {
				ks, id, err = lk.ElementKey(m, a.Cfg.Directives, nil)
			}
			if err != nil && keyless && pe.directive == "" && errpath.KindOf(err) == errpath.ErrMissingMergeKey {
				ks, err = lk.DefaultSet(), nil
				id, pe.At = format.IDOf(ks, m), where(i)
			}
			if err != nil {
				// Again, with the element's path for the error.
				_, _, err = lk.ElementKey(m, a.Cfg.Directives, where(i))
				return nil, err
			}
			pe.ks, pe.id = ks, id
		} else {
			pe.At = where(i)
		}
		pe.unread = named && !a.Cfg.Directives.Understood(format.DirPatchMergeKey)
		if named && pe.directive == "" && !order {
			// Merged without its directive; a directive element's body
			// is not read.
			body := make(map[string]any, len(m))
			for k, v := range m {
				if k != format.KeyPatchMergeKey && k != format.KeyPatch {
					body[k] = v
				}
			}
			pe.Body = body
		}
		if pe.At == nil && !order {
			pe.At = at.KeyedIn(&pe.node, &pe.ks, m) // the key set in out
		}
	}
	return out, nil
}

// singleKey returns element m's value of field single, the default
// merge key's one field ("" for another key), when m names no other key
// set ($patchMergeKey) and holds a valid key there: what ElementKey would
// read as the identity.
func singleKey(m map[string]any, single string, named bool) (any, bool) {
	if single == "" || named {
		return nil, false
	}
	v, ok := m[single]
	return v, ok && v != nil && jsonval.HasScalarKey(v)
}

// deleteElems runs the deletions of a patch list. With $setElementOrder
// (keep), an element the patch deletes and creates anew (the differ's way
// to replace one whole) keeps its place among the live elements the order
// does not name: its first live match stays, to be merged into from
// nothing (reset), so that applying the patch again leaves the order as it
// is. (Kubernetes moves it; without the order, so does this applier.)
// Elements whose $patchMergeKey this applier does not read may be two
// elements to their writer: they are deleted and added as usual.
func deleteElems(x *format.ListIndex, src format.Identities, elems []PatchElem, keep bool) (reset map[int]bool) {
	type identity struct{ sig, id string }
	var created map[identity]bool
	for _, pe := range elems {
		if pe.directive != format.PatchDelete {
			continue
		}
		if keep && created == nil {
			created = make(map[identity]bool, len(elems))
			for _, pe := range elems {
				if pe.directive == "" && !pe.unread {
					created[identity{pe.ks.Sig(), pe.id}] = true
				}
			}
		}
		if !pe.unread && created[identity{pe.ks.Sig(), pe.id}] {
			if ps := x.Positions(src, pe.ks, pe.id); len(ps) > 0 {
				if reset == nil {
					reset = map[int]bool{}
				}
				reset[ps[0]] = true // the first match is re-created in place
				for _, p := range ps[1:] {
					x.Remove(p)
				}
				continue
			}
		}
		x.RemoveAll(src, pe.ks, pe.id)
	}
	return reset
}

func idsUnder(ks format.KeySet, items []any) []string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = format.IDOf(ks, it)
	}
	return ids
}
