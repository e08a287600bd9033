package engine

import (
	"slices"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Applier merges a patch into a document. It never changes either input:
// merged objects and lists are new values that share untouched subtrees
// with the document.
type Applier struct {
	Cfg *Config
	// picks is PlanSet's buffer, reused from set to set (sets do not nest).
	picks []setPick
}

// MergeValue merges patch value pv into the document value ov (present
// says whether the document has one) at slot s. keep is false when the
// value is to be removed.
func (a *Applier) MergeValue(ov any, present bool, pv any, s slot, at *pathNode) (v any, keep bool, err error) {
	if pv == nil {
		return nil, false, nil
	}
	if err := a.CheckType(pv, s, at); err != nil {
		return nil, false, err
	}
	k := s.Kind()
	if k == reflectschema.Atomic {
		return pv, true, nil
	}
	if s.Undeclared && present {
		ov = jsonval.Expand(ov)
		if err := unknownMerge(a.Cfg, ov, pv, s, at); err != nil {
			return nil, false, err
		}
	}
	switch p := pv.(type) {
	case map[string]any:
		om, owned := expandObject(ov, s)
		return a.mergeObject(om, p, s, s.Patch.Strategy == reflectschema.Replace, owned, at)
	case []any:
		if k == reflectschema.Untyped || !s.IsMergeList() {
			l, err := a.FinalizeList(p, s, at)
			return l, true, err
		}
		ol, isList := jsonval.Expand(ov).([]any)
		l, err := a.MergeList(ListInput{Orig: ol, OrigPresent: present && isList, Patch: p, InPatch: true}, s, at)
		return l, true, err
	}
	return pv, true, nil
}

// expandObject returns live value v as an object to merge into, nil if
// it is none. From a raw object it makes a map, this merge's alone
// (owned), whose keys share the names of s's fields.
func expandObject(v any, s slot) (om map[string]any, owned bool) {
	switch v := v.(type) {
	case map[string]any:
		return v, false
	case jsonval.Raw:
		if jsonval.RawKind(v) == jsonval.KindObject {
			return jsonval.ExpandNamed(v, s.Type.FieldName), true
		}
	}
	return nil, false
}

// MergeObject merges patch object pm into document object om (nil when
// absent). replace starts from an empty object, for a field whose strategy
// is replace.
func (a *Applier) MergeObject(om, pm map[string]any, s slot, replace bool, at *pathNode) (map[string]any, bool, error) {
	return a.mergeObject(om, pm, s, replace, false, at)
}

// mergeObject is MergeObject; owned says om is the caller's to change,
// so that the result may be om itself.
func (a *Applier) mergeObject(om, pm map[string]any, s slot, replace, owned bool, at *pathNode) (map[string]any, bool, error) {
	if raw, ok := pm[format.KeyPatch]; ok {
		d, err := format.PatchDirective(raw, false, at)
		if err != nil || d == format.PatchDelete {
			return nil, false, err
		}
		replace = true
	}
	if replace {
		om, owned = nil, false
	}
	res := om
	if !owned {
		res = make(map[string]any, len(om)+len(pm))
		for k, v := range om {
			res[k] = v
		}
	}
	if err := a.RetainKeys(res, pm, s, at); err != nil {
		return nil, false, err
	}
	var small [8]string
	p, err := a.SplitObjectPatch(pm, s, at, small[:0])
	if err != nil {
		return nil, false, err
	}
	// Every name is merged, in the map's order; the least name's error
	// wins, so errors do not depend on that order and no sort is needed.
	var first errpath.KeyedErr
	for _, name := range p.Names {
		first.Keep(name, a.mergeName(res, pm, p, name, s, at))
	}
	if first.Err != nil {
		return nil, false, first.Err
	}
	return res, true, nil
}

// mergeName merges the patch's field name, with its parallel directives,
// into res.
func (a *Applier) mergeName(res, pm map[string]any, p ObjectPatch, name string, s slot, at *pathNode) error {
	c := s.Child(name)
	pv, inPatch := pm[name]
	if inPatch && pv == nil {
		delete(res, name)
		return nil
	}
	directed := p.Directed(name)
	if !directed && jsonval.IsScalar(pv) {
		// The common leaf: no path is built unless it is wrong.
		if err := a.CheckType(pv, c, nil); err != nil {
			return a.CheckType(pv, c, at.Field(name))
		}
		res[name] = pv
		return nil
	}
	cat := at.Field(name)
	if !directed {
		ov, present := res[name]
		v, keep, err := a.MergeValue(ov, present, pv, c, cat)
		if err != nil {
			return err
		}
		if keep {
			res[name] = v
		} else {
			delete(res, name)
		}
		return nil
	}
	in, err := p.ListInput(pm, name, at)
	if err != nil {
		return err
	}
	ov, present := res[name]
	ov = jsonval.Expand(ov)
	if ol, isList := ov.([]any); isList {
		in.Orig, in.OrigPresent = ol, true
	} else if present && ov != nil {
		return newError(errpath.ErrTypeMismatch, cat, "directives for a list, but the document holds %s", jsonval.KindOf(ov).WithArticle())
	}
	if !in.OrigPresent && !inPatch {
		return nil // ordering or deleting in a list that is not there
	}
	if !c.IsMergeList() {
		l, err := a.orderReplacedList(in, c, cat)
		if err != nil {
			return err
		}
		res[name] = l
		return nil
	}
	l, err := a.MergeList(in, c, cat)
	if err != nil {
		return err
	}
	res[name] = l
	return nil
}

// ObjectPatch is a patch object's content sorted out: the fields to merge
// (names, each once, including lists only named by a parallel directive) and
// the parallel lists by the name of the list they apply to.
type ObjectPatch struct {
	Names    []string
	setOrder map[string][]any
	deletes  map[string][]any
}

// SplitObjectPatch sorts a patch object's keys into fields and directives,
// checking each directive's JSON type and that its list takes it. The
// names are appended to names[:0], a caller's buffer.
func (a *Applier) SplitObjectPatch(pm map[string]any, s slot, at *pathNode, names []string) (ObjectPatch, error) {
	p := ObjectPatch{Names: names[:0]}
	add := func(n string) { p.Names = append(p.Names, n) }
	var first errpath.KeyedErr // the least key's error, whatever the map's order
	for k, v := range pm {
		kind, list := format.Classify(k)
		if !a.Cfg.Directives.Understood(kind) {
			continue // an older applier drops what it does not know
		}
		switch kind {
		case format.DirPatch, format.DirRetainKeys:
		case format.DirPatchMergeKey:
			first.Keep(k, newError(errpath.ErrDirectiveNotAllowed, at.Field(k), "%s belongs in an element of a merge list of objects", format.KeyPatchMergeKey))
			continue
		case format.DirSetOrder, format.DirDeleteFromList:
			c := s.Child(list)
			l, ok := v.([]any)
			if !ok {
				first.Keep(k, newError(errpath.ErrInvalidDirective, at.Field(k), "%s must be a list, not %s", k, jsonval.KindOf(v).WithArticle()))
				continue
			}
			if !c.IsMergeList() && !a.orderAnywhere(kind, c) {
				first.Keep(k, newError(errpath.ErrDirectiveNotAllowed, at.Field(k), "%q is not a merge list (patchStrategy merge)", list))
				continue
			}
			if kind == format.DirDeleteFromList {
				if c.IsObjectList() {
					first.Keep(k, newError(errpath.ErrDirectiveNotAllowed, at.Field(k), "%q is a list of objects; delete its elements with %s: %s", list, format.KeyPatch, format.PatchDelete))
					continue
				}
				if p.deletes == nil {
					p.deletes = map[string][]any{}
				}
				p.deletes[list] = l
			} else {
				if p.setOrder == nil {
					p.setOrder = map[string][]any{}
				}
				p.setOrder[list] = l
			}
			add(list)
		case format.DirUnknown:
			if s.Kind() == reflectschema.Struct && s.Type.Field(k) == nil {
				first.Keep(k, newError(errpath.ErrUnknownDirective, at.Field(k), "unknown directive %q", k))
				continue
			}
			add(k)
		default:
			add(k)
		}
	}
	if first.Err != nil {
		return p, first.Err
	}
	if p.setOrder != nil || p.deletes != nil {
		// A list may be named by its field and two directives.
		p.Names = uniqueStrings(p.Names)
	}
	return p, nil
}

// Directed reports whether a parallel directive names list name.
func (p ObjectPatch) Directed(name string) bool {
	_, hasOrder := p.setOrder[name]
	_, hasDels := p.deletes[name]
	return hasOrder || hasDels
}

// ListInput gathers what the patch says of list name: its patch list and
// parallel directives. orig is the caller's to fill in.
func (p ObjectPatch) ListInput(pm map[string]any, name string, at *pathNode) (ListInput, error) {
	order, hasOrder := p.setOrder[name]
	dels, hasDels := p.deletes[name]
	pv, inPatch := pm[name]
	in := ListInput{setOrder: order, hasSetOrder: hasOrder, deletes: dels, hasDeletes: hasDels, InPatch: inPatch,
		dirsAt: at, name: name}
	if inPatch {
		pl, ok := pv.([]any)
		if !ok {
			return in, newError(errpath.ErrTypeMismatch, at.Field(name), "expected an array for a merge list, found %s", jsonval.KindOf(pv).WithArticle())
		}
		in.Patch = pl
	}
	return in, nil
}

// uniqueStrings drops repeated strings from names, in place, keeping
// the first of each.
func uniqueStrings(names []string) []string {
	seen := make(map[string]bool, len(names))
	return slices.DeleteFunc(names, func(n string) bool {
		dup := seen[n]
		seen[n] = true
		return dup
	})
}

// RetainKeys applies a $retainKeys directive: it checks that the patch
// sets only listed fields, then clears the unlisted ones from res.
func (a *Applier) RetainKeys(res, pm map[string]any, s slot, at *pathNode) error {
	raw, ok := pm[format.KeyRetainKeys]
	if !ok || !a.Cfg.Directives.Understood(format.DirRetainKeys) {
		return nil
	}
	dat := at.Field(format.KeyRetainKeys)
	if !s.Patch.RetainKeys && !a.Cfg.KubeDirectiveScope {
		return newError(errpath.ErrDirectiveNotAllowed, dat, "%s on an object whose field has no retainKeys strategy", format.KeyRetainKeys)
	}
	list, ok := raw.([]any)
	if !ok {
		return newError(errpath.ErrInvalidDirective, dat, "%s must be a list of field names, not %s", format.KeyRetainKeys, jsonval.KindOf(raw).WithArticle())
	}
	keep := make(map[string]bool, len(list))
	for _, v := range list {
		name, ok := v.(string)
		if !ok {
			return newError(errpath.ErrInvalidDirective, dat, "%s must list field names, found %s", format.KeyRetainKeys, jsonval.KindOf(v).WithArticle())
		}
		keep[name] = true
	}
	for _, k := range jsonval.SortedKeys(pm) { // sorted: the first bad field is reported, always the same
		v := pm[k]
		if kind, _ := format.Classify(k); kind != format.NotDirective && kind != format.DirUnknown {
			continue
		}
		if v != nil && !keep[k] {
			return newError(errpath.ErrRetainKeys, at.Field(k), "field %q is set by the patch but not listed in %s", k, format.KeyRetainKeys)
		}
	}
	for k := range res {
		if !keep[k] {
			delete(res, k)
		}
	}
	return nil
}

// FinalizeList turns a patch list into a document list for a list that is
// replaced: objects are merged into nothing, so they lose their directives
// and nulls, and directive elements are dropped. Untyped lists are no
// exception: a result never holds a $ key the patch meant as a directive.
func (a *Applier) FinalizeList(p []any, s slot, at *pathNode) ([]any, error) {
	out := make([]any, 0, len(p))
	es := s.Elem()
	for i, e := range p {
		if l, ok := e.([]any); ok && es.Kind() == reflectschema.Untyped {
			fl, err := a.FinalizeList(l, es, at.Index(i))
			if err != nil {
				return nil, err
			}
			out = append(out, fl)
			continue
		}
		m, ok := e.(map[string]any)
		if !ok {
			if err := a.CheckType(e, es, at.Index(i)); err != nil {
				return nil, err
			}
			out = append(out, e)
			continue
		}
		if _, directive := m[format.KeyPatch]; directive {
			continue
		}
		if es.Kind() == reflectschema.Atomic {
			out = append(out, m)
			continue
		}
		v, keep, err := a.MergeObject(nil, m, es, false, at.Index(i))
		if err != nil {
			return nil, err
		}
		if keep {
			out = append(out, v)
		}
	}
	return out, nil
}

// ApplyObject applies a decoded patch to a decoded document.
func ApplyObject(om, pm map[string]any, s slot, cfg *Config) (map[string]any, error) {
	a := &Applier{Cfg: cfg}
	res, keep, err := a.MergeObject(om, pm, s, false, nil)
	if err != nil {
		return nil, err
	}
	if !keep {
		res = map[string]any{}
	}
	return res, nil
}
