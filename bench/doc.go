// Package bench compares typedpatch with Kubernetes' strategicpatch: the
// differential tests run both on the same inputs, and the benchmarks
// measure both in one run. It is a module of its own so that the main
// module never depends on Kubernetes.
package bench
