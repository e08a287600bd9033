package property

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"sync"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// Generate returns a rapid generator of values of T built from T's
// reflectschema schema: structs field by field, pointers set or nil,
// lists and maps of up to MaxLen entries, merge lists with unique keys
// drawn from small pools (so that documents drawn apart share keys),
// recommended and multi-field keys whose single fields repeat often,
// unions (retainKeys) with one member set, and the types that marshal
// themselves from [OverrideType] registrations or a pool of JSON values
// they accept. Every draw is labelled with its JSON path, as in
// "spec.containers[1].name", so a failing case shows where each value
// came from. T must be a struct type reflectschema accepts.
func Generate[T any](opts ...Option) *rapid.Generator[T] {
	g := mustGenerator[T](newConfig(opts), false, "")
	st := g.schema
	return rapid.Custom(func(t *rapid.T) T {
		return g.value(t, site{n: node{t: st}, typ: reflect.TypeFor[T]()}).Interface().(T)
	})
}

// Mutate returns a rapid generator of values of T made from original by
// edits: scalars redrawn, pointers set or cleared, map entries added and
// deleted, list elements edited, added, deleted and reordered, merge keys
// changed, elements added that share a single key field with another
// (same port, other protocol), and union members switched. Shrinking
// removes edits, so a minimal case is as close to original as it can be.
// original is not changed.
func Mutate[T any](original T, opts ...Option) *rapid.Generator[T] {
	g := mustGenerator[T](newConfig(opts), false, "modified: ")
	st := g.schema
	return rapid.Custom(func(t *rapid.T) T {
		v := reflect.ValueOf(&original).Elem()
		return g.mutate(t, site{n: node{t: st}, typ: reflect.TypeFor[T]()}, v).Interface().(T)
	})
}

func mustGenerator[T any](cfg *config, dups bool, role string) *generator {
	st, err := reflectschema.Of(reflect.TypeFor[T]())
	if err != nil {
		panic(fmt.Sprintf("property: %v", err))
	}
	return newGenerator(cfg, st, dups, role)
}

// generator draws and mutates Go values of the types of a schema.
type generator struct {
	cfg    *config
	schema *reflectschema.Type
	// dups allows merge-list elements that share a whole key and sets
	// that repeat a value: documents Kubernetes tolerates, which the
	// differ writes with $patch: replace.
	dups bool
	// role prefixes every label ("modified: ").
	role  string
	paths bool
}

func newGenerator(cfg *config, st *reflectschema.Type, dups bool, role string) *generator {
	return &generator{cfg: cfg, schema: st, dups: dups, role: role, paths: len(cfg.overrides) > 0 || len(cfg.omit) > 0}
}

// withRole returns a copy of g whose labels start with role.
func (g *generator) withRole(role string) *generator {
	c := *g
	c.role = role
	return &c
}

// site is one position being generated.
type site struct {
	n     node
	typ   reflect.Type // the Go type there, possibly a pointer
	p     *gpath
	depth int
	// kr is the value's role in the merge key of the list holding its
	// struct; keys is set on the struct itself.
	kr   keyRole
	keys *keyCtx
	// optional marks a struct field or map value, which may be absent.
	optional bool
}

func (s site) label(g *generator, suffix string) string {
	return g.role + s.p.String() + suffix
}

// keyCtx describes the merge key of the list holding a struct.
type keyCtx struct {
	def, full []string
	// shared marks multi-field and recommended keys, whose single fields
	// repeat across elements.
	shared bool
}

func newKeyCtx(n node) *keyCtx {
	if !n.keyedList() {
		return nil
	}
	return &keyCtx{def: n.defaultKey(), full: n.fullKey(), shared: len(n.defaultKey()) > 1 || n.hasRecommended()}
}

func (k *keyCtx) role(name string) keyRole {
	if k == nil {
		return notKey
	}
	for _, d := range k.def {
		if d == name {
			if k.shared {
				return sharedKey
			}
			return plainKey
		}
	}
	for _, f := range k.full {
		if f == name {
			return extraKey
		}
	}
	return notKey
}

func (k *keyCtx) isKey(name string) bool { return k.role(name) != notKey }

