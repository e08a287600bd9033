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
	picks []SetPick
	// names holds the names of the objects being merged, outermost first
	// (MergeObjectOf), in nameBuf while they fit.
	names   []string
	nameBuf [16]string
}

// mergeValue merges patch value pv into the document value ov (present
// says whether the document has one) at slot s. keep is false when the
// value is to be removed.
func (a *Applier) mergeValue(ov any, present bool, pv any, s slot, at *pathNode) (v any, keep bool, err error) {
	return MergeValueOf(a, jsonValue{a: a, ov: ov, present: present}, pv, s, at)
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
	b, keep, err := MergeObjectOf(a, jsonObj{a: a, res: om, owned: owned}, pm, s, replace, at)
	if err != nil || !keep {
		return nil, false, err
	}
	return b.res, true, nil
}

// ObjectPatch is a patch object's content sorted out: the fields to merge
// (names, each once, including lists only named by a parallel directive) and
// the parallel lists by the name of the list they apply to.
type ObjectPatch struct {
	Names []string
	// The parallel lists: the first ndirs in dirs, the others in more.
	dirs  [4]listDir
	ndirs int
	more  []listDir
	// The values of $patch and $retainKeys, when the object holds them.
	patch, retain       any
	hasPatch, hasRetain bool
}

// listDir is one parallel list: $setElementOrder (order) or
// $deleteFromPrimitiveList of list name.
type listDir struct {
	name  string
	order bool
	l     []any
}

// dirAt is the i-th parallel list.
func (p *ObjectPatch) dirAt(i int) *listDir {
	if i < len(p.dirs) {
		return &p.dirs[i]
	}
	return &p.more[i-len(p.dirs)]
}

// dir returns the parallel list of that kind for list name.
func (p *ObjectPatch) dir(name string, order bool) ([]any, bool) {
	for i := range p.ndirs {
		if d := p.dirAt(i); d.order == order && d.name == name {
			return d.l, true
		}
	}
	return nil, false
}

// SplitObjectPatch sorts a patch object's keys into fields and directives,
// into p, a zero ObjectPatch, checking each directive's JSON type and that
// its list takes it. The names are appended to names[:0], a caller's
// buffer.
func (a *Applier) SplitObjectPatch(pm map[string]any, s slot, at *pathNode, names []string, p *ObjectPatch) error {
	p.Names = names[:0]
	add := func(n string) { p.Names = append(p.Names, n) }
	var first errpath.KeyedErr // the least key's error, whatever the map's order
	for k, v := range pm {
		switch k {
		case format.KeyPatch:
			p.patch, p.hasPatch = v, true
		case format.KeyRetainKeys:
			p.retain, p.hasRetain = v, true
		}
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
			}
			p.addDir(listDir{name: list, order: kind == format.DirSetOrder, l: l})
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
		return first.Err
	}
	if p.ndirs > 0 {
		// A list may be named by its field and two directives.
		p.Names = uniqueStrings(p.Names)
	}
	return nil
}

// addDir adds parallel list d, in place of one of the same kind and list.
func (p *ObjectPatch) addDir(d listDir) {
	for i := range p.ndirs {
		if e := p.dirAt(i); e.order == d.order && e.name == d.name {
			*e = d
			return
		}
	}
	if p.ndirs < len(p.dirs) {
		p.dirs[p.ndirs] = d
	} else {
		p.more = append(p.more, d)
	}
	p.ndirs++
}

// Directed reports whether a parallel directive names list name.
func (p *ObjectPatch) Directed(name string) bool {
	for i := range p.ndirs {
		if p.dirAt(i).name == name {
			return true
		}
	}
	return false
}

// ListInput gathers what the patch says of list name: its patch list and
// parallel directives. orig is the caller's to fill in.
func (p *ObjectPatch) ListInput(pm map[string]any, name string, at *pathNode) (ListInput, error) {
	order, hasOrder := p.dir(name, true)
	dels, hasDels := p.dir(name, false)
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
	if len(names) <= smallIDs {
		out := names[:0]
		for _, n := range names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		clear(names[len(out):])
		return out
	}
	seen := make(map[string]bool, len(names))
	return slices.DeleteFunc(names, func(n string) bool {
		dup := seen[n]
		seen[n] = true
		return dup
	})
}

// retainedKeys reads a $retainKeys directive, raw when pm has one (ok):
// it checks that the patch sets only listed fields and returns those it
// keeps (nil without one).
func (a *Applier) retainedKeys(pm map[string]any, raw any, ok bool, s slot, at *pathNode) (map[string]bool, error) {
	if !ok || !a.Cfg.Directives.Understood(format.DirRetainKeys) {
		return nil, nil
	}
	dat := at.Field(format.KeyRetainKeys)
	if !s.Patch.RetainKeys && !a.Cfg.KubeDirectiveScope {
		return nil, newError(errpath.ErrDirectiveNotAllowed, dat, "%s on an object whose field has no retainKeys strategy", format.KeyRetainKeys)
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, newError(errpath.ErrInvalidDirective, dat, "%s must be a list of field names, not %s", format.KeyRetainKeys, jsonval.KindOf(raw).WithArticle())
	}
	keep := make(map[string]bool, len(list))
	for _, v := range list {
		name, ok := v.(string)
		if !ok {
			return nil, newError(errpath.ErrInvalidDirective, dat, "%s must list field names, found %s", format.KeyRetainKeys, jsonval.KindOf(v).WithArticle())
		}
		keep[name] = true
	}
	for _, k := range jsonval.SortedKeys(pm) { // sorted: the first bad field is reported, always the same
		v := pm[k]
		if kind, _ := format.Classify(k); kind != format.NotDirective && kind != format.DirUnknown {
			continue
		}
		if v != nil && !keep[k] {
			return nil, newError(errpath.ErrRetainKeys, at.Field(k), "field %q is set by the patch but not listed in %s", k, format.KeyRetainKeys)
		}
	}
	return keep, nil
}

// finalizeList turns a patch list into a document list for a list that is
// replaced: objects are merged into nothing, so they lose their directives
// and nulls, and directive elements are dropped. Untyped lists are no
// exception: a result never holds a $ key the patch meant as a directive.
func (a *Applier) finalizeList(p []any, s slot, at *pathNode) ([]any, error) {
	out := make([]any, 0, len(p))
	es := s.Elem()
	for i, e := range p {
		if l, ok := e.([]any); ok && es.Kind() == reflectschema.Untyped {
			fl, err := a.finalizeList(l, es, at.Index(i))
			if err != nil {
				return nil, err
			}
			out = append(out, fl)
			continue
		}
		m, ok := e.(map[string]any)
		if !ok {
			if err := a.checkType(e, es, at.Index(i)); err != nil {
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
