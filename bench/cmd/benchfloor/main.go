// Command benchfloor measures typedpatch against the floors of its
// operations and against the libraries a Go user would pick instead, and
// prints the ratio table and which of the performance targets hold.
//
// It builds bench/'s test binary and runs BenchmarkTargets (see
// bench_targets_test.go) in interleaved passes: each pass runs every
// benchmark once, so that a change of the machine's load between passes
// moves both sides of a ratio. Figures are medians over the passes;
// ratios are medians of the per-pass ratios; each target is shown on
// wall time and on CPU time.
//
// With -instr it runs nothing: it judges the targets on instructions per
// operation from the instr-bench results files it is given (`instr-bench
// measure -o`; of bench/'s BenchmarkTargets and
// BenchmarkTargetsLargeLists, and smp's BenchmarkApplyInPlaceLarge and
// BenchmarkGrowth*), and prints the markdown table of docs/benchmarks.md;
// with -from as well, the wall time of a saved run beside each target.
//
// Usage, from bench/:
//
//	go run ./cmd/benchfloor                     # 7 passes, about 5 minutes
//	go run ./cmd/benchfloor -passes 3 -o raw.txt
//	go run ./cmd/benchfloor -from raw.txt       # the tables of a saved run
//	go run ./cmd/benchfloor -rows typed         # the typed rows only
//	go run ./cmd/benchfloor -instr [-from raw.txt] t.tsv maplist.tsv growth.tsv
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	passes := flag.Int("passes", 7, "interleaved passes of every benchmark")
	benchtime := flag.String("benchtime", "0.3s", "-test.benchtime of each benchmark in a pass")
	from := flag.String("from", "", "read the output of an earlier run from `file` instead of running")
	out := flag.String("o", "", "also write the raw benchmark output to `file`")
	rows := flag.String("rows", "", "measure only the rows matching `regexp` (e.g. typed); the report shows the others as –")
	instr := flag.Bool("instr", false, "judge the targets on instructions/op from the instr-bench results files given as arguments")
	flag.Parse()
	if *instr {
		if err := instrMain(*from); err != nil {
			fmt.Fprintln(os.Stderr, "benchfloor:", err)
			os.Exit(1)
		}
		return
	}
	raw, err := input(*from, *passes, *benchtime, *rows)
	if err == nil && *out != "" {
		err = os.WriteFile(*out, raw, 0o644)
	}
	if err == nil {
		err = report(os.Stdout, bytes.NewReader(raw))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchfloor:", err)
		os.Exit(1)
	}
}

// instrMain prints the targets table of the instr-bench files named as
// arguments, with the wall time of the run saved in from, if any.
func instrMain(from string) error {
	rs, err := readInstr(flag.Args())
	if err != nil {
		return err
	}
	var wall runs
	if from != "" {
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if wall, err = parseRuns(bytes.NewReader(data)); err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
	}
	return instrReport(os.Stdout, rs, wall)
}

// input returns the benchmark output: read from file, or measured.
func input(file string, passes int, benchtime, rows string) ([]byte, error) {
	if file != "" {
		return os.ReadFile(file)
	}
	if passes < 1 {
		return nil, fmt.Errorf("-passes %d: want at least one", passes)
	}
	dir, err := os.MkdirTemp("", "benchfloor")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "bench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("building the benchmarks (run from bench/): %w", err)
	}
	var all bytes.Buffer
	for i := range passes {
		fmt.Fprintf(os.Stderr, "benchfloor: pass %d of %d\n", i+1, passes)
		bench := "^BenchmarkTargets$"
		if rows != "" {
			bench += "/" + rows
		}
		cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", bench,
			"-test.benchmem", "-test.benchtime", benchtime)
		cmd.Stdout, cmd.Stderr = io.MultiWriter(&all, os.Stderr), os.Stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("pass %d: %w", i+1, err)
		}
	}
	return all.Bytes(), nil
}
