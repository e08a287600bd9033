package engine

import (
	"slices"
	"strconv"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

func PatchName(i int) string { return "patch " + strconv.Itoa(i+1) }

// ComposeAll checks each patch on an empty document, then composes them.
func ComposeAll(s slot, cfg *Config, pms []map[string]any) (map[string]any, error) {
	for i, pm := range pms {
		if _, err := ApplyObject(map[string]any{}, pm, s, cfg); err != nil {
			if e, ok := err.(*errpath.Error); ok {
				c := *e
				c.Msg = PatchName(i) + ": " + e.Msg
				return nil, &c
			}
			return nil, err
		}
	}
	if len(pms) == 0 {
		return map[string]any{}, nil
	}
	return composeRange(s, cfg, pms, 0, len(pms))
}

// composeRange composes patches lo..hi-1 as two halves, so that each
// level of halving copies each patch's content once: n patches of total
// size m cost O(m log n), where folding one by one would cost O(n m).
func composeRange(s slot, cfg *Config, pms []map[string]any, lo, hi int) (map[string]any, error) {
	if hi-lo == 1 {
		return pms[lo], nil
	}
	mid := lo + (hi-lo)/2
	a, err := composeRange(s, cfg, pms, lo, mid)
	if err != nil {
		return nil, err
	}
	b, err := composeRange(s, cfg, pms, mid, hi)
	if err != nil {
		return nil, err
	}
	c := &composer{cfg: cfg, earlier: rangeName(lo, mid), later: rangeName(mid, hi)}
	return c.object(a, b, s, nil, false)
}

// rangeName names patches lo..hi-1 for messages, counting from 1.
func rangeName(lo, hi int) string {
	if hi-lo == 1 {
		return PatchName(lo)
	}
	return "patches " + strconv.Itoa(lo+1) + "-" + strconv.Itoa(hi)
}

// composer composes the earlier patches' composition with the later
// ones'. It never changes its inputs; results share untouched subtrees
// with them.
type composer struct {
	cfg            *Config
	earlier, later string
}

func (c *composer) refuse(at *pathNode, format string, args ...any) error {
	e := newError(errpath.ErrNotComposable, at, format, args...)
	e.Msg = "cannot compose " + c.earlier + " and " + c.later + ": " + e.Msg
	return e
}

// object composes two patches for one object. fresh says the object is
// known to be absent before a (a replaced or recreated it), so that what
// A removes need not be removed again.
func (c *composer) object(a, b map[string]any, s slot, at *pathNode, fresh bool) (map[string]any, error) {
	if s.Patch.Strategy == reflectschema.Replace {
		return b, nil // b replaces the object whatever a left there
	}
	switch b[format.KeyPatch] {
	case format.PatchDelete, format.PatchReplace:
		return b, nil
	}
	switch a[format.KeyPatch] {
	case format.PatchDelete:
		return replaceForm(b), nil
	}
	res := make(map[string]any, len(a)+len(b))
	if a[format.KeyPatch] == format.PatchReplace {
		res[format.KeyPatch] = format.PatchReplace
		fresh = true
	}
	clearedByB, clearedByA := c.retainKeys(res, a, b)
	var err error
	for _, name := range fieldNames(a, b) {
		if clearedByB(name) {
			continue // the composed $retainKeys clears it too
		}
		ap, bp := partOf(a, name), partOf(b, name)
		switch {
		case fresh && (ap.null() || clearedByA(name)):
			ap = fieldPart{} // absent before a, absent after it
		case clearedByA(name):
			ap = fieldPart{has: true} // a cleared it: b applies to nothing
		}
		cs, cat := s.Child(name), at.Field(name)
		var out fieldPart
		if cs.IsMergeList() {
			out, err = c.listField(ap, bp, cs, cat, fresh)
		} else {
			out, err = c.valueField(ap, bp, cs, cat, fresh)
		}
		if err != nil {
			return nil, err
		}
		out.write(res, name)
	}
	return res, nil
}

// retainKeys writes the composed $retainKeys: the fields both patches
// keep, and those b sets. It returns which fields b's list clears, and
// which fields a's list cleared and b sets again.
func (c *composer) retainKeys(res, a, b map[string]any) (clearedByB, clearedByA func(string) bool) {
	k1, has1 := a[format.KeyRetainKeys].([]any)
	k2, has2 := b[format.KeyRetainKeys].([]any)
	none := func(string) bool { return false }
	if !has1 && !has2 {
		return none, none
	}
	set1, set2 := stringSet(k1), stringSet(k2)
	in1 := func(name string) bool { return !has1 || set1[name] }
	in2 := func(name string) bool { return !has2 || set2[name] }
	setByB := func(name string) bool {
		v, ok := b[name]
		kind, _ := format.Classify(name)
		return ok && v != nil && (kind == format.NotDirective || kind == format.DirUnknown)
	}
	keep := []any{}
	seen := map[string]bool{}
	for _, src := range [3][]any{k1, k2, keysAsAny(b)} {
		for _, v := range src {
			name, _ := v.(string)
			if !seen[name] && ((in1(name) && in2(name)) || setByB(name)) {
				seen[name] = true
				keep = append(keep, name)
			}
		}
	}
	res[format.KeyRetainKeys] = keep
	return func(name string) bool { return !in2(name) },
		func(name string) bool { return !in1(name) && setByB(name) }
}

func stringSet(l []any) map[string]bool {
	m := make(map[string]bool, len(l))
	for _, v := range l {
		if s, ok := v.(string); ok {
			m[s] = true
		}
	}
	return m
}

func keysAsAny(m map[string]any) []any {
	out := make([]any, 0, len(m))
	for _, k := range jsonval.SortedKeys(m) {
		out = append(out, k)
	}
	return out
}

// fieldNames lists, sorted, the fields either patch names, with the lists
// named only by a parallel directive.
func fieldNames(a, b map[string]any) []string {
	seen := make(map[string]bool, len(a)+len(b))
	names := make([]string, 0, len(a)+len(b))
	for _, m := range [2]map[string]any{a, b} {
		for k := range m {
			kind, list := format.Classify(k)
			switch kind {
			case format.NotDirective, format.DirUnknown:
			case format.DirSetOrder, format.DirDeleteFromList:
				k = list
			default:
				continue
			}
			if !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	slices.Sort(names)
	return names
}

// fieldPart is what one patch says of one field: its value (has; nil
// for null) and, for a merge list, its parallel directive lists.
type fieldPart struct {
	has      bool
	val      any
	order    []any
	hasOrder bool
	dels     []any
	hasDels  bool
}

func partOf(m map[string]any, name string) fieldPart {
	var p fieldPart
	p.val, p.has = m[name]
	if v, ok := m[format.PrefixSetOrder+name]; ok {
		p.order, _ = v.([]any)
		p.hasOrder = true
	}
	if v, ok := m[format.PrefixDeleteFromList+name]; ok {
		p.dels, _ = v.([]any)
		p.hasDels = true
	}
	return p
}

func (p fieldPart) any() bool { return p.has || p.hasOrder || p.hasDels }

func (p fieldPart) null() bool { return p.has && p.val == nil }

// write stores the part in a patch object; a null drops the directives.
func (p fieldPart) write(res map[string]any, name string) {
	if p.has {
		res[name] = p.val
		if p.val == nil {
			return
		}
	}
	if p.hasOrder {
		res[format.PrefixSetOrder+name] = p.order
	}
	if p.hasDels && len(p.dels) > 0 {
		res[format.PrefixDeleteFromList+name] = p.dels
	}
}

// valueField composes a field that is not a merge list.
func (c *composer) valueField(a, b fieldPart, s slot, at *pathNode, fresh bool) (fieldPart, error) {
	switch {
	case !b.has:
		return a, nil
	case !a.has || b.val == nil:
		return b, nil
	}
	bm, ok := b.val.(map[string]any)
	if !ok || s.Kind() == reflectschema.Atomic {
		return b, nil // scalars and replaced lists do not depend on what was there
	}
	am, ok := a.val.(map[string]any)
	if !ok || am[format.KeyPatch] == format.PatchDelete {
		return fieldPart{has: true, val: replaceForm(bm)}, nil
	}
	m, err := c.object(am, bm, s, at, fresh)
	return fieldPart{has: true, val: m}, err
}

// replaceForm returns patch object b as one that merges into nothing,
// whatever the document holds.
func replaceForm(b map[string]any) map[string]any {
	if _, ok := b[format.KeyPatch]; ok {
		return b
	}
	m := make(map[string]any, len(b)+1)
	for k, v := range b {
		m[k] = v
	}
	m[format.KeyPatch] = format.PatchReplace
	return m
}
