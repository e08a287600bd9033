package main

import (
	"fmt"
	"io"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// vetCommand lists the patch tags of a type that have no effect.
var vetCommand = &command{
	name:    "vet",
	summary: "list the patch tags of T that have no effect, which are ignored",
	detail: `Vet lists the patch tags of T, and of every type it reaches, that have no
effect on the field carrying them and are ignored, as Kubernetes ignores
them: a patchMergeKey on a field that is not a list of objects,
patchStrategy merge on an object, scalar or atomic field, retainKeys on a
scalar or atomic field or on a list of them. Each is printed on one line:
the field's path, its Go type and field, the tag and why it has no effect.
A type without such tags prints "no findings". The exit status is 0 either
way; a type with a tag that would make merges wrong is an error (1).`,
	min: 0, max: 0,
	run: runVet,
}

// runVet prints the findings of reflectschema.Vet for the type.
func runVet(e *env, o *options, _ []string) error {
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
