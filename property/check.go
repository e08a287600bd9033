package property

import (
	"flag"
	"os"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TB is what a property reports to. *testing.T and *testing.B satisfy it;
// it is rapid's TB, which rapid.Check takes.
type TB = rapid.TB

// Property is one property of the suite for a type: a named check that
// draws documents of the type and runs the engine on them.
type Property struct {
	// Name is the property's name, one of the constants RoundTrip,
	// Identity, ThreeWay, Idempotence, Order, SkewOldClient,
	// SkewOldServer and SkewSuperset.
	Name string
	// Doc says what the property checks, with its stated exceptions.
	Doc string

	checks int
	prop   func(*rapid.T)
}

// Case runs the property on one case drawn from t. Use it to run the
// property with rapid directly: rapid.Check(t, p.Case).
func (p Property) Case(t *rapid.T) { p.prop(t) }

// Run runs the property on as many cases as [Checks] says (default
// [DefaultChecks]), or as -rapid.checks says when that flag or
// RAPID_CHECKS is set. A failing case is shrunk by rapid and reported on
// tb as YAML: the original, modified and current documents, the patch,
// and what the result got and should have been.
func (p Property) Run(tb TB) {
	tb.Helper()
	runChecks(tb, p.checks, p.prop)
}

// Test is Run with the signature testing.T.Run takes:
//
//	t.Run(p.Name, p.Test)
func (p Property) Test(t *testing.T) {
	t.Helper()
	p.Run(t)
}

// Properties returns the properties of the suite for T, in a fixed
// order, for running a subset or running them one's own way. T must be a
// struct type (or a pointer to one) with a valid reflectschema schema;
// Properties panics otherwise.
func Properties[T any](opts ...Option) []Property {
	s, err := newSuite[T](newConfig(opts))
	if err != nil {
		panic(err.Error())
	}
	return s.properties()
}

// properties lists the suite's properties that the options select.
func (s *suite) properties() []Property {
	var out []Property
	for _, name := range propertyOrder {
		if len(s.cfg.only) > 0 && !s.cfg.only[name] {
			continue
		}
		out = append(out, Property{Name: name, Doc: propertyDocs[name], checks: s.cfg.checks, prop: s.property(name)})
	}
	return out
}

// Check runs every property on T, each as a parallel subtest of t named
// after it:
//
//	func TestPodPatches(t *testing.T) {
//		property.Check[exampletypes.Pod](t)
//	}
//
// Each property runs DefaultChecks cases unless Checks or -rapid.checks
// says otherwise; a failure is shrunk and printed as YAML.
func Check[T any](t *testing.T, opts ...Option) {
	t.Helper()
	cfg := newConfig(opts)
	if _, err := newSuite[T](cfg); err != nil {
		t.Fatalf("%v", err)
	}
	for _, p := range Properties[T](opts...) {
		t.Run(p.Name, func(t *testing.T) {
			if !cfg.serial {
				t.Parallel()
			}
			p.Run(t)
		})
	}
}

// Run runs every property on T in turn on tb, without subtests, and
// reports whether all passed; it stops at the first failure. It suits a
// TB that is not a *testing.T (a benchmark, or a harness of one's own).
func Run[T any](tb TB, opts ...Option) bool {
	tb.Helper()
	cfg := newConfig(opts)
	if _, err := newSuite[T](cfg); err != nil {
		tb.Fatalf("%v", err)
		return false
	}
	for _, p := range Properties[T](opts...) {
		if tb.Failed() {
			return false
		}
		tb.Logf("property %s", p.Name)
		p.Run(tb)
	}
	return !tb.Failed()
}

// runChecks runs prop until checks cases passed: rapid.Check runs
// -rapid.checks cases (100 by default), so it is called as many times as
// it takes, unless the number was set explicitly (flag or RAPID_CHECKS)
// or a seed was given, which ask for exactly one run.
func runChecks(tb TB, checks int, prop func(*rapid.T)) {
	tb.Helper()
	rounds := 1
	if !flagSet("rapid.checks", "RAPID_CHECKS") && !flagSet("rapid.seed", "RAPID_SEED") && !flagSet("rapid.failfile", "RAPID_FAILFILE") {
		per := 100
		if f := flag.Lookup("rapid.checks"); f != nil {
			if n, err := strconv.Atoi(f.Value.String()); err == nil && n > 0 {
				per = n
			}
		}
		rounds = (checks + per - 1) / per
	}
	for i := 0; i < rounds && !tb.Failed(); i++ {
		rapid.Check(tb, prop)
	}
}

// flagSet reports whether a flag was set on the command line, or its
// environment variable.
func flagSet(name, env string) bool {
	if _, ok := os.LookupEnv(env); ok {
		return true
	}
	set := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}
