// Package exampletypes holds Go types shaped like Kubernetes' API types,
// with the struct tags that drive a strategic merge patch (`json`,
// `patchStrategy`, `patchMergeKey` and `recommendedPatchMergeKey`), and small
// abstract types that give the design documents' examples a Go type. The
// command smp's `--type` flag names them, to patch, explain or vet by one;
// examples and tests use them. They are not Kubernetes' own types: the
// module does not depend on k8s.io/api, and the nested module kube/ adapts
// Kubernetes' types.
//
// The API types ([Pod], [Deployment], [Service], [ConfigMap], [Gateway], ...)
// are modelled on Kubernetes' core types. [Quantity] and [IntOrString]
// implement [encoding/json.Marshaler] and [encoding/json.Unmarshaler], as
// their Kubernetes counterparts do, so they appear in JSON as scalars
// although they are Go structs.
//
// The seed types ([SeedUnion], [SeedRecommended], [SeedOrderedList], ...)
// give the design documents' abstract examples (`list` with `foo` and `bar`,
// `union`, `unionName`) a Go type, so every example can be run.
//
// [Lookup], [TypeOf] and [Names] find the top-level types of both kinds, and
// some of their parts, by name.
package exampletypes
