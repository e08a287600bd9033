package property

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// The JSON generator draws documents straight from a schema, with no Go
// type: the same sites, pools, key roles and edit rates as the generator
// of Go values (gen.go, mutate.go), producing values of encoding/json's
// shapes (map[string]any, []any, string, bool, int64, float64). An absent
// value is nil.

// byteStrings are the base64 strings of the blobs pool, by key role.
var byteStrings = map[keyRole][]string{
	notKey: {"", "YQ==", "Yg=="}, plainKey: {"YQ==", "Yg==", "Yw=="}, sharedKey: {"YQ==", "Yg=="}, extraKey: {"", "eA==", "eQ=="},
}

// atomicValues are the JSON values an atomic value without a Go type (an
// int-or-string, say) is drawn from.
var atomicValues = []any{int64(1), "a", int64(2), "25%", map[string]any{"a": "b"}, []any{"a"}}

// jvalue draws a JSON value at s, or nil for none.
func (g *generator) jvalue(t *rapid.T, s site) any {
	if g.paths {
		segs := s.p.segments()
		for _, pat := range g.cfg.omit {
			if pat.matches(segs) {
				return nil
			}
		}
		for i := len(g.cfg.overrides) - 1; i >= 0; i-- {
			if o := g.cfg.overrides[i]; o.pat.matches(segs) {
				return g.jsonOverride(t, s, o)
			}
		}
	}
	switch s.n.kind() {
	case reflectschema.Scalar:
		return g.jscalar(t, s)
	case reflectschema.Atomic:
		if s.n.t.Elem != nil { // a list of lists
			ls := s
			ls.n = node{t: &reflectschema.Type{Kind: reflectschema.List, Elem: s.n.t.Elem}}
			return g.jlist(t, ls)
		}
		return jcopy(atomicValues[rapid.IntRange(0, len(atomicValues)-1).Draw(t, s.label(g, ""))])
	case reflectschema.Struct:
		return g.jstruct(t, s)
	case reflectschema.Map:
		return g.jmap(t, s)
	case reflectschema.List:
		return g.jlist(t, s)
	}
	return g.juntyped(t, s)
}

// jsonOverride draws from an Override and converts the Go value to JSON.
func (g *generator) jsonOverride(t *rapid.T, s site, o override) any {
	v := o.draw(t, s.label(g, ""))
	if !v.IsValid() {
		return nil
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		panic(fmt.Sprintf("property: Override(%s) draws %s, which does not marshal: %v", s.p, o.typ, err))
	}
	return mustDecode(b)
}

// jscalar draws a scalar of the schema's JSON type from the pools.
func (g *generator) jscalar(t *rapid.T, s site) any {
	label := s.label(g, "")
	switch s.n.t.JSONType {
	case reflectschema.JSONString:
		if s.n.t.Format == "byte" {
			return rapid.SampledFrom(byteStrings[s.kr]).Draw(t, label)
		}
		return rapid.SampledFrom(strPools[s.kr]).Draw(t, label)
	case reflectschema.JSONBoolean:
		return rapid.Bool().Draw(t, label)
	case reflectschema.JSONInteger:
		r := intPools[s.kr]
		return rapid.Int64Range(r[0], r[1]).Draw(t, label)
	case reflectschema.JSONNumber:
		if s.kr == notKey {
			return rapid.SampledFrom(floats).Draw(t, label)
		}
		r := intPools[s.kr]
		return rapid.Int64Range(r[0], r[1]).Draw(t, label)
	}
	// Any scalar: keys are strings, other values any of the three.
	if s.kr != notKey {
		return rapid.SampledFrom(strPools[s.kr]).Draw(t, label)
	}
	switch rapid.IntRange(0, 2).Draw(t, label+"(json)") {
	case 1:
		return rapid.SampledFrom(floats).Draw(t, label)
	case 2:
		return rapid.Bool().Draw(t, label)
	}
	return rapid.SampledFrom(strPools[notKey]).Draw(t, label)
}

// container reports whether a node holds objects or lists: what MaxDepth
// cuts off.
func container(n node) bool {
	return n.kind() != reflectschema.Scalar && (n.kind() != reflectschema.Atomic || n.t.Elem != nil)
}

// jfield draws an optional value at s (a struct field): absent, or drawn.
// As for a Go struct's fields, lists and maps are always drawn (their
// length may be zero: absent), objects on the way are likely present (a
// struct field that is not a pointer always is), and other values are
// present as often as a pointer is set. Key fields are always drawn, and
// extra key fields drawn empty are absent.
func (g *generator) jfield(t *rapid.T, s site) any {
	if s.kr == notKey && s.optional {
		if s.depth >= g.cfg.maxDepth && container(s.n) {
			return nil
		}
		present := true
		switch s.n.kind() {
		case reflectschema.List, reflectschema.Map:
		case reflectschema.Struct:
			if s.depth <= 4 {
				present = rapid.IntRange(0, 3).Draw(t, s.label(g, "?")) != 0
			} else {
				present = g.present(t, s)
			}
		default:
			present = g.present(t, s)
		}
		if !present {
			return nil
		}
	}
	v := g.jvalue(t, s)
	if s.kr == extraKey && (v == "" || v == int64(0)) {
		return nil
	}
	return v
}

