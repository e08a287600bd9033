package smp_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// The typed fuzz targets decode fuzzed JSON documents into a fixtures
// type (leniently, as encoding/json does: unknown fields are dropped) and
// check the typed API against the JSON one and against the round-trip and
// three-way rules. A leading byte picks the type, another the options.

// typedFuzzer runs the typed checks for one fixtures type.
type typedFuzzer struct {
	name     string
	diff     func(t *testing.T, opts byte, original, modified []byte)
	threeWay func(t *testing.T, opts byte, original, modified, current []byte)
	inPlace  func(t *testing.T, opts byte, doc, patch []byte)
}

func fuzzerFor[T any](name string) typedFuzzer {
	return typedFuzzer{name: name, diff: fuzzTypedDiff[T], threeWay: fuzzTypedThreeWay[T], inPlace: fuzzInPlace[T]}
}

// typedFuzzers lists the types, richest first: Deployment and Pod (merge
// lists, recommended keys, a retainKeys union and a merge,retainKeys list,
// sets), Gateway and SeedMultiKey (multi-field keys), then the seeds'.
var typedFuzzers = []typedFuzzer{
	fuzzerFor[exampletypes.Deployment]("Deployment"),
	fuzzerFor[exampletypes.Pod]("Pod"),
	fuzzerFor[exampletypes.Gateway]("Gateway"),
	fuzzerFor[exampletypes.Service]("Service"),
	fuzzerFor[exampletypes.SeedMultiKey]("SeedMultiKey"),
	fuzzerFor[exampletypes.SeedRecommended]("SeedRecommended"),
	fuzzerFor[exampletypes.SeedRecommendedBaz]("SeedRecommendedBaz"),
	fuzzerFor[exampletypes.SeedUnion]("SeedUnion"),
	fuzzerFor[exampletypes.SeedDiscriminatedUnion]("SeedDiscriminatedUnion"),
	fuzzerFor[exampletypes.SeedOrderedList]("SeedOrderedList"),
	fuzzerFor[exampletypes.SeedOrderedSet]("SeedOrderedSet"),
	fuzzerFor[exampletypes.SeedMergeKeyList]("SeedMergeKeyList"),
	fuzzerFor[exampletypes.PodSpec]("PodSpec"),
	fuzzerFor[exampletypes.Container]("Container"),
	fuzzerFor[exampletypes.ContainerStatus]("ContainerStatus"),
	fuzzerFor[exampletypes.ObjectMeta]("ObjectMeta"),
	fuzzerFor[exampletypes.DeploymentStrategy]("DeploymentStrategy"),
}

func typedFuzzerIndex(name string) (uint8, bool) {
	for i, f := range typedFuzzers {
		if f.name == name {
			return uint8(i), true
		}
	}
	return 0, false
}

// fuzzOptions turns a byte into options: bit 0 the seed's ordering, bits
// 1-2 the directive set, bit 3 skew-safe mode, bit 4 overwrite.
func fuzzOptions(b byte) []smp.Option {
	sets := [...]smp.DirectiveSet{smp.DirectivesAll, smp.DirectivesRetainKeys, smp.DirectivesSetElementOrder, smp.DirectivesLegacy}
	opts := []smp.Option{smp.WithDirectives(sets[b>>1&3]), smp.WithSkewSafe(b&8 != 0), smp.WithOverwrite(b&16 != 0)}
	if b&1 != 0 {
		opts = append(opts, smp.WithOrdering(smp.SeedOrder))
	}
	return opts
}

// typedSeeds adds, for every seed case of a type the fuzzers know, its
// documents (original, the patch's result or modified, current), and each
// type's sample against the empty document both ways.
func typedSeeds(f *testing.F, add func(which uint8, docs ...[]byte)) {
	cases, err := fixtures.SeedCases()
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		which, ok := typedFuzzerIndex(c.Type)
		if !ok {
			continue
		}
		modified := c.Modified
		if c.Operation == fixtures.OpApply {
			modified = c.Result
		}
		current := c.Current
		if current == nil {
			current = c.Original
		}
		add(which, mustMarshal(c.Original), mustMarshal(modified), mustMarshal(current))
	}
	for i, tf := range typedFuzzers {
		s, ok := fixtures.Sample(tf.name)
		if !ok {
			f.Fatalf("no sample of %s", tf.name)
		}
		sample := mustMarshal(s)
		add(uint8(i), sample, []byte("{}"), sample)
		add(uint8(i), []byte("{}"), sample, []byte("{}"))
	}
}

