package property

import (
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// jmutate returns a copy of the JSON value v (at s) with edits drawn, as
// mutate does for Go values: objects field by field, fields set and
// cleared as pointers are, maps and lists entry by entry.
func (g *generator) jmutate(t *rapid.T, s site, v any) any {
	if g.paths {
		segs := s.p.segments()
		for _, pat := range g.cfg.omit {
			if pat.matches(segs) {
				return jcopy(v)
			}
		}
		for i := len(g.cfg.overrides) - 1; i >= 0; i-- {
			if g.cfg.overrides[i].pat.matches(segs) {
				return g.jredrawOr(t, s, v, editScalar)
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		switch s.n.kind() {
		case reflectschema.Struct:
			return g.jmutateStruct(t, s, x)
		case reflectschema.Map:
			return g.jmutateMap(t, s, x)
		}
	case []any:
		if s.n.kind() == reflectschema.List {
			return g.jmutateList(t, s, x)
		}
	}
	return g.jredrawOr(t, s, v, editScalar)
}

// jredrawOr redraws the value with probability 1/den, else copies it.
func (g *generator) jredrawOr(t *rapid.T, s site, v any, den int) any {
	if chance(t, s.label(g, " (redraw)"), den) {
		if nv := g.jvalue(t, s); nv != nil {
			return nv
		}
	}
	return jcopy(v)
}

// jmutateStruct edits each field the schema declares (fields it does not
// are copied); a union may switch to another member. Merge key fields are
// left to the list (rekey).
func (g *generator) jmutateStruct(t *rapid.T, s site, v map[string]any) any {
	if s.n.isUnion() && chance(t, s.label(g, " (switch member)"), editUnion) {
		return g.jswitchMember(t, s, v)
	}
	out := jcopy(v).(map[string]any)
	for _, f := range s.n.t.Fields {
		if s.keys.isKey(f.Name) {
			continue
		}
		fs := site{n: node{t: f.Type, meta: f.Patch}, p: s.p.field(f.Name), depth: s.depth + 1, optional: true}
		cur, ok := v[f.Name]
		switch {
		case !ok || cur == nil:
			if (fs.depth < g.cfg.maxDepth || !container(fs.n)) && chance(t, fs.label(g, " (set)"), editPointer) {
				fs.optional = false
				if nv := g.jvalue(t, fs); nv != nil {
					out[f.Name] = nv
				}
			}
		case chance(t, fs.label(g, " (clear)"), editPointer):
			delete(out, f.Name)
		default:
			out[f.Name] = g.jmutate(t, fs, cur)
		}
	}
	return out
}

// jswitchMember clears a union's members and sets one drawn anew.
func (g *generator) jswitchMember(t *rapid.T, s site, v map[string]any) any {
	out := jcopy(v).(map[string]any)
	members := unionMembers(s.n, s.keys)
	if len(members) == 0 {
		return out
	}
	for _, i := range members {
		delete(out, s.n.t.Fields[i].Name)
	}
	f := s.n.t.Fields[members[rapid.IntRange(0, len(members)-1).Draw(t, s.label(g, "(new member)"))]]
	fs := site{n: node{t: f.Type, meta: f.Patch}, p: s.p.field(f.Name), depth: s.depth + 1}
	if nv := g.jvalue(t, fs); nv != nil {
		out[f.Name] = nv
	}
	return out
}

// jmutateMap edits, deletes and adds entries.
func (g *generator) jmutateMap(t *rapid.T, s site, v map[string]any) any {
	out := make(map[string]any, len(v))
	for _, k := range sortedJSONKeys(v) {
		es := site{n: s.n.child(""), p: s.p.key(k), depth: s.depth + 1}
		if chance(t, es.label(g, " (delete)"), editDelete) {
			continue
		}
		if ev := g.jmutate(t, es, v[k]); ev != nil {
			out[k] = ev
		}
	}
	if s.depth < g.cfg.maxDepth && chance(t, s.label(g, " (add)"), editInsert) {
		k := rapid.SampledFrom(mapKeys).Draw(t, s.label(g, "[key]"))
		es := site{n: s.n.child(""), p: s.p.key(k), depth: s.depth + 1}
		if ev := g.jrequired(t, es); ev != nil {
			out[k] = ev
		}
	}
	return out
}

// jmutateList edits, deletes, rekeys, adds and reorders elements.
func (g *generator) jmutateList(t *rapid.T, s site, v []any) any {
	if len(v) == 0 {
		if s.depth < g.cfg.maxDepth && chance(t, s.label(g, " (create)"), editPointer) {
			if l := g.jlist(t, s); l != nil {
				return l
			}
		}
		return jcopy(v)
	}
	if !s.n.isMergeList() && chance(t, s.label(g, " (redraw)"), editRedraw) {
		if l := g.jlist(t, s); l != nil {
			return l
		}
		return []any{}
	}
	keys := newKeyCtx(s.n)
	es := site{n: s.n.elem(), depth: s.depth + 1, keys: keys}
	var elems []any
	for i, e := range v {
		es.p = s.p.at(i)
		if chance(t, es.label(g, " (delete)"), editDelete) {
			continue
		}
		if keys != nil && chance(t, es.label(g, " (rekey)"), editRekey) {
			elems = append(elems, g.jrekey(t, es, e, keys.full))
			continue
		}
		elems = append(elems, g.jmutate(t, es, e))
	}
	if s.depth < g.cfg.maxDepth && chance(t, s.label(g, " (add)"), editInsert) {
		es.p = s.p.at(len(elems))
		var e any
		if keys != nil && keys.shared && len(elems) > 0 && rapid.Bool().Draw(t, s.label(g, " (share a key field)")) {
			// Same default key, other recommended key; or, for a
			// multi-field key, one key field changed.
			src := elems[rapid.IntRange(0, len(elems)-1).Draw(t, s.label(g, " (element to share with)"))]
			fields := keys.full[len(keys.def):]
			if len(fields) == 0 {
				fields = keys.def
			}
			e = g.jrekey(t, es, src, fields)
		} else {
			e = g.jelement(t, es)
		}
		if e != nil {
			at := rapid.IntRange(0, len(elems)).Draw(t, s.label(g, " (add at)"))
			elems = append(elems[:at], append([]any{e}, elems[at:]...)...)
		}
	}
	if len(elems) > 1 && chance(t, s.label(g, " (reorder)"), editReorder) {
		idx := make([]int, len(elems))
		for i := range idx {
			idx[i] = i
		}
		perm := rapid.Permutation(idx).Draw(t, s.label(g, " (order)"))
		re := make([]any, len(elems))
		for i, j := range perm {
			re[i] = elems[j]
		}
		elems = re
	}
	out := make([]any, 0, len(elems))
	ids := map[string]bool{}
	for _, e := range elems {
		if s.n.isMergeList() && !g.dups {
			id := jelemID(e, s.n)
			if ids[id] {
				continue
			}
			ids[id] = true
		}
		out = append(out, e)
	}
	return out
}

// jrekey returns a copy of a merge-list element with one of fields (key
// fields) drawn anew.
func (g *generator) jrekey(t *rapid.T, es site, e any, fields []string) any {
	out := jcopy(e)
	m, ok := out.(map[string]any)
	if !ok {
		return out
	}
	name := fields[rapid.IntRange(0, len(fields)-1).Draw(t, es.label(g, " (key field)"))]
	var v any
	if es.n.kind() == reflectschema.Struct {
		f := es.n.t.Field(name)
		if f == nil {
			return out
		}
		fs := site{n: node{t: f.Type, meta: f.Patch}, p: es.p.field(name), depth: es.depth + 1, kr: es.keys.role(name)}
		v = g.jfield(t, fs)
	} else {
		kv, ok := g.keyValue(t, es, name)
		if !ok {
			return out
		}
		v = kv
	}
	if v == nil {
		delete(m, name)
	} else {
		m[name] = v
	}
	return m
}
