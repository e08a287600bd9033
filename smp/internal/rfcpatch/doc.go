// Package rfcpatch writes the JSON merge patch (RFC 7386) and the JSON
// patch (RFC 6902) that turn one decoded document into another: the forms
// a Kubernetes API server takes for every kind, custom resources included.
//
// Both are computed in time linear in the documents: a merge patch
// mirrors the result, and a JSON patch pairs list elements by their merge
// key (or position) in one pass, never by a longest common subsequence.
package rfcpatch
