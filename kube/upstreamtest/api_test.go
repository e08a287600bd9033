package upstreamtest

import (
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const (
	upstreamPkg = "k8s.io/apimachinery/pkg/util/strategicpatch"
	ourPkg      = "github.com/typedpatch/typedpatch/kube/strategicpatch"
)

// TestAPIIdentity loads Kubernetes' package and ours (compiled export
// data, from go list -export) and
// checks that ours declares every exported identifier of Kubernetes' with
// the same kind and type: types are compared by package path and name, so
// apimachinery's own types (mergepatch.PreconditionFunc, openapi.Schema,
// spec.Schema) must be used where Kubernetes uses them. Methods of the
// package's named types, exported ones of unexported types included
// (NewKindItem returns *kindItem), are compared too.
func TestAPIIdentity(t *testing.T) {
	imp, err := exportImporter(upstreamPkg, ourPkg)
	if err != nil {
		t.Fatal(err)
	}
	up, err := imp.Import(upstreamPkg)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := imp.Import(ourPkg)
	if err != nil {
		t.Fatal(err)
	}
	want, got := apiOf(up), apiOf(ours)
	t.Logf("%d entries compared", len(want))
	if len(want) < 60 {
		t.Fatalf("Kubernetes' API has %d entries; the loader missed some", len(want))
	}
	for _, k := range sortedKeys(want) {
		switch g, ok := got[k]; {
		case !ok:
			t.Errorf("missing: %s %s", k, want[k])
		case g != want[k]:
			t.Errorf("%s differs:\n  Kubernetes: %s\n  ours:       %s", k, want[k], g)
		}
	}
	for _, k := range sortedKeys(got) {
		if _, ok := want[k]; !ok && isExported(k) {
			t.Errorf("extra exported identifier %s %s: not in Kubernetes' package", k, got[k])
		}
	}
}

// apiOf describes a package's API: each exported object's kind and type,
// each exported method of its named types, and the exported fields of its
// structs, with types written by package path and name (the package's own
// names unqualified, so ours and Kubernetes' compare equal).
func apiOf(pkg *types.Package) map[string]string {
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Path()
	}
	api := map[string]string{}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		tn, isType := obj.(*types.TypeName)
		if !obj.Exported() && !isType {
			continue
		}
		if obj.Exported() {
			api[name] = kindOf(obj) + " " + types.TypeString(underlyingOrType(obj), qual)
		}
		if !isType {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		mset := types.NewMethodSet(types.NewPointer(named))
		for i := 0; i < mset.Len(); i++ {
			m := mset.At(i).Obj()
			if m.Exported() {
				api[name+"."+m.Name()] = "method " + types.TypeString(unnamed(m.Type()), qual)
			}
		}
		if st, ok := named.Underlying().(*types.Struct); ok && obj.Exported() {
			for i := 0; i < st.NumFields(); i++ {
				if f := st.Field(i); f.Exported() {
					api[name+"."+f.Name()] = "field " + types.TypeString(f.Type(), qual) + " `" + st.Tag(i) + "`"
				}
			}
		}
	}
	return api
}

func kindOf(obj types.Object) string {
	switch obj.(type) {
	case *types.Func:
		return "func"
	case *types.TypeName:
		return "type"
	case *types.Var:
		return "var"
	case *types.Const:
		return "const"
	}
	return "?"
}

// underlyingOrType is a function's signature or a variable's type, and for
// a type its underlying kind of type (struct fields are compared apart).
func underlyingOrType(obj types.Object) types.Type {
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return unnamed(obj.Type())
	}
	switch u := tn.Type().Underlying().(type) {
	case *types.Struct:
		return types.NewStruct(nil, nil)
	default:
		return u
	}
}

// unnamed is a signature without its parameter names, which are not part
// of its type; other types are returned as they are.
func unnamed(t types.Type) types.Type {
	sig, ok := t.(*types.Signature)
	if !ok {
		return t
	}
	strip := func(tu *types.Tuple) *types.Tuple {
		vars := make([]*types.Var, tu.Len())
		for i := range vars {
			vars[i] = types.NewParam(token.NoPos, nil, "", tu.At(i).Type())
		}
		return types.NewTuple(vars...)
	}
	return types.NewSignatureType(nil, nil, nil, strip(sig.Params()), strip(sig.Results()), sig.Variadic())
}

// exportImporter imports the packages and their dependencies from the
// export data go list -export builds (and caches).
func exportImporter(pkgs ...string) (types.Importer, error) {
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, pkgs...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %v", err)
	}
	files := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
			files[path] = file
		}
	}
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	}), nil
}

func isExported(k string) bool {
	name, _, _ := strings.Cut(k, ".")
	return token.IsExported(name)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
