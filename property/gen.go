package property

import (
	"fmt"
	"reflect"
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

// atomicCandidates are the JSON values tried on a type that marshals
// itself; those it decodes and encodes back unchanged form its pool.
var atomicCandidates = []string{
	`0`, `1`, `2`, `"a"`, `"b"`, `"1"`, `"80"`, `"http"`, `"1Gi"`, `"250m"`, `"25%"`,
	`"2024-01-01T00:00:00Z"`, `"2024-06-01T12:30:00Z"`, `true`, `false`, `1.5`, `{}`, `[]`, `{"a":"b"}`, `["a"]`,
}

var atomicPools sync.Map // reflect.Type -> [][]byte

const absentText = "\x01absent"
