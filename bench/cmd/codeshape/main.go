// Command codeshape lists the non-test functions over a length or
// parameter budget, and the non-test files over a line budget, in the
// given directories (the project's limits: 80 lines, 6 parameters, 400
// lines). It exits 1 when it lists any. From the repository root:
//
//	go run ./bench/cmd/codeshape smp reflectschema property
//
// (run inside bench/: cd bench && go run ./cmd/codeshape ../smp ...).
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	maxLines := flag.Int("func-lines", 80, "longest function, in lines")
	maxParams := flag.Int("params", 6, "most parameters")
	maxFile := flag.Int("file-lines", 400, "longest file, in lines")
	flag.Parse()
	n, err := report(os.Stdout, flag.Args(), limits{*maxLines, *maxParams, *maxFile})
	if err != nil {
		fmt.Fprintln(os.Stderr, "codeshape:", err)
		os.Exit(2)
	}
	if n > 0 {
		os.Exit(1)
	}
}

type limits struct{ funcLines, params, fileLines int }

// report writes one line per function or file over the limits in dirs and
// returns how many it wrote.
func report(w io.Writer, dirs []string, l limits) (int, error) {
	fset := token.NewFileSet()
	n := 0
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return n, err
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				return n, err
			}
			if lines := fset.Position(af.End()).Line; lines > l.fileLines {
				fmt.Fprintf(w, "%s: %d lines\n", f, lines)
				n++
			}
			for _, d := range af.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				params := 0
				for _, p := range fd.Type.Params.List {
					params += max(1, len(p.Names))
				}
				if lines > l.funcLines || params > l.params {
					fmt.Fprintf(w, "%s: %s: %d lines, %d parameters\n", fset.Position(fd.Pos()), fd.Name.Name, lines, params)
					n++
				}
			}
		}
	}
	return n, nil
}
