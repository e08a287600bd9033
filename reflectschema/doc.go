// Package reflectschema turns Go types into the schema a strategic merge
// patch engine consults: which JSON fields a struct has, which of them are
// lists that merge element by element, by which key, and which objects are
// unions whose absent members a patch clears.
//
// It reads the tags Kubernetes API types carry (json, patchStrategy,
// patchMergeKey, and the proposed recommendedPatchMergeKey) with
// github.com/fatih/structtag, resolves embedded structs with encoding/json's
// rules, validates the result, and caches one immutable [Type] per Go type.
// Building is safe for concurrent first use.
package reflectschema
