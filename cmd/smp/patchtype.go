package main

import (
	"bytes"
	"errors"

	"github.com/typedpatch/typedpatch/smp"
)

// patchTypeHelp describes --patch-type, a flag of diff and three-way.
const patchTypeHelp = `  --patch-type TYPE    strategic (default), merge or json: the strategic
                       merge patch, or the JSON merge patch (lists whole,
                       with the live resourceVersion) or JSON patch (a list
                       of operations, the first testing the resourceVersion)
                       that turns %s into its result. A server takes
                       all three for built-in kinds; for a custom resource
                       it refuses strategic (415) and takes merge, json or
                       a server-side apply
`

// setPatchType is the --patch-type flag.
func (o *options) setPatchType(v string) error {
	if v != "strategic" && v != "merge" && v != "json" {
		return errors.New("must be strategic, merge or json")
	}
	o.patchType = v
	return nil
}

// asPatchType turns res, the strategic merge patch computed for live,
// into the patch type --patch-type asks for.
func asPatchType(o *options, res result, err error, ds any, live []byte, opts []smp.Option) (result, error) {
	if err != nil || o.patchType == "" || o.patchType == "strategic" {
		return res, err
	}
	res.unchanged = bytes.Equal(bytes.TrimSpace(res.doc), []byte("{}"))
	if o.patchType == "merge" {
		res.doc, err = smp.MergePatchJSON(live, res.doc, ds, opts...)
	} else {
		res.doc, err = smp.JSONPatchJSON(live, res.doc, ds, opts...)
	}
	return res, err
}
