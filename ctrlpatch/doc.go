// Package ctrlpatch gives controller-runtime clients patches computed by
// this project's engine, in the forms a Kubernetes API server takes:
//
//   - StrategicMergeFrom, for kinds with Go types the server knows: the
//     strategic merge patch from the original object to the one patched,
//     computed on the Go values (controller-runtime's own
//     client.StrategicMergeFrom encodes both objects and diffs their JSON).
//   - MergeFrom and JSONPatchFrom, for custom resources, which a server
//     refuses strategic merge patches for: the JSON merge patch or JSON
//     patch that makes the server's object what the strategic merge patch,
//     computed with the resource's schema, makes of the original. Each
//     carries the original's resourceVersion as a precondition, since it
//     replaces lists whole (merge patch) or addresses elements by position
//     (JSON patch): a server that holds a newer object refuses it.
//
// It is a module of its own so that only programs using controller-runtime
// depend on it.
package ctrlpatch
