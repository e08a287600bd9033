package main

import (
	"fmt"
	"runtime/debug"
)

// version prints the module version smp was built from: a release's tag
// when installed with go install, "(devel)" when built in a clone.
func (e *env) version(args []string) int {
	if len(args) > 0 {
		return e.report(usageErrorf("version takes no arguments, got %d", len(args)))
	}
	fmt.Fprintf(e.stdout, "smp %s\n", moduleVersion())
	return exitOK
}

// moduleVersion returns the main module's version from the build
// information, and the VCS revision when the build recorded one.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && v == "(devel)" {
			v += " " + s.Value
		}
	}
	return v
}
