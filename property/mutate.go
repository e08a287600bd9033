package property

import (
	"reflect"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// How often each edit happens: one in so many chances. Every edit is a
// draw that shrinks to "no edit".
const (
	editScalar  = 8 // redraw a scalar, atomic or untyped value
	editPointer = 8 // clear a set pointer, or set a nil one
	editRedraw  = 12
	editDelete  = 8 // delete a list element or map entry
	editRekey   = 8 // change a merge-list element's key
	editInsert  = 3 // add list elements or map entries
	editReorder = 4 // permute a list
	editUnion   = 5 // switch a union's member
)

// mutate returns a copy of v (a value at s) with edits drawn.
func (g *generator) mutate(t *rapid.T, s site, v reflect.Value) reflect.Value {
	if g.paths {
		segs := s.p.segments()
		for _, pat := range g.cfg.omit {
			if pat.matches(segs) {
				return deepCopy(v)
			}
		}
		for i := len(g.cfg.overrides) - 1; i >= 0; i-- {
			if g.cfg.overrides[i].pat.matches(segs) {
				return g.redrawOr(t, s, v, editScalar)
			}
		}
	}
	if _, ok := g.cfg.types[s.typ]; ok {
		return g.redrawOr(t, s, v, editScalar)
	}
	if s.typ.Kind() == reflect.Pointer {
		if _, ok := g.cfg.types[s.typ.Elem()]; ok {
			return g.redrawOr(t, s, v, editScalar)
		}
		if v.IsNil() {
			if s.depth < g.cfg.maxDepth && chance(t, s.label(g, " (set)"), editPointer) {
				ns := s
				ns.optional = false
				return g.value(t, ns)
			}
			return deepCopy(v)
		}
		if s.kr == notKey && chance(t, s.label(g, " (clear)"), editPointer) {
			return reflect.New(s.typ).Elem()
		}
		es := s
		es.typ = s.typ.Elem()
		elem := g.mutate(t, es, v.Elem())
		out := reflect.New(s.typ).Elem()
		p := reflect.New(s.typ.Elem())
		p.Elem().Set(elem)
		out.Set(p)
		return out
	}
	switch s.n.kind() {
	case reflectschema.Struct:
		return g.mutateStruct(t, s, v)
	case reflectschema.Map:
		return g.mutateMap(t, s, v)
	case reflectschema.List:
		if s.typ.Kind() == reflect.Slice {
			return g.mutateList(t, s, v)
		}
		out := reflect.New(s.typ).Elem()
		es := site{n: s.n.elem(), typ: s.typ.Elem(), depth: s.depth + 1, keys: newKeyCtx(s.n)}
		for i := range v.Len() {
			es.p = s.p.at(i)
			out.Index(i).Set(g.mutate(t, es, v.Index(i)))
		}
		return out
	}
	return g.redrawOr(t, s, v, editScalar)
}

// redrawOr redraws the value with probability 1/den, else copies it.
func (g *generator) redrawOr(t *rapid.T, s site, v reflect.Value, den int) reflect.Value {
	if chance(t, s.label(g, " (redraw)"), den) {
		return g.value(t, s)
	}
	return deepCopy(v)
}

// mutateStruct edits each field; a union may switch to another member.
// Merge key fields are left to the list (rekey).
func (g *generator) mutateStruct(t *rapid.T, s site, v reflect.Value) reflect.Value {
	if s.n.isUnion() && chance(t, s.label(g, " (switch member)"), editUnion) {
		return g.switchMember(t, s, v)
	}
	// A shallow copy: every field the schema lists is replaced below by a
	// copy (key fields by a deep one).
	out := reflect.New(s.typ).Elem()
	out.Set(v)
	for _, f := range s.n.t.Fields {
		if s.keys.isKey(f.Name) {
			if fv, ok := fieldGet(v, f.Index); ok {
				setField(out, f.Index, deepCopy(fv))
			}
			continue
		}
		fv, ok := fieldGet(v, f.Index)
		if !ok {
			fv = reflect.New(f.GoType).Elem()
		}
		fs := site{n: node{t: f.Type, meta: f.Patch}, typ: f.GoType, p: s.p.field(f.Name), depth: s.depth + 1, optional: true}
		nv := g.mutate(t, fs, fv)
		if ok || !nv.IsZero() {
			setField(out, f.Index, nv)
		}
	}
	return out
}

// switchMember clears a union's members and sets one drawn anew.
func (g *generator) switchMember(t *rapid.T, s site, v reflect.Value) reflect.Value {
	out := deepCopy(v)
	members := unionMembers(s.n, s.keys)
	if len(members) == 0 {
		return out
	}
	for _, i := range members {
		f := s.n.t.Fields[i]
		if fv, ok := fieldGet(out, f.Index); ok {
			fv.Set(reflect.New(f.GoType).Elem())
		}
	}
	f := s.n.t.Fields[members[rapid.IntRange(0, len(members)-1).Draw(t, s.label(g, "(new member)"))]]
	fs := site{n: node{t: f.Type, meta: f.Patch}, typ: f.GoType, p: s.p.field(f.Name), depth: s.depth + 1}
	if nv := g.value(t, fs); !nv.IsZero() {
		setField(out, f.Index, nv)
	}
	return out
}

// mutateMap edits, deletes and adds entries.
func (g *generator) mutateMap(t *rapid.T, s site, v reflect.Value) reflect.Value {
	if v.IsNil() {
		if s.depth < g.cfg.maxDepth && chance(t, s.label(g, " (create)"), editPointer) {
			return g.mapValue(t, s)
		}
		return deepCopy(v)
	}
	out := reflect.MakeMapWithSize(s.typ, v.Len())
	for _, k := range sortedKeys(v) {
		es := site{n: s.n.child(""), typ: s.typ.Elem(), p: s.p.key(keyText(k)), depth: s.depth + 1}
		if chance(t, es.label(g, " (delete)"), editDelete) {
			continue
		}
		if ev := g.mutate(t, es, v.MapIndex(k)); !encodesNull(ev) {
			out.SetMapIndex(k, ev)
		}
	}
	if s.depth < g.cfg.maxDepth && chance(t, s.label(g, " (add)"), editInsert) {
		if k, ok := g.mapKey(t, s); ok {
			es := site{n: s.n.child(""), typ: s.typ.Elem(), p: s.p.key(keyText(k)), depth: s.depth + 1}
			if ev := g.value(t, es); !encodesNull(ev) {
				out.SetMapIndex(k, ev)
			}
		}
	}
	res := reflect.New(s.typ).Elem()
	res.Set(out)
	return res
}

// mutateList edits, deletes, rekeys, adds and reorders elements.
func (g *generator) mutateList(t *rapid.T, s site, v reflect.Value) reflect.Value {
	if v.IsNil() || v.Len() == 0 {
		if s.depth < g.cfg.maxDepth && chance(t, s.label(g, " (create)"), editPointer) {
			return g.list(t, s)
		}
		return deepCopy(v)
	}
	if !s.n.isMergeList() && chance(t, s.label(g, " (redraw)"), editRedraw) {
		return g.list(t, s)
	}
	keys := newKeyCtx(s.n)
	es := site{n: s.n.elem(), typ: s.typ.Elem(), depth: s.depth + 1, keys: keys}
	var elems []reflect.Value
	for i := range v.Len() {
		es.p = s.p.at(i)
		if chance(t, es.label(g, " (delete)"), editDelete) {
			continue
		}
		if keys != nil && chance(t, es.label(g, " (rekey)"), editRekey) {
			elems = append(elems, g.rekey(t, es, v.Index(i), keys.full))
			continue
		}
		elems = append(elems, g.mutate(t, es, v.Index(i)))
	}
	if s.depth < g.cfg.maxDepth && chance(t, s.label(g, " (add)"), editInsert) {
		es.p = s.p.at(len(elems))
		var e reflect.Value
		if keys != nil && keys.shared && len(elems) > 0 && rapid.Bool().Draw(t, s.label(g, " (share a key field)")) {
			// Same default key, other recommended key; or, for a
			// multi-field key, one key field changed.
			src := elems[rapid.IntRange(0, len(elems)-1).Draw(t, s.label(g, " (element to share with)"))]
			fields := keys.full[len(keys.def):]
			if len(fields) == 0 {
				fields = keys.def
			}
			e = g.rekey(t, es, src, fields)
		} else {
			e = g.element(t, es)
		}
		if e.IsValid() {
			at := rapid.IntRange(0, len(elems)).Draw(t, s.label(g, " (add at)"))
			elems = append(elems[:at], append([]reflect.Value{e}, elems[at:]...)...)
		}
	}
	if len(elems) > 1 && chance(t, s.label(g, " (reorder)"), editReorder) {
		idx := make([]int, len(elems))
		for i := range idx {
			idx[i] = i
		}
		perm := rapid.Permutation(idx).Draw(t, s.label(g, " (order)"))
		re := make([]reflect.Value, len(elems))
		for i, j := range perm {
			re[i] = elems[j]
		}
		elems = re
	}
	out := reflect.MakeSlice(s.typ, 0, len(elems))
	ids := map[string]bool{}
	for _, e := range elems {
		if s.n.isMergeList() && !g.dups {
			id := elemID(e, s.n)
			if ids[id] {
				continue
			}
			ids[id] = true
		}
		out = reflect.Append(out, e)
	}
	return out
}

// rekey returns a copy of a merge-list element with one of fields (key
// fields) drawn anew.
func (g *generator) rekey(t *rapid.T, es site, e reflect.Value, fields []string) reflect.Value {
	out := deepCopy(e)
	name := fields[rapid.IntRange(0, len(fields)-1).Draw(t, es.label(g, " (key field)"))]
	sv := out
	for sv.Kind() == reflect.Pointer || sv.Kind() == reflect.Interface {
		if sv.IsNil() {
			return out
		}
		sv = sv.Elem()
	}
	switch sv.Kind() {
	case reflect.Struct:
		st := es.n.t
		f := st.Field(name)
		if f == nil {
			return out
		}
		fs := site{n: node{t: f.Type, meta: f.Patch}, typ: f.GoType, p: es.p.field(name), depth: es.depth + 1, kr: es.keys.role(name)}
		setField(sv, f.Index, g.value(t, fs))
	case reflect.Map:
		if sv.Type().Key().Kind() != reflect.String || sv.Type().Elem().Kind() != reflect.String && sv.Type().Elem() != anyType {
			return out
		}
		kv := rapid.SampledFrom(strPools[es.keys.role(name)]).Draw(t, es.label(g, "."+name))
		k := reflect.ValueOf(name).Convert(sv.Type().Key())
		if kv == "" {
			sv.SetMapIndex(k, reflect.Value{})
		} else {
			sv.SetMapIndex(k, reflect.ValueOf(kv).Convert(sv.Type().Elem()))
		}
	}
	return out
}
