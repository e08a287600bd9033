package main

import "github.com/typedpatch/typedpatch/smp"

// applyCommand prints a document with a patch applied.
var applyCommand = &command{
	name:     "apply",
	operands: "ORIGINAL PATCH...",
	summary:  "print ORIGINAL with the PATCHes applied in order",
	detail: `Apply prints ORIGINAL with the strategic merge patch PATCH applied, as
'kubectl patch --local --type strategic' does; several PATCH files are
applied in order, each to the result of the ones before. With -p the patch
is given inline and ORIGINAL is the only file. When the files hold several
objects, each patch document must carry the apiVersion, kind and
metadata.name of the object it patches, and one that names no object is
an error; objects no patch names are printed unchanged.`,
	patch: true,
	min:   2, max: -1,
	run: func(e *env, o *options, operands []string) error { return applyRun.run(e, o, operands) },
}

// applyRun applies patches, in turn, to the objects they name.
var applyRun = &patchRun{
	roles: []string{"ORIGINAL", "PATCH"}, keep: 0, empty: -1, live: -1, base: -1, key: "result",
	fn: func(ds any, docs [][]byte, opts []smp.Option) ([]byte, error) {
		return smp.ApplyJSON(docs[0], docs[1], ds, opts...)
	},
}
