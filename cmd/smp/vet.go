package main

import (
	"fmt"
	"io"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// vetCommand lists the patch tags of a type that have no effect, or the
// lists of a kind a patch replaces whole.
var vetCommand = &command{
	name:     "vet",
	operands: "RESOURCE",
	summary:  "list the lists a patch replaces whole, or T's useless tags",
	detail: `Vet, for a kind (RESOURCE, named as for explain), lists its lists of
objects that have no merge key: a patch replaces them whole, so an element
a controller or webhook added to the live object is lost. For a
CustomResourceDefinition, x-kubernetes-list-type: map with
x-kubernetes-list-map-keys gives such a list a key. A kind without such
lists prints "no findings".

With --type, vet lists the patch tags of the example type T, and of every
type it reaches, that have no effect on the field carrying them and are
ignored, as Kubernetes ignores them: a patchMergeKey on a field that is not
a list of objects, patchStrategy merge on an object, scalar or atomic field,
retainKeys on a scalar or atomic field or on a list of them. Each is
printed on one line: the field's path, its Go type and field, the tag and
why it has no effect. The exit status is 0 either way; a type with a tag
that would make merges wrong is an error (2).`,
	min: 0, max: 1,
	run: runVet,
}

// runVet prints the findings of reflectschema.Vet for the type, or the
// lists of the kind replaced whole.
func runVet(e *env, o *options, operands []string) error {
	if o.typeName == "" {
		header, label, t, path, err := explainTarget(o, operands)
		if err != nil {
			return err
		}
		if path != "" {
			return usageErrorf("vet takes a RESOURCE without a PATH, got %s", quote(operands[0]))
		}
		fmt.Fprint(e.stdout, header)
		printReplaced(e.stdout, label, replacedLists(t))
		return nil
	}
	if len(operands) > 0 {
		return usageErrorf("vet --type takes no arguments, got %d", len(operands))
	}
	gt, err := o.goType()
	if err != nil {
		return err
	}
	findings, err := reflectschema.Vet(gt)
	if err != nil {
		return err
	}
	printFindings(e.stdout, o.typeName, findings)
	return nil
}

// replacedLists returns the paths of the lists of objects under t that
// have no merge key, each struct type's once.
func replacedLists(t *reflectschema.Type) []string {
	var out []string
	seen := map[*reflectschema.Type]bool{}
	var walk func(t *reflectschema.Type, path string)
	walk = func(t *reflectschema.Type, path string) {
		s, at := innerStruct(t, path)
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		for _, f := range s.Fields {
			p := joinPath(at, f.Name)
			if f.Type.Kind == reflectschema.List && f.Type.Elem != nil && f.Type.Elem.Kind == reflectschema.Struct && !f.Patch.IsMergeList() {
				out = append(out, p)
			}
			walk(f.Type, p)
		}
	}
	walk(t, "")
	return out
}

// printReplaced writes the lists replacedLists found, or says there are
// none.
func printReplaced(w io.Writer, kind string, paths []string) {
	if len(paths) == 0 {
		fmt.Fprintf(w, "no findings: every list of objects of %s merges by key\n", kind)
		return
	}
	for _, p := range paths {
		fmt.Fprintf(w, "%s: a list of objects without a merge key: a patch replaces it whole\n", p)
	}
}

// printFindings writes one line per finding, or says there are none.
func printFindings(w io.Writer, typeName string, findings []reflectschema.Finding) {
	if len(findings) == 0 {
		fmt.Fprintf(w, "no findings: every patch tag of %s has an effect\n", typeName)
		return
	}
	for _, f := range findings {
		fmt.Fprintln(w, f)
	}
}
