// Command growthsvg draws the cost of one operation against the length
// of the list it works on, one line per implementation, on log-log axes:
// a line of slope 1 grows linearly, of slope 2 quadratically. It writes
// a standalone SVG, the same bytes for the same input.
//
// It reads a measured run of BenchmarkMapList (bench_lists_test.go),
// whose names are <bench>/<op>/n=<N>/<impl>: an instr-bench results
// file (`instr-bench measure -o FILE`), plotted in instructions per
// operation, or `go test -bench` output, plotted in -unit (ns/op by
// default; a name measured several times counts its median). The format
// is recognised from the content.
//
// Usage, from bench/:
//
//	go run ./cmd/growthsvg -op apply -o ../docs/img/maplist-apply.svg ../docs/data/maplist.tsv
//	go test -run XXX -bench 'MapList' -benchtime 1x . | go run ./cmd/growthsvg -op twoway > twoway.svg
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	var c config
	flag.StringVar(&c.bench, "bench", "BenchmarkMapList", "the benchmark whose rows are drawn")
	flag.StringVar(&c.op, "op", "apply", "the operation: rows <bench>/<op>/n=<N>/<impl>")
	flag.StringVar(&c.unit, "unit", "ns/op", "the unit drawn from `go test -bench` output (instr-bench files are in instructions/op)")
	flag.StringVar(&c.title, "title", "", "the picture's title (default: the rows drawn and the unit)")
	flag.StringVar(&c.note, "note", "", "a line of text under the title, e.g. what was not measured")
	out := flag.String("o", "", "write the SVG to `file` instead of standard output")
	flag.Parse()
	if err := run(c, flag.Args(), *out); err != nil {
		fmt.Fprintln(os.Stderr, "growthsvg:", err)
		os.Exit(1)
	}
}

// config is what to draw.
type config struct {
	bench, op, unit, title, note string
}

// run reads the files (standard input without any), draws, and writes
// the picture to out (standard output if empty).
func run(c config, files []string, out string) error {
	var inputs [][]byte
	if len(files) == 0 {
		data, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		inputs = append(inputs, data)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		inputs = append(inputs, data)
	}
	var svg bytes.Buffer
	if err := draw(&svg, c, inputs); err != nil {
		return err
	}
	if out == "" {
		_, err := os.Stdout.Write(svg.Bytes())
		return err
	}
	return os.WriteFile(out, svg.Bytes(), 0o644)
}

// draw collects the rows of every input and writes the picture.
func draw(w io.Writer, c config, inputs [][]byte) error {
	s, err := collect(c, inputs)
	if err != nil {
		return err
	}
	return writeSVG(w, newChart(c, s))
}
