// Command smp computes and applies strategic merge patches on local files,
// in the manner of `kubectl patch --local` and `diff`, for the Go types of
// the fixtures registry.
//
// Usage:
//
//	smp diff      --type T [flags] ORIGINAL MODIFIED
//	smp apply     --type T [flags] ORIGINAL PATCH
//	smp three-way --type T [flags] [--overwrite] ORIGINAL MODIFIED CURRENT
//	smp explain   --type T [PATH]
//	smp help      [COMMAND]
//
// diff prints the two-way patch that turns ORIGINAL into MODIFIED. apply
// prints ORIGINAL with PATCH applied. three-way prints the patch that brings
// CURRENT to MODIFIED while keeping the changes made to CURRENT since
// ORIGINAL; if the patch would undo such a change, it prints the
// conflicting paths to standard error and exits 1, unless --overwrite.
// explain prints the patch schema of a type: each field's JSON name and
// kind, and for lists their strategy and merge keys.
//
// Files are YAML or JSON; "-" reads one of them from standard input. Output
// is YAML, or indented JSON with sorted keys with -o json. The exit status
// is 0 on success, 1 on a conflict or an invalid document or patch, and 2
// on bad usage. Run `smp help` for every flag.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
