package smp_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// fuzzSeeds adds every fixtures case's documents and patches to a fuzz
// corpus, as (first, second, third) byte triples.
func fuzzSeeds(f *testing.F, add func(f *testing.F, c fixtures.Case, docs ...[]byte)) {
	cases, err := fixtures.SeedCases()
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		add(f, c, mustMarshal(c.Original), mustMarshal(c.Patch), mustMarshal(c.Modified), mustMarshal(c.Current))
	}
	for _, m := range malformedPatches {
		f.Add([]byte(podWithNginx), []byte(m.patch), []byte(podWithNginx))
	}
}

// checkOutput fails unless a successful result is one JSON object and a
// failure is an *smp.Error with no output.
func checkOutput(t *testing.T, out []byte, err error) {
	t.Helper()
	if err != nil {
		if smp.KindOf(err) == "" {
			t.Fatalf("error is not an *smp.Error: %T %v", err, err)
		}
		if out != nil {
			t.Fatalf("output on error: %s", out)
		}
		return
	}
	// Numbers keep their text, so decode them as text: a valid JSON
	// number may not fit a float64.
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var m map[string]any
	if jerr := dec.Decode(&m); jerr != nil || dec.More() {
		t.Fatalf("output is not one JSON object: %v: %s", jerr, out)
	}
}

func FuzzApplyJSON(f *testing.F) {
	fuzzSeeds(f, func(f *testing.F, _ fixtures.Case, d ...[]byte) { f.Add(d[0], d[1], d[2]) })
	f.Fuzz(func(t *testing.T, original, patch, _ []byte) {
		for _, typ := range []any{&exampletypes.Pod{}, &exampletypes.SeedRecommendedBaz{}} {
			out, err := smp.ApplyJSON(original, patch, typ)
			checkOutput(t, out, err)
		}
	})
}

func FuzzDiffJSON(f *testing.F) {
	fuzzSeeds(f, func(f *testing.F, c fixtures.Case, d ...[]byte) { f.Add(d[0], d[2], d[1]) })
	f.Fuzz(func(t *testing.T, original, modified, _ []byte) {
		for _, typ := range []any{&exampletypes.Pod{}, &exampletypes.SeedRecommendedBaz{}} {
			patch, err := smp.DiffJSON(original, modified, typ)
			checkOutput(t, patch, err)
			if err == nil {
				out, err := smp.ApplyJSON(original, patch, typ)
				checkOutput(t, out, err)
			}
		}
	})
}

func FuzzThreeWayJSON(f *testing.F) {
	fuzzSeeds(f, func(f *testing.F, c fixtures.Case, d ...[]byte) { f.Add(d[0], d[2], d[3]) })
	f.Fuzz(func(t *testing.T, original, modified, current []byte) {
		for _, overwrite := range []bool{false, true} {
			out, err := smp.ThreeWayJSON(original, modified, current, &exampletypes.Pod{}, smp.WithOverwrite(overwrite))
			checkOutput(t, out, err)
		}
	})
}

// FuzzParsePatchApply parses arbitrary bytes as a patch and applies it to a
// typed Pod: no panic, every failure an *smp.Error, the Pod unchanged, and
// a success equal to the JSON path's result decoded. The live Pod is the
// first argument decoded (leniently), or the fixtures sample when it does
// not decode (as for the kept corpus, found before the live Pod varied);
// the third argument is unused, so that the kept corpus still loads.
func FuzzParsePatchApply(f *testing.F) {
	fuzzSeeds(f, func(f *testing.F, _ fixtures.Case, d ...[]byte) { f.Add(d[0], d[1], d[2]) })
	fuzzSeeds(f, func(f *testing.F, _ fixtures.Case, d ...[]byte) { f.Add([]byte{}, d[1], d[2]) })
	f.Fuzz(func(t *testing.T, live, data, _ []byte) {
		var current *exampletypes.Pod
		if err := json.Unmarshal(live, &current); err != nil {
			pod, _ := fixtures.Sample("Pod")
			current = pod.(*exampletypes.Pod)
		}
		checkParsePatchApply(t, current, data) // nil when live is null
	})
}

// checkParsePatchApply is FuzzParsePatchApply's check on one live Pod,
// which may be nil.
func checkParsePatchApply(t *testing.T, current *exampletypes.Pod, data []byte) {
	before, _ := json.Marshal(current)
	p, err := smp.ParsePatch(data)
	if err != nil {
		if smp.KindOf(err) == "" {
			t.Fatalf("ParsePatch: %T %v", err, err)
		}
		return
	}
	got, err := smp.Apply(current, p)
	if after, _ := json.Marshal(current); string(after) != string(before) {
		t.Fatalf("Apply changed current")
	}
	doc := before
	if current == nil {
		doc = []byte("{}") // a nil pointer is the empty object
	}
	out, jerr := smp.ApplyJSON(doc, data, &exampletypes.Pod{})
	if err != nil {
		if smp.KindOf(err) == "" {
			t.Fatalf("Apply: %T %v", err, err)
		}
		if jerr == nil {
			var want exampletypes.Pod
			if json.Unmarshal(out, &want) == nil {
				t.Fatalf("typed Apply failed (%v) where the JSON path succeeded\nlive:  %s\npatch: %s", err, doc, data)
			}
		}
		return
	}
	if jerr != nil {
		t.Fatalf("typed Apply succeeded where the JSON path failed: %v\nlive:  %s\npatch: %s", jerr, doc, data)
	}
	var want exampletypes.Pod
	if err := json.Unmarshal(out, &want); err != nil {
		return // the JSON result does not decode: nothing to compare
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(&want)
	if string(gb) != string(wb) {
		t.Fatalf("typed and JSON results differ:\ntyped %s\njson  %s\nlive:  %s\npatch: %s", gb, wb, doc, data)
	}
}
