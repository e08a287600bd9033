package smp_test

import (
	"bytes"
	"encoding/json"
	"testing"

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

func FuzzStrategicMergePatch(f *testing.F) {
	fuzzSeeds(f, func(f *testing.F, _ fixtures.Case, d ...[]byte) { f.Add(d[0], d[1], d[2]) })
	f.Fuzz(func(t *testing.T, original, patch, _ []byte) {
		for _, typ := range []any{&fixtures.Pod{}, &fixtures.SeedRecommendedBaz{}} {
			out, err := smp.StrategicMergePatch(original, patch, typ)
			checkOutput(t, out, err)
		}
	})
}

func FuzzCreateTwoWayMergePatch(f *testing.F) {
	fuzzSeeds(f, func(f *testing.F, c fixtures.Case, d ...[]byte) { f.Add(d[0], d[2], d[1]) })
	f.Fuzz(func(t *testing.T, original, modified, _ []byte) {
		for _, typ := range []any{&fixtures.Pod{}, &fixtures.SeedRecommendedBaz{}} {
			patch, err := smp.CreateTwoWayMergePatch(original, modified, typ)
			checkOutput(t, patch, err)
			if err == nil {
				out, err := smp.StrategicMergePatch(original, patch, typ)
				checkOutput(t, out, err)
			}
		}
	})
}

func FuzzCreateThreeWayMergePatch(f *testing.F) {
	fuzzSeeds(f, func(f *testing.F, c fixtures.Case, d ...[]byte) { f.Add(d[0], d[2], d[3]) })
	f.Fuzz(func(t *testing.T, original, modified, current []byte) {
		for _, overwrite := range []bool{false, true} {
			out, err := smp.CreateThreeWayMergePatch(original, modified, current, &fixtures.Pod{}, overwrite)
			checkOutput(t, out, err)
		}
	})
}

// FuzzParsePatchApply parses arbitrary bytes as a patch and applies it to a
// typed Pod: no panic, every failure an *smp.Error, the Pod unchanged, and
// a success equal to the JSON path's result decoded.
func FuzzParsePatchApply(f *testing.F) {
	fuzzSeeds(f, func(f *testing.F, _ fixtures.Case, d ...[]byte) { f.Add(d[0], d[1], d[2]) })
	pod, _ := fixtures.Sample("Pod")
	orig, err := json.Marshal(pod)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, _, data, _ []byte) {
		current := pod.(*fixtures.Pod)
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
		out, jerr := smp.StrategicMergePatch(orig, data, &fixtures.Pod{})
		if err != nil {
			if smp.KindOf(err) == "" {
				t.Fatalf("Apply: %T %v", err, err)
			}
			if jerr == nil {
				var want fixtures.Pod
				if json.Unmarshal(out, &want) == nil {
					t.Fatalf("typed Apply failed (%v) where the JSON path succeeded", err)
				}
			}
			return
		}
		if jerr != nil {
			t.Fatalf("typed Apply succeeded where the JSON path failed: %v", jerr)
		}
		var want fixtures.Pod
		if err := json.Unmarshal(out, &want); err != nil {
			return // the JSON result does not decode: nothing to compare
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(&want)
		if string(gb) != string(wb) {
			t.Fatalf("typed and JSON results differ:\ntyped %s\njson  %s", gb, wb)
		}
	})
}
