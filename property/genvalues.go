package property

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// Drawing the values of one site: scalars, values that marshal
// themselves, structs and their unions, maps, lists and their elements,
// untyped JSON.

// scalar draws a string, number, boolean or []byte from the pools.
func (g *generator) scalar(t *rapid.T, s site) reflect.Value {
	v := reflect.New(s.typ).Elem()
	label := s.label(g, "")
	switch s.typ.Kind() {
	case reflect.String:
		v.SetString(rapid.SampledFrom(strPools[s.kr]).Draw(t, label))
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, label))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		r := intPools[s.kr]
		v.SetInt(rapid.Int64Range(r[0], r[1]).Draw(t, label))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		r := intPools[s.kr]
		v.SetUint(uint64(rapid.Int64Range(r[0], r[1]).Draw(t, label)))
	case reflect.Float32, reflect.Float64:
		if s.kr == notKey {
			v.SetFloat(rapid.SampledFrom(floats).Draw(t, label))
		} else {
			r := intPools[s.kr]
			v.SetFloat(float64(rapid.Int64Range(r[0], r[1]).Draw(t, label)))
		}
	case reflect.Slice:
		b := rapid.SampledFrom(blobs).Draw(t, label)
		if s.kr != notKey && b == nil {
			b = []byte("k")
		}
		v.SetBytes(append([]byte(nil), b...))
	}
	return v
}

// atomic draws a value of a type that marshals itself: from the pool of
// JSON values the type accepts, or structurally for a list of lists.
func (g *generator) atomic(t *rapid.T, s site) reflect.Value {
	if s.typ.Kind() == reflect.Slice || s.typ.Kind() == reflect.Array {
		if !implementsJSON(s.typ) && s.n.t.Elem != nil {
			ls := s
			ls.n = node{t: &reflectschema.Type{Go: s.typ, Kind: reflectschema.List, Elem: s.n.t.Elem}}
			return g.list(t, ls)
		}
	}
	pool := atomicPool(s.typ)
	v := reflect.New(s.typ)
	if len(pool) > 0 {
		i := rapid.IntRange(0, len(pool)-1).Draw(t, s.label(g, ""))
		if err := json.Unmarshal(pool[i], v.Interface()); err != nil {
			panic(fmt.Sprintf("property: %s rejects %s, which it accepted before: %v", s.typ, pool[i], err))
		}
	}
	return v.Elem()
}

func implementsJSON(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(reflect.TypeFor[json.Marshaler]()) || pt.Implements(reflect.TypeFor[json.Unmarshaler]())
}

// atomicPool returns the JSON values a self-marshalling type accepts and
// writes back unchanged, the zero value's encoding first.
func atomicPool(typ reflect.Type) [][]byte {
	if p, ok := atomicPools.Load(typ); ok {
		return p.([][]byte)
	}
	var pool [][]byte
	seen := map[string]bool{}
	stable := func(data []byte) ([]byte, bool) {
		v := reflect.New(typ)
		if json.Unmarshal(data, v.Interface()) != nil {
			return nil, false
		}
		out, err := json.Marshal(v.Interface())
		if err != nil {
			return nil, false
		}
		w := reflect.New(typ)
		if json.Unmarshal(out, w.Interface()) != nil {
			return nil, false
		}
		again, err := json.Marshal(w.Interface())
		if err != nil || !bytes.Equal(out, again) {
			return nil, false
		}
		return out, true
	}
	if zero, err := json.Marshal(reflect.New(typ).Interface()); err == nil {
		if out, ok := stable(zero); ok && string(out) != "null" {
			seen[string(out)] = true
			pool = append(pool, out)
		}
	}
	for _, c := range atomicCandidates {
		if out, ok := stable([]byte(c)); ok && !seen[string(out)] && string(out) != "null" {
			seen[string(out)] = true
			pool = append(pool, out)
		}
	}
	atomicPools.Store(typ, pool)
	return pool
}

