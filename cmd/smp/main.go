// Command smp computes and applies strategic merge patches on local
// Kubernetes manifests, in the manner of `kubectl patch --local`, `kubectl
// diff` and `kubectl apply`.
//
// Usage:
//
//	smp diff      [FLAGS] ORIGINAL MODIFIED
//	smp apply     [FLAGS] ORIGINAL PATCH...   (or ORIGINAL -p PATCH)
//	smp three-way [FLAGS] ORIGINAL MODIFIED CURRENT
//	smp explain   [FLAGS] RESOURCE[.PATH]     (or --type T [PATH])
//	smp vet       [FLAGS] RESOURCE            (or --type T)
//	smp version
//	smp help      [COMMAND]
//
// diff prints the two-way patch that turns ORIGINAL into MODIFIED. apply
// prints ORIGINAL with the PATCHes applied in order. three-way prints the patch that brings
// CURRENT to MODIFIED while keeping the changes made to CURRENT since
// ORIGINAL, taking MODIFIED's side where both changed a field unless
// --conflicts. explain prints how a kind (named as kubectl explain names
// it) or an example type is patched; vet lists a kind's lists of objects
// that a patch replaces whole, or an example type's patch tags that have
// no effect.
//
// Each document's schema comes from its apiVersion and kind: the built-in
// kinds of package builtin, or the CRDs and OpenAPI documents of --schema.
// Files are YAML or JSON, with one or several documents; "-" reads one of
// them from standard input. Output is YAML, or indented JSON with sorted
// keys with -o json. The exit status is 0 on success and no difference, 1
// when --exit-code found differences or --conflicts conflicts, and 2 on any
// error: bad usage, unreadable or invalid input, a patch that cannot apply.
// smp version prints the module version. Run `smp help` for every flag.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