// FuzzTypedDiff checks Diff(original, modified) against DiffJSON on the
// values' JSON, Apply of the patch against ApplyJSON, and the round trip:
// Apply(original, Diff(original, modified)) == modified.
func FuzzTypedDiff(f *testing.F) {
	typedSeeds(f, func(which uint8, d ...[]byte) { f.Add(which, uint8(0), d[0], d[1]) })
	f.Fuzz(func(t *testing.T, which, opts uint8, original, modified []byte) {
		typedFuzzers[int(which)%len(typedFuzzers)].diff(t, opts, original, modified)
	})
}

// FuzzTypedThreeWay checks ThreeWay(original, modified, current) against
// ThreeWayJSON (the same patch, or the same kind of error and the same
// conflicts), Apply of the patch against ApplyJSON, and the three-way
// rules fuzzCheckThreeWayRules states.
func FuzzTypedThreeWay(f *testing.F) {
	typedSeeds(f, func(which uint8, d ...[]byte) { f.Add(which, uint8(0), d[0], d[1], d[2]) })
	f.Fuzz(func(t *testing.T, which, opts uint8, original, modified, current []byte) {
		typedFuzzers[int(which)%len(typedFuzzers)].threeWay(t, opts, original, modified, current)
	})
}

// fuzzDecode decodes a fuzzed document into a new T, leniently.
func fuzzDecode[T any](data []byte) (T, bool) {
	var v T
	return v, json.Unmarshal(data, &v) == nil
}

func fuzzTypedDiff[T any](t *testing.T, opts byte, original, modified []byte) {
	o, ok1 := fuzzDecode[T](original)
	m, ok2 := fuzzDecode[T](modified)
	if !ok1 || !ok2 {
		return
	}
	options := fuzzOptions(opts)
	p := checkTypedDiff(t, o, m, options...)
	if _, err := smp.Diff(o, m, options...); err != nil {
		return // checkTypedDiff has compared the error with DiffJSON's
	}
	checkTypedApply(t, o, p, options...)
	// The round trip, with every directive (older sets cannot always say
	// the order) and the drawn ordering and skew-safe mode.
	rt := append(options[:len(options):len(options)], smp.WithDirectives(smp.DirectivesAll))
	p, err := smp.Diff(o, m, rt...)
	if err != nil {
		t.Fatalf("Diff fails with every directive but not with %v: %v", opts, err)
	}
	ob, mb := typedMarshal(t, o), typedMarshal(t, m)
	if fuzzUnaddressable[T](t, ob, mb) {
		return
	}
	got, err := smp.Apply(o, p, rt...)
	if err != nil {
		t.Fatalf("Apply(original, Diff(original, modified)) fails: %v\npatch: %s\noriginal: %s\nmodified: %s", err, p, ob, mb)
	}
	if gb := typedMarshal(t, got); !bytes.Equal(gb, mb) {
		t.Fatalf("Apply(original, Diff(original, modified)) == modified fails:\ngot:      %s\nwant:     %s\npatch:    %s\noriginal: %s", gb, mb, p, ob)
	}
}

func fuzzTypedThreeWay[T any](t *testing.T, opts byte, original, modified, current []byte) {
	o, ok1 := fuzzDecode[T](original)
	m, ok2 := fuzzDecode[T](modified)
	c, ok3 := fuzzDecode[T](current)
	if !ok1 || !ok2 || !ok3 {
		return
	}
	options := fuzzOptions(opts)
	p, err := checkTypedThreeWay(t, o, m, c, options...)
	if err == nil {
		checkTypedApply(t, c, p, options...)
	} else if !smp.IsConflict(err) {
		t.Fatalf("ThreeWay fails with %v (the JSON engine too)", err)
	}
	fuzzCheckThreeWayRules(t, o, m, c, opts&1 != 0, opts&8 != 0)
}
