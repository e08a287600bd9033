package main

import "github.com/typedpatch/typedpatch/smp"

// threeWayCommand prints the three-way patch of kubectl apply.
var threeWayCommand = &command{
	name:     "three-way",
	operands: "ORIGINAL MODIFIED CURRENT",
	summary:  "print the patch that brings CURRENT to MODIFIED",
	detail: `Three-way prints the patch that brings CURRENT (the live object) to MODIFIED
(the new configuration) while keeping the changes made to CURRENT since
ORIGINAL (the configuration last applied), as 'kubectl apply' computes it:
fields removed from the configuration are deleted, fields only CURRENT has
are kept. If the patch would undo a change made to CURRENT, the conflicting
paths are printed to standard error and the exit status is 1; --overwrite
takes MODIFIED's side instead.`,
	patch:     true,
	overwrite: true,
	min:       3, max: 3,
	run: runThreeWay,
}

// runThreeWay prints the three-way patch of the operands, or fails with
// the conflicts.
func runThreeWay(e *env, o *options, operands []string) error {
	ds, err := o.dataStruct()
	if err != nil {
		return err
	}
	docs, err := readDocuments(e, []string{"ORIGINAL", "MODIFIED", "CURRENT"}, operands)
	if err != nil {
		return err
	}
	patch, err := smp.ThreeWayJSON(docs[0], docs[1], docs[2], ds, o.smpOptions()...)
	if err != nil {
		return err
	}
	return writeDocument(e, patch, o.output)
}
