package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

// readInstr reads instr-bench results files (`instr-bench measure -o`)
// into runs of one pass, in instructions per operation.
func readInstr(files []string) (runs, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("-instr: name the instr-bench results files")
	}
	rs := runs{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		lines, err := benchfmt.ParseInstr(strings.NewReader(string(data)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		rs.add(lines)
	}
	return rs, nil
}

// instrReport writes the targets table judged on instructions per
// operation, each target with the figures it comes from; with wall (a
// run of this command, or nil), the same measure on wall time beside it
// as information.
func instrReport(w io.Writer, rs, wall runs) error {
	var b strings.Builder
	b.WriteString("| target | instructions/op | measured | verdict |")
	if wall != nil {
		b.WriteString(" wall time |")
	}
	b.WriteString("\n| --- | --- | --: | --- |")
	if wall != nil {
		b.WriteString(" --: |")
	}
	b.WriteString("\n")
	met, missing := 0, 0
	for _, t := range targets {
		v := t.measure(rs, benchfmt.Instructions)
		switch verdict(t, v) {
		case "met":
			met++
		case "not measured":
			missing++
		}
		fmt.Fprintf(&b, "| %s | %s | %s | **%s** |", t.text, t.detail(rs, benchfmt.Instructions), t.format(v), verdict(t, v))
		if wall != nil {
			fmt.Fprintf(&b, " %s |", t.format(t.measure(wall, "ns/op")))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n%d of %d targets met in instructions per operation", met, len(targets))
	if missing > 0 {
		fmt.Fprintf(&b, "; %d not measured", missing)
	}
	b.WriteString(".\n")
	_, err := io.WriteString(w, b.String())
	return err
}
