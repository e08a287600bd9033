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
$patch: delete for removed list elements. With --exit-code the exit status
is 1 when the files differ, as with 'git diff --exit-code'.`,
	patch: true,
	min:   2, max: 2,
	run: (&patchRun{
		roles: []string{"ORIGINAL", "MODIFIED"}, keep: -1, empty: -1, live: -1, base: 0, key: "patch",
		note: func(missing []string) string {
			if missing[0] == "ORIGINAL" {
				return "it would be created; no patch says so"
			}
			return "it was removed; no patch says so"
		},
		fn: func(ds any, docs [][]byte, opts []smp.Option) ([]byte, error) {
			return smp.DiffJSON(docs[0], docs[1], ds, opts...)
		},
	}).run,
}