// structValue draws a struct field by field. A union gets one member.
func (g *generator) structValue(t *rapid.T, s site) reflect.Value {
	v := reflect.New(s.typ).Elem()
	fields := s.n.t.Fields
	chosen := -1
	if s.n.isUnion() {
		members := unionMembers(s.n, s.keys)
		if len(members) > 0 {
			chosen = members[rapid.IntRange(0, len(members)-1).Draw(t, s.label(g, "(union member)"))]
		}
	}
	for i, f := range fields {
		fs := site{n: node{t: f.Type, meta: f.Patch}, typ: f.GoType, p: s.p.field(f.Name), depth: s.depth + 1,
			kr: s.keys.role(f.Name), optional: true}
		if chosen >= 0 && !s.keys.isKey(f.Name) {
			if i != chosen {
				continue
			}
			fs.optional = false
		}
		fv := g.value(t, fs)
		if !fv.IsZero() {
			setField(v, f.Index, fv)
		}
	}
	return v
}

// unionMembers lists the indexes of a union's fields that are not keys.
func unionMembers(n node, keys *keyCtx) []int {
	var out []int
	for i, f := range n.t.Fields {
		if !keys.isKey(f.Name) {
			out = append(out, i)
		}
	}
	return out
}

// setField sets the field at index. Embedded pointers on the way are
// allocated, or copied so that a value shallow-copied from another never
// writes into the other's embedded structs.
func setField(v reflect.Value, index []int, fv reflect.Value) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			fresh := reflect.New(v.Type().Elem())
			if !v.IsNil() {
				fresh.Elem().Set(v.Elem())
			}
			v.Set(fresh)
			v = v.Elem()
		}
		v = v.Field(x)
	}
	v.Set(fv)
}

// fieldGet returns the field at index, or false through a nil embedded
// pointer.
func fieldGet(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// length draws a list or map length; the last choice is an empty but
// non-nil collection, which encodes as [] or {} where nil encodes as null.
func (g *generator) length(t *rapid.T, s site) (n int, empty bool) {
	if s.depth >= g.cfg.maxDepth {
		return 0, false
	}
	max := g.cfg.maxLen
	if s.depth > 3 && max > 2 {
		max = 2 // deep lists stay short: documents stay small
	}
	n = rapid.IntRange(0, max+1).Draw(t, s.label(g, "#"))
	if n == max+1 {
		return 0, true
	}
	return n, false
}

// mapValue draws a map with keys from a small pool.
func (g *generator) mapValue(t *rapid.T, s site) reflect.Value {
	v := reflect.New(s.typ).Elem()
	n, empty := g.length(t, s)
	if n == 0 && !empty {
		return v
	}
	v.Set(reflect.MakeMap(s.typ))
	for range n {
		k, ok := g.mapKey(t, s)
		if !ok {
			break
		}
		if v.MapIndex(k).IsValid() {
			continue
		}
		es := site{n: s.n.child(""), typ: s.typ.Elem(), p: s.p.key(keyText(k)), depth: s.depth + 1}
		if ev := g.value(t, es); !encodesNull(ev) {
			v.SetMapIndex(k, ev)
		}
	}
	return v
}

// encodesNull reports whether a value encodes as JSON null. Map values
// never do: a null in a patch deletes the entry, so no patch could set it.
func encodesNull(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		return v.IsNil()
	}
	return false
}

// mapKey draws a key of the map's key type; ok is false for key types it
// cannot build.
func (g *generator) mapKey(t *rapid.T, s site) (reflect.Value, bool) {
	kt := s.typ.Key()
	k := reflect.New(kt).Elem()
	label := s.label(g, "[key]")
	switch kt.Kind() {
	case reflect.String:
		k.SetString(rapid.SampledFrom(mapKeys).Draw(t, label))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		k.SetInt(rapid.Int64Range(1, 3).Draw(t, label))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		k.SetUint(uint64(rapid.Int64Range(1, 3).Draw(t, label)))
	default:
		return k, false
	}
	return k, true
}

