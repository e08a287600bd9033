package property

import (
	"fmt"
	"reflect"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// DefaultChecks is the number of cases each property runs when neither
// -rapid.checks nor RAPID_CHECKS is set and no [Checks] option is given.
const DefaultChecks = 1000

// Option configures the generators and the properties. Options are made
// by the functions of this package ([Override], [OverrideType], [Omit],
// [Checks], [EngineOptions], [MaxDepth], [MaxLen]).
type Option interface {
	apply(*config)
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// config is the resolved set of options.
type config struct {
	checks    int
	engine    []smp.Option
	overrides []override
	types     map[reflect.Type]typeGen
	omit      []pattern
	maxDepth  int
	maxLen    int
	typed     bool
	only      map[string]bool
	serial    bool
}

// override draws the value at every path its pattern matches.
type override struct {
	pat  pattern
	typ  reflect.Type
	draw func(*rapid.T, string) reflect.Value
}

// typeGen draws a value of one Go type.
type typeGen struct {
	draw func(*rapid.T, string) reflect.Value
}

func newConfig(opts []Option) *config {
	c := &config{checks: DefaultChecks, maxDepth: 8, maxLen: 3, typed: true}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	return c
}

// Checks sets the least number of cases each property runs (default
// [DefaultChecks]). An explicit -rapid.checks flag or RAPID_CHECKS
// variable takes precedence, so that a local run can ask for more (or a
// quick one for fewer).
func Checks(n int) Option {
	return optionFunc(func(c *config) {
		if n > 0 {
			c.checks = n
		}
	})
}

// EngineOptions passes options to every engine call the properties make,
// for example smp.WithOrdering(smp.SeedOrder) to check the seed's
// ordering. The properties run the engine with every directive
// (smp.DirectivesAll, where the differ's default writes only what today's
// servers understand), and set WithDirectives, WithOverwrite and
// WithSkewSafe themselves where they need them; options given here come
// after the first and before the others.
func EngineOptions(opts ...smp.Option) Option {
	return optionFunc(func(c *config) { c.engine = append(c.engine, opts...) })
}

// MaxDepth bounds the nesting of generated values (default 8): deeper
// pointers are nil, deeper lists and maps empty. It keeps recursive types
// finite.
func MaxDepth(n int) Option {
	return optionFunc(func(c *config) {
		if n > 0 {
			c.maxDepth = n
		}
	})
}

// MaxLen bounds the length of generated lists and maps (default 3; lists
// nested more than three levels deep hold at most two elements).
func MaxLen(n int) Option {
	return optionFunc(func(c *config) {
		if n > 0 {
			c.maxLen = n
		}
	})
}

// JSONOnly limits the properties to the JSON API (ApplyJSON, DiffJSON,
// ThreeWayJSON); by default the typed API (smp.Diff, smp.ThreeWay,
// smp.Apply) is checked too, against the same expectations.
func JSONOnly() Option {
	return optionFunc(func(c *config) { c.typed = false })
}

// Only limits Check, Run and Properties to the named properties (the
// constants RoundTrip, Identity, ...).
func Only(names ...string) Option {
	return optionFunc(func(c *config) {
		if c.only == nil {
			c.only = map[string]bool{}
		}
		for _, n := range names {
			c.only[n] = true
		}
	})
}

// Serial makes Check run the properties one after another instead of as
// parallel subtests.
func Serial() Option {
	return optionFunc(func(c *config) { c.serial = true })
}

// Override draws every value at the JSON paths that pattern matches from
// g, in the style of rapid.MakeConfig's overrides but by path. A pattern
// is a path as the draw labels print it: fields separated by dots, list
// elements and map entries in brackets, with * matching any index or key:
//
//	property.Override("spec.replicas", rapid.Int32Range(0, 5))
//	property.Override("spec.template.spec.containers[*].image", rapid.SampledFrom(images))
//	property.Override("metadata.labels[*]", rapid.StringMatching(`[a-z]{1,3}`))
//
// V must be the Go type at the path or, for a pointer, the type it points
// to; then whether the pointer is set is still drawn. For a merge key
// field, keep the values few so that elements of different documents
// share keys. Generation panics with the path when V does not fit.
func Override[V any](pattern string, g *rapid.Generator[V]) Option {
	pat := mustPattern(pattern)
	typ := reflect.TypeFor[V]()
	return optionFunc(func(c *config) {
		c.overrides = append(c.overrides, override{pat: pat, typ: typ, draw: func(t *rapid.T, label string) reflect.Value {
			return reflect.ValueOf(g.Draw(t, label))
		}})
	})
}

// OverrideType draws every value of Go type V from g, wherever it occurs.
// Register the types that marshal themselves (quantities, times,
// int-or-string) here; without a registration such a type is drawn from
// a small pool of JSON values it accepts, or left zero when it accepts
// none. Pointers to V are set or nil as drawn. Path overrides win.
func OverrideType[V any](g *rapid.Generator[V]) Option {
	typ := reflect.TypeFor[V]()
	return optionFunc(func(c *config) {
		if c.types == nil {
			c.types = map[reflect.Type]typeGen{}
		}
		c.types[typ] = typeGen{draw: func(t *rapid.T, label string) reflect.Value {
			return reflect.ValueOf(g.Draw(t, label))
		}}
	})
}

// Omit leaves the values at the matching paths zero in every generated
// document (for example "status", or a field whose values the engine
// cannot see as JSON). Patterns are those of [Override].
func Omit(patterns ...string) Option {
	pats := make([]pattern, len(patterns))
	for i, p := range patterns {
		pats[i] = mustPattern(p)
	}
	return optionFunc(func(c *config) { c.omit = append(c.omit, pats...) })
}

func mustPattern(s string) pattern {
	p, err := parsePattern(s)
	if err != nil {
		panic(fmt.Sprintf("property: %v", err))
	}
	return p
}