// keyRole is a value's part in a merge key.
type keyRole uint8

const (
	notKey    keyRole = iota
	plainKey          // a single merge key: three values, never empty
	sharedKey         // part of a multi-field or the default of recommended keys: two values
	extraKey          // a recommended key beyond the default: empty (often absent) or one of two
)

// The pools values are drawn from. They are small so that documents
// drawn apart share values and keys; the first value is where shrinking
// goes.
var (
	strPools = map[keyRole][]string{
		notKey: {"", "a", "", "b", "c"}, plainKey: {"a", "b", "c"}, sharedKey: {"a", "b"}, extraKey: {"", "x", "y"},
	}
	intPools = map[keyRole][2]int64{notKey: {0, 3}, plainKey: {1, 3}, sharedKey: {1, 2}, extraKey: {0, 2}}
	floats   = []float64{0, 0.5, 1, 2}
	blobs    = [][]byte{nil, []byte("a"), []byte("b")}
	mapKeys  = []string{"a", "b", "c"}
	anyType  = reflect.TypeFor[any]()
)

// chance draws true with probability 1/den; shrinking makes it false.
func chance(t *rapid.T, label string, den int) bool {
	return rapid.IntRange(0, den-1).Draw(t, label) == den-1
}

// present draws whether an optional value is set.
func (g *generator) present(t *rapid.T, s site) bool {
	den := 2
	switch {
	case s.depth > 4:
		den = 4
	case s.depth > 2:
		den = 3
	}
	return chance(t, s.label(g, "?"), den)
}

// value draws a value at s.
func (g *generator) value(t *rapid.T, s site) reflect.Value {
	if g.paths {
		segs := s.p.segments()
		for _, pat := range g.cfg.omit {
			if pat.matches(segs) {
				return reflect.New(s.typ).Elem()
			}
		}
		for i := len(g.cfg.overrides) - 1; i >= 0; i-- {
			if o := g.cfg.overrides[i]; o.pat.matches(segs) {
				return g.drawOverride(t, s, o.typ, o.draw, "Override("+s.p.String()+")")
			}
		}
	}
	if tg, ok := g.cfg.types[s.typ]; ok {
		return g.drawOverride(t, s, s.typ, tg.draw, "OverrideType")
	}
	if s.typ.Kind() == reflect.Pointer {
		if tg, ok := g.cfg.types[s.typ.Elem()]; ok {
			return g.drawOverride(t, s, s.typ.Elem(), tg.draw, "OverrideType")
		}
		if s.depth >= g.cfg.maxDepth || s.optional && s.kr == notKey && !g.present(t, s) {
			return reflect.New(s.typ).Elem()
		}
		es := s
		es.typ = s.typ.Elem()
		es.optional = false
		elem := g.value(t, es)
		ptr := reflect.New(s.typ.Elem())
		ptr.Elem().Set(elem)
		return ptr
	}
	switch s.n.kind() {
	case reflectschema.Scalar:
		return g.scalar(t, s)
	case reflectschema.Atomic:
		return g.atomic(t, s)
	case reflectschema.Struct:
		return g.structValue(t, s)
	case reflectschema.Map:
		return g.mapValue(t, s)
	case reflectschema.List:
		return g.list(t, s)
	case reflectschema.Untyped:
		v := reflect.New(s.typ).Elem()
		if s.depth < g.cfg.maxDepth && (!s.optional || g.present(t, s)) {
			if u := g.untyped(t, s.label(g, ""), s.depth); u != nil && reflect.TypeOf(u).AssignableTo(s.typ) {
				v.Set(reflect.ValueOf(u))
			}
		}
		return v
	}
	return reflect.New(s.typ).Elem()
}