func keyText(k reflect.Value) string {
	if k.Kind() == reflect.String {
		return k.String()
	}
	return fmt.Sprint(k.Interface())
}

// list draws a list: merge lists of objects with unique keys, merge lists
// of scalars with distinct values, other lists element by element.
func (g *generator) list(t *rapid.T, s site) reflect.Value {
	v := reflect.New(s.typ).Elem()
	es := site{n: s.n.elem(), typ: s.typ.Elem(), depth: s.depth + 1, keys: newKeyCtx(s.n)}
	if s.typ.Kind() == reflect.Array {
		for i := range v.Len() {
			es.p = s.p.at(i)
			v.Index(i).Set(g.value(t, es))
		}
		return v
	}
	n, empty := g.length(t, s)
	if n == 0 && !empty {
		return v
	}
	out := reflect.MakeSlice(s.typ, 0, n)
	ids := map[string]bool{}
	for i := range n {
		es.p = s.p.at(i)
		e := g.element(t, es)
		if !e.IsValid() {
			continue
		}
		if s.n.isMergeList() && !g.dups {
			id := elemID(e, s.n)
			if ids[id] {
				continue
			}
			ids[id] = true
		}
		out = reflect.Append(out, e)
	}
	v.Set(out)
	return v
}

// element draws one list element; elements are never nil, and the
// elements of a merge list of maps or untyped objects carry their keys.
func (g *generator) element(t *rapid.T, es site) reflect.Value {
	e := g.value(t, es)
	if es.keys == nil {
		return e
	}
	base := es.typ
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if base.Kind() == reflect.Struct {
		return e
	}
	// A merge list of maps or of untyped objects: set the key entries.
	m := e
	for m.Kind() == reflect.Pointer || m.Kind() == reflect.Interface {
		if m.IsNil() {
			return reflect.Value{}
		}
		m = m.Elem()
	}
	if m.Kind() != reflect.Map || m.Type().Key().Kind() != reflect.String {
		return reflect.Value{}
	}
	if m.IsNil() {
		m.Set(reflect.MakeMap(m.Type()))
	}
	for _, f := range es.keys.full {
		r := es.keys.role(f)
		kv := rapid.SampledFrom(strPools[r]).Draw(t, es.label(g, "."+f))
		if r == extraKey && kv == "" {
			continue
		}
		val := reflect.ValueOf(kv)
		if !val.Type().AssignableTo(m.Type().Elem()) {
			if !val.Type().ConvertibleTo(m.Type().Elem()) || m.Type().Elem().Kind() != reflect.String {
				return reflect.Value{}
			}
			val = val.Convert(m.Type().Elem())
		}
		m.SetMapIndex(reflect.ValueOf(f).Convert(m.Type().Key()), val)
	}
	return e
}

// untyped draws arbitrary JSON for an interface value.
func (g *generator) untyped(t *rapid.T, label string, depth int) any {
	max := 4
	if depth >= g.cfg.maxDepth {
		max = 2
	}
	switch rapid.IntRange(0, max).Draw(t, label+"(json)") {
	case 0:
		return rapid.SampledFrom(strPools[notKey]).Draw(t, label)
	case 1:
		return rapid.SampledFrom(floats).Draw(t, label)
	case 2:
		return rapid.Bool().Draw(t, label)
	case 3:
		m := map[string]any{}
		for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(mapKeys), 0, 2, rapid.ID[string]).Draw(t, label+"[keys]") {
			m[k] = g.untyped(t, label+"["+k+"]", depth+1)
		}
		return m
	default:
		n := rapid.IntRange(0, 2).Draw(t, label+"#")
		l := make([]any, n)
		for i := range l {
			l[i] = g.untyped(t, fmt.Sprintf("%s[%d]", label, i), depth+1)
		}
		return l
	}
}
