// Package e2e tests the project's strategic merge patches against a real
// Kubernetes API server: kube-apiserver v1.37.2 and etcd, built from source
// through the Go module proxy and started on loopback for the duration of
// `go test`. The package has no API of its own; its tests are the product.
//
// For built-in kinds the tests check that the server, given a patch this
// project computed, stores exactly what the project's ApplyJSON computes
// locally (once the server's defaults are applied to it), and that the
// result is the configuration, with another writer's changes kept in
// three-way patches. Patches that Kubernetes' own strategicpatch package
// computes, as kubectl does, are checked the same way, and so are the JSON
// merge patches and JSON patches the project converts its patches to.
// Custom resources show that the server refuses strategic merge patches
// for them and takes those conversions; package ctrlpatch's patches go
// through a controller-runtime client.
package e2e
