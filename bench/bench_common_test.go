package bench

// Shared plumbing of the benchmarks (bench_*_test.go).
//
// Naming: every benchmark is Benchmark<Group>/<case...>/<op>[/<api>]/<impl>
// where impl is one of
//
//	ours  typedpatch (package smp)
//	k8s   k8s.io/apimachinery/pkg/util/strategicpatch, doing the same work
//	bare  json.Unmarshal of every input into map[string]any, and
//	      json.Marshal of the operation's output: the floor for any engine
//	      that decodes its input into maps
//
// A bare benchmark sits next to the api level (json, typed) it serves, so
// one bare row is the baseline of both APIs. cmd/benchtable relies on this
// scheme to pair rows; keep it when adding benchmarks.
//
// Besides Go's ns/op (wall time), every benchmark reports cpu-ns/op: the
// CPU time of the whole process (all threads, garbage collection
// included) per operation. On a shared machine wall time also counts the
// time other jobs held the CPU; CPU time does not, so ratios of cpu-ns/op
// are the steadier (benchtable -metric cpu-ns/op).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// benchLoop runs op under b.Loop with allocations reported, and reports
// the process's CPU time per operation as cpu-ns/op.
func benchLoop(b *testing.B, op func() error) {
	b.ReportAllocs()
	start, ok := processCPU()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	if end, ok2 := processCPU(); ok && ok2 && b.N > 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}

// benchBare measures the bare baseline: decode each input into
// map[string]any, then encode the output (decoded before the timer).
func benchBare(b *testing.B, inputs [][]byte, output []byte) {
	benchLoop(b, bareOp(output, inputs...))
}

// bareOp decodes each input into map[string]any and encodes the output
// (decoded once, before).
func bareOp(output []byte, inputs ...[]byte) func() error {
	var out map[string]any
	if err := json.Unmarshal(output, &out); err != nil {
		panic(fmt.Sprintf("output: %v", err)) // the outputs are the engines', checked before
	}
	return func() error {
		for _, in := range inputs {
			var m map[string]any
			if err := json.Unmarshal(in, &m); err != nil {
				return err
			}
		}
		_, err := json.Marshal(out)
		return err
	}
}

// benchBytes measures an operation from bytes to bytes.
func benchBytes(b *testing.B, op func() ([]byte, error)) {
	benchLoop(b, func() error {
		_, err := op()
		return err
	})
}

// marshal is json.Marshal for values that cannot fail to marshal.
func marshal(tb testing.TB, v any) []byte {
	tb.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// decodeAny decodes a JSON document for comparison; numbers stay as text
// so that 1 and 1.0 differ as they do on the wire.
func decodeAny(tb testing.TB, data []byte) any {
	tb.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		tb.Fatalf("decode %.200s: %v", data, err)
	}
	return v
}

// sameJSON fails the benchmark unless both engines produced the same
// document: a benchmark of two engines that disagree measures nothing.
func sameJSON(tb testing.TB, what string, ours, theirs []byte) {
	tb.Helper()
	if !reflect.DeepEqual(decodeAny(tb, ours), decodeAny(tb, theirs)) {
		tb.Fatalf("%s: the engines disagree\nours: %.400s\nk8s:  %.400s", what, ours, theirs)
	}
}

// must returns out, failing on err: for set-up steps.
func must[T any](tb testing.TB) func(T, error) T {
	return func(out T, err error) T {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return out
	}
}
