// Package format is the patch format's vocabulary, shared by every walker:
// the directive keys and generations (DirectiveSet), merge keys and the
// identities they give list elements (KeySet, ListKeys; multi-field
// identities injective whatever the values hold), the index that finds
// elements by identity in O(log n) however many share one (ListIndex),
// and where merged items go (Arrange: Kubernetes' order or the seed's, in
// linear time). It knows JSON values (jsonval) and errors (errpath), not
// Go values or walks.
package format
