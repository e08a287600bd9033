package smp_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExportedAPINamesNoInternalType: no exported declaration of smp
// (type, alias, constant, variable, function signature, exported field
// or method) names a type or value of an internal package, so that go
// doc shows a user every field and method, and every constant's value.
func TestExportedAPINamesNoInternalType(t *testing.T) {
	_, files := parseSMPFiles(t)
	var found []string
	for _, f := range files {
		internal := map[string]bool{} // local names of the file's internal imports
		for _, im := range f.file.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if !strings.Contains(path, "/internal/") {
				continue
			}
			name := filepath.Base(path)
			if im.Name != nil {
				name = im.Name.Name
			}
			internal[name] = true
		}
		report := func(what string, n ast.Node) {
			if names := internalNames(n, internal); len(names) > 0 {
				found = append(found, f.name+": "+what+" names "+strings.Join(names, ", "))
			}
		}
		for _, d := range f.file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv)) {
					report(d.Name.Name, d.Type)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							report("type "+s.Name.Name, s.Type)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								report(n.Name, s)
								break
							}
						}
					}
				}
			}
		}
	}
	require.Empty(t, found)
}

// internalNames returns the package-qualified names in n that refer to an
// internal package, skipping the unexported fields and methods of struct
// and interface types, which go doc does not show.
func internalNames(n ast.Node, internal map[string]bool) []string {
	var out []string
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && internal[x.Name] {
				out = append(out, x.Name+"."+n.Sel.Name)
			}
		case *ast.StructType:
			visitShown(n.Fields, visit)
			return false
		case *ast.InterfaceType:
			visitShown(n.Methods, visit)
			return false
		}
		return true
	}
	ast.Inspect(n, visit)
	return out
}

// visitShown inspects the exported and embedded members of a field list.
func visitShown(fields *ast.FieldList, visit func(ast.Node) bool) {
	for _, f := range fields.List {
		shown := len(f.Names) == 0
		for _, n := range f.Names {
			shown = shown || n.IsExported()
		}
		if shown {
			ast.Inspect(f.Type, visit)
		}
	}
}

func exportedRecv(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

type parsedFile struct {
	name string
	file *ast.File
}

// parseSMPFiles parses the package's files, tests left out.
func parseSMPFiles(t *testing.T) (*token.FileSet, []parsedFile) {
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var out []parsedFile
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		out = append(out, parsedFile{name, f})
	}
	require.NotEmpty(t, out)
	return fset, out
}

// parseSMP reads package smp's documentation, tests left out.
func parseSMP(t *testing.T) *doc.Package {
	fset, files := parseSMPFiles(t)
	asts := make([]*ast.File, len(files))
	for i, f := range files {
		asts[i] = f.file
	}
	p, err := doc.NewFromFiles(fset, asts, "github.com/typedpatch/typedpatch/smp")
	require.NoError(t, err)
	return p
}
