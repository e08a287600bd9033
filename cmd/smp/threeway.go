package main

import (
	"slices"

	"github.com/typedpatch/typedpatch/smp"
)

// threeWayCommand prints the three-way patch of kubectl apply.
var threeWayCommand = &command{
	name:     "three-way",
	operands: "ORIGINAL MODIFIED CURRENT",
	summary:  "print the patch that brings CURRENT to MODIFIED",
	detail: `Three-way prints the patch that brings CURRENT (the live object) to MODIFIED
(the new configuration) while keeping the changes made to CURRENT since
ORIGINAL (the configuration last applied), as 'kubectl apply' computes it:
fields removed from the configuration are deleted, fields only CURRENT has
are kept, and a field changed both on the server and in the configuration
takes MODIFIED's value. With --conflicts such a field is a conflict
instead: the conflicting paths are printed to standard error and the exit
status is 1. An object of MODIFIED and CURRENT that ORIGINAL lacks was never
applied: its ORIGINAL is empty, as for kubectl apply without its annotation.`,
	patch:     true,
	overwrite: true,
	min:       3, max: 3,
	run: (&patchRun{
		roles: []string{"ORIGINAL", "MODIFIED", "CURRENT"}, keep: -1, empty: 0, live: 2, base: 2, key: "patch",
		note: func(missing []string) string {
			live, configured := !slices.Contains(missing, "CURRENT"), !slices.Contains(missing, "MODIFIED")
			switch {
			case configured:
				return "it would be created"
			case live:
				return "kubectl apply leaves it (apply --prune would delete it)"
			}
			return "it was removed from the configuration and is not live"
		},
		fn: func(ds any, docs [][]byte, opts []smp.Option) ([]byte, error) {
			return smp.ThreeWayJSON(docs[0], docs[1], docs[2], ds, opts...)
		},
	}).run,
}