// jstruct draws an object field by field. A union gets one member.
func (g *generator) jstruct(t *rapid.T, s site) any {
	out := map[string]any{}
	chosen := -1
	if s.n.isUnion() {
		if members := unionMembers(s.n, s.keys); len(members) > 0 {
			chosen = members[rapid.IntRange(0, len(members)-1).Draw(t, s.label(g, "(union member)"))]
		}
	}
	for i, f := range s.n.t.Fields {
		fs := site{n: node{t: f.Type, meta: f.Patch}, p: s.p.field(f.Name), depth: s.depth + 1,
			kr: s.keys.role(f.Name), optional: true}
		if chosen >= 0 && !s.keys.isKey(f.Name) {
			if i != chosen {
				continue
			}
			fs.optional = false
		}
		if v := g.jfield(t, fs); v != nil {
			out[f.Name] = v
		}
	}
	return out
}

// jmap draws an object whose keys come from a small pool.
func (g *generator) jmap(t *rapid.T, s site) any {
	n, empty := g.length(t, s)
	if n == 0 && !empty {
		return nil
	}
	out := map[string]any{}
	for range n {
		k := rapid.SampledFrom(mapKeys).Draw(t, s.label(g, "[key]"))
		if _, dup := out[k]; dup {
			continue
		}
		es := site{n: s.n.child(""), p: s.p.key(k), depth: s.depth + 1}
		if v := g.jrequired(t, es); v != nil {
			out[k] = v
		}
	}
	return out
}

// jrequired draws a value that must be there (a list element, a map
// value): a container drawn as none is empty instead. Scalars are never
// nil.
func (g *generator) jrequired(t *rapid.T, s site) any {
	v := g.jvalue(t, s)
	if v != nil {
		return v
	}
	switch s.n.kind() {
	case reflectschema.List:
		return []any{}
	case reflectschema.Scalar, reflectschema.Atomic:
		return nil // omitted by an Omit pattern
	}
	return map[string]any{}
}

// jlist draws a list: merge lists of objects with unique keys, merge lists
// of scalars with distinct values, other lists element by element.
func (g *generator) jlist(t *rapid.T, s site) any {
	n, empty := g.length(t, s)
	if n == 0 && !empty {
		return nil
	}
	out := make([]any, 0, n)
	es := site{n: s.n.elem(), depth: s.depth + 1, keys: newKeyCtx(s.n)}
	ids := map[string]bool{}
	for i := range n {
		es.p = s.p.at(i)
		e := g.jelement(t, es)
		if e == nil {
			continue
		}
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

// jelement draws one list element; the elements of a merge list of maps
// or untyped objects carry their keys (structs draw theirs field by field).
func (g *generator) jelement(t *rapid.T, es site) any {
	e := g.jrequired(t, es)
	if es.keys == nil || es.n.kind() == reflectschema.Struct {
		return e
	}
	m, ok := e.(map[string]any)
	if !ok {
		return nil
	}
	for _, f := range es.keys.full {
		v, ok := g.keyValue(t, es, f)
		if !ok {
			return nil
		}
		if v == nil {
			delete(m, f)
		} else {
			m[f] = v
		}
	}
	return m
}

// keyValue draws the key field name of an element at es (a map or an
// untyped object); nil is an absent extra key; ok is false where the
// map's values cannot be keys.
func (g *generator) keyValue(t *rapid.T, es site, name string) (any, bool) {
	r := es.keys.role(name)
	var v any
	if es.n.kind() == reflectschema.Map {
		vn := es.n.child("")
		if vn.kind() != reflectschema.Scalar {
			return nil, false
		}
		v = g.jscalar(t, site{n: vn, p: es.p.field(name), depth: es.depth + 1, kr: r})
	} else {
		v = rapid.SampledFrom(strPools[r]).Draw(t, es.label(g, "."+name))
	}
	if r == extraKey && (v == "" || v == int64(0)) {
		return nil, true
	}
	return v, true
}

// juntyped draws a small JSON object of arbitrary values: untyped and
// preserve-unknown-fields subtrees.
func (g *generator) juntyped(t *rapid.T, s site) any {
	if s.depth >= g.cfg.maxDepth {
		return map[string]any{}
	}
	label := s.label(g, "")
	m := map[string]any{}
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(mapKeys), 0, 2, rapid.ID[string]).Draw(t, label+"[keys]") {
		m[k] = g.untyped(t, label+"["+k+"]", s.depth+1)
	}
	return m
}

// jelemID identifies a merge-list element by its whole key (objects) or
// its value (scalars), as JSON text; an absent key field has its own mark.
func jelemID(e any, n node) string {
	if !n.isObjectList() {
		return jsonOf(e)
	}
	m, _ := e.(map[string]any)
	var b strings.Builder
	for _, f := range n.fullKey() {
		if v, ok := m[f]; ok {
			b.WriteString(jsonOf(v))
		} else {
			b.WriteString(absentText)
		}
		b.WriteByte(0)
	}
	return b.String()
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "\x02" + err.Error()
	}
	return string(b)
}

// jcopy copies a JSON value so that no map or slice is shared.
func jcopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jcopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jcopy(e)
		}
		return out
	}
	return v
}

// sortedJSONKeys returns an object's keys in order, so that draws do not
// depend on map iteration.
func sortedJSONKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
