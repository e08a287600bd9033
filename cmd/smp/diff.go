package main

import "github.com/typedpatch/typedpatch/smp"

// diffCommand prints the two-way patch between two documents.
var diffCommand = &command{
	name:     "diff",
	operands: "ORIGINAL MODIFIED",
	summary:  "print the patch that turns ORIGINAL into MODIFIED",
	detail: `Diff prints the strategic merge patch that turns ORIGINAL into MODIFIED,
with the directives Kubernetes' client writes: fields set to null to delete
them, $setElementOrder for reordered lists, $retainKeys for unions, and
$patch: delete for removed list elements.`,
	patch: true,
	min:   2, max: 2,
	run: runDiff,
}

// runDiff prints the two-way patch from the first operand to the second.
func runDiff(e *env, o *options, operands []string) error {
	ds, err := o.dataStruct()
	if err != nil {
		return err
	}
	docs, err := readDocuments(e, []string{"ORIGINAL", "MODIFIED"}, operands)
	if err != nil {
		return err
	}
	patch, err := smp.DiffJSON(docs[0], docs[1], ds, o.smpOptions()...)
	if err != nil {
		return err
	}
	return writeDocument(e, patch, o.output)
}