// drawOverride draws from an override whose values have type vt.
func (g *generator) drawOverride(t *rapid.T, s site, vt reflect.Type, draw func(*rapid.T, string) reflect.Value, what string) reflect.Value {
	out := reflect.New(s.typ).Elem()
	switch {
	case vt.AssignableTo(s.typ):
		if v := draw(t, s.label(g, "")); v.IsValid() {
			out.Set(v)
		}
	case s.typ.Kind() == reflect.Pointer && vt.AssignableTo(s.typ.Elem()):
		if s.optional && s.kr == notKey && !g.present(t, s) {
			return out
		}
		ptr := reflect.New(s.typ.Elem())
		if v := draw(t, s.label(g, "")); v.IsValid() {
			ptr.Elem().Set(v)
		}
		out.Set(ptr)
	default:
		panic(fmt.Sprintf("property: %s draws %s, which does not fit %s at %s", what, vt, s.typ, s.p))
	}
	return out
}

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

// atomicCandidates are the JSON values tried on a type that marshals
// itself; those it decodes and encodes back unchanged form its pool.
var atomicCandidates = []string{
	`0`, `1`, `2`, `"a"`, `"b"`, `"1"`, `"80"`, `"http"`, `"1Gi"`, `"250m"`, `"25%"`,
	`"2024-01-01T00:00:00Z"`, `"2024-06-01T12:30:00Z"`, `true`, `false`, `1.5`, `{}`, `[]`, `{"a":"b"}`, `["a"]`,
}

var atomicPools sync.Map // reflect.Type -> [][]byte

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

// elemID identifies a merge-list element by its whole key (objects) or
// its value (scalars), as JSON text; an absent key field has its own mark.
func elemID(e reflect.Value, n node) string {
	if !n.isObjectList() {
		return jsonText(e)
	}
	var b bytes.Buffer
	for _, f := range n.fullKey() {
		b.WriteString(keyFieldText(e, f))
		b.WriteByte(0)
	}
	return b.String()
}

const absentText = "\x01absent"

// keyFieldText returns the JSON text of an element's key field, or a mark
// when the field is absent from its encoding.
func keyFieldText(e reflect.Value, name string) string {
	for e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface {
		if e.IsNil() {
			return absentText
		}
		e = e.Elem()
	}
	switch e.Kind() {
	case reflect.Map:
		v := e.MapIndex(reflect.ValueOf(name).Convert(e.Type().Key()))
		if !v.IsValid() {
			return absentText
		}
		return jsonText(v)
	case reflect.Struct:
		st, err := reflectschema.Of(e.Type())
		if err != nil {
			return absentText
		}
		f := st.Field(name)
		if f == nil {
			return absentText
		}
		fv, ok := fieldGet(e, f.Index)
		if !ok || (f.OmitEmpty && isEmptyValue(fv)) || (f.OmitZero && fv.IsZero()) {
			return absentText
		}
		if fv.Kind() == reflect.Pointer && fv.IsNil() {
			return absentText
		}
		return jsonText(fv)
	}
	return absentText
}

func jsonText(v reflect.Value) string {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return "\x02" + err.Error()
	}
	return string(b)
}

// isEmptyValue is encoding/json's omitempty test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// sortedKeys returns a map's keys in a fixed order, so that draws do not
// depend on map iteration.
func sortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i].Interface()) < fmt.Sprint(keys[j].Interface()) })
	return keys
}

// deepCopy copies a value so that no map, slice or pointer is shared.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.New(v.Type()).Elem()
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(deepCopy(v.Elem()))
		out := reflect.New(v.Type()).Elem()
		out.Set(p)
		return out
	case reflect.Slice:
		if v.IsNil() {
			return reflect.New(v.Type()).Elem()
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			s.Index(i).Set(deepCopy(v.Index(i)))
		}
		return s
	case reflect.Map:
		if v.IsNil() {
			return reflect.New(v.Type()).Elem()
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			m.SetMapIndex(iter.Key(), deepCopy(iter.Value()))
		}
		return m
	case reflect.Struct:
		s := reflect.New(v.Type()).Elem()
		s.Set(v)
		for i := range v.NumField() {
			if f := s.Field(i); f.CanSet() {
				f.Set(deepCopy(v.Field(i)))
			}
		}
		return s
	case reflect.Interface:
		out := reflect.New(v.Type()).Elem()
		if !v.IsNil() {
			out.Set(deepCopy(v.Elem()))
		}
		return out
	case reflect.Array:
		a := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			a.Index(i).Set(deepCopy(v.Index(i)))
		}
		return a
	}
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	return out
}
