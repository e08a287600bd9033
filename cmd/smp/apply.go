package main

import "github.com/typedpatch/typedpatch/smp"

// applyCommand prints a document with a patch applied.
var applyCommand = &command{
	name:     "apply",
	operands: "ORIGINAL PATCH",
	summary:  "print ORIGINAL with PATCH applied",
	detail: `Apply prints ORIGINAL with the strategic merge patch PATCH applied, as
'kubectl patch --local --type strategic' does.`,
	patch: true,
	min:   2, max: 2,
	run: runApply,
}

// runApply prints the first operand with the second applied.
func runApply(e *env, o *options, operands []string) error {
	ds, err := o.dataStruct()
	if err != nil {
		return err
	}
	docs, err := readDocuments(e, []string{"ORIGINAL", "PATCH"}, operands)
	if err != nil {
		return err
	}
	result, err := smp.ApplyJSON(docs[0], docs[1], ds, o.smpOptions()...)
	if err != nil {
		return err
	}
	return writeDocument(e, result, o.output)
}
