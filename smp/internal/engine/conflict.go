package engine

import (
	"slices"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Conflicts finds where two patches of one type set the same field
// differently, following Kubernetes' mergingMapFieldsHaveConflicts: maps
// compare key by key, merge lists element by merge key (lists of scalars
// never conflict), other lists as wholes, scalars by value.
type Conflicts struct {
	D     *Differ
	Paths []errpath.Path
	all   bool // collect every conflict, not just the first
}

func (c *Conflicts) found(at *pathNode) bool {
	c.Paths = append(c.Paths, at.Path())
	return !c.all
}

// Values compares left and right at slot s; it returns true to stop.
func (c *Conflicts) Values(left, right any, s slot, at *pathNode) bool {
	switch l := left.(type) {
	case map[string]any:
		r, ok := right.(map[string]any)
		if !ok {
			return c.found(at)
		}
		lm, lok := l[format.KeyPatch]
		rm, rok := r[format.KeyPatch]
		if (lok || rok) && (lok != rok || !jsonval.Equal(lm, rm)) {
			return c.found(at)
		}
		if s.Patch.Strategy == reflectschema.Replace {
			return false
		}
		for _, k := range jsonval.SortedKeys(l) {
			rv, ok := r[k]
			if !ok {
				continue
			}
			if kind, _ := format.Classify(k); kind != format.NotDirective && kind != format.DirUnknown {
				continue // parallel lists and directives do not conflict
			}
			if c.Values(l[k], rv, s.Child(k), at.Field(k)) {
				return true
			}
		}
		return false
	case []any:
		r, ok := right.([]any)
		if !ok {
			return c.found(at)
		}
		return c.lists(l, r, s, at)
	}
	if !jsonval.Equal(left, right) {
		return c.found(at)
	}
	return false
}

func (c *Conflicts) lists(l, r []any, s slot, at *pathNode) bool {
	if s.IsMergeList() {
		if !s.IsObjectList() {
			return false // merging sets of scalars cannot conflict
		}
		if hasReplaceMarker(l) || hasReplaceMarker(r) {
			if !jsonval.Equal(l, r) {
				return c.found(at)
			}
			return false
		}
		ks := c.D.ListKeySet(s)
		right := map[string]any{}
		for _, e := range r {
			right[format.IDOf(ks, e)] = e
		}
		es := s.Elem()
		es.Patch = reflectschema.PatchMeta{}
		for _, e := range l {
			id := format.IDOf(ks, e)
			if re, ok := right[id]; ok {
				m, _ := e.(map[string]any)
				if c.Values(e, re, es, at.Key(ks.KeyStep(m))) {
					return true
				}
			}
		}
		return false
	}
	if len(l) != len(r) {
		return c.found(at)
	}
	if len(l) > 0 && jsonval.KindOf(l[0]) != jsonval.KindObject {
		li, ri := scalarIDs(l), scalarIDs(r)
		slices.Sort(li)
		slices.Sort(ri)
		if !slices.Equal(slices.Compact(li), slices.Compact(ri)) {
			return c.found(at)
		}
		return false
	}
	for i := range l {
		if c.Values(l[i], r[i], slot{Type: s.Elem().Type}, at.Index(i)) {
			return true
		}
	}
	return false
}

// hasReplaceMarker reports whether a patch list replaces its list.
func hasReplaceMarker(l []any) bool {
	for _, e := range l {
		if m, ok := e.(map[string]any); ok && m[format.KeyPatch] == format.PatchReplace {
			return true
		}
	}
	return false
}
