// Package goval is Go values of a declared type as the typed walkers see
// them; a value becomes JSON (a jsonval value) only where a patch must
// hold it.
//
// It holds the plan each Go type compiles once (Node: fields, offsets,
// keys, what is pointer-free), reading fields from memory, copying,
// equality, and Go values to and from decoded JSON as encoding/json
// would, with limits and the cycle guard. It knows nothing of patches.
package goval
