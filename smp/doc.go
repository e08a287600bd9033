// Package smp computes and applies strategic merge patches, the patch
// format of kubectl apply and kubectl patch, between values of Go types
// that carry Kubernetes-style struct tags.
//
// A Go type's tags (read by package reflectschema) decide how each list
// merges: `patchStrategy:"merge"` with `patchMergeKey:"name"` merges
// elements by key, `patchMergeKey:"port,protocol"` by several fields, and
// `recommendedPatchMergeKey:"port,protocol"` names a fuller key that
// patches may select with $patchMergeKey; a merge list of scalars is a
// set; lists without a merge strategy are replaced whole.
// `patchStrategy:"retainKeys"` marks a union, whose other members a patch
// clears with $retainKeys.
//
// # Two APIs
//
// The typed API walks Go values, without a JSON round trip: Diff and
// ThreeWay make a Patch, Apply applies one and returns a new value;
// ParsePatch reads a patch from the wire. The JSON API works on bytes:
// ApplyJSON, DiffJSON and ThreeWayJSON, and on decoded objects: ApplyMap,
// DiffMap, ThreeWayMap and PatchesConflict. Both APIs give the same
// results.
//
// # Patches for a server
//
// A Kubernetes API server refuses strategic merge patches for custom
// resources. MergePatchJSON and JSONPatchJSON (typed: MergePatch and
// JSONPatch) turn a live object and a strategic merge patch into the JSON
// merge patch (RFC 7386) or JSON patch (RFC 6902) that makes the server's
// object what Apply makes of it, with the live resourceVersion as a
// precondition.
// Kubernetes' names and arguments (StrategicMergePatch,
// CreateTwoWayMergePatch, ...) have one home: the nested module
// github.com/typedpatch/typedpatch/kube, whose package strategicpatch
// replaces k8s.io/apimachinery/pkg/util/strategicpatch with Kubernetes'
// types and behaviour.
//
// # Options
//
// The differ writes DirectivesRetainKeys, what Kubernetes servers
// understand today; WithDirectives(DirectivesAll) adds this project's
// $patchMergeKey, and limits written and obeyed directives to an older
// generation otherwise. With $patchMergeKey, lists a server could merge
// wrongly are written whole ($patch: replace) unless WithSkewSafe(false),
// which is unsafe toward servers. WithOrdering picks where unmentioned
// live list items go. WithOverwrite resolves three-way
// conflicts in modified's favour. WithLimits bounds the input; WithPreconditions checks
// created patches; WithTypeChecks(false) accepts ill-typed patch values as
// Kubernetes does. WithRepeatedReplaceFields and
// WithKubernetesDirectiveScope copy two more of Kubernetes' habits, for the
// kube module (docs/compat.md).
//
// # Guarantees
//
// No operation changes its arguments, and Apply's result shares nothing
// mutable with them. No document or patch makes an operation panic.
// Every error is an *Error with a Kind and the Path where it happened, such as
// spec.template.spec.containers[name=web].ports. Operations are safe for
// concurrent use.
//
// The repository's docs/ describe the wire format (format.md), where it
// differs from Kubernetes (compat.md), version skew (skew.md) and the
// errors (errors.md).
package smp
