package main

import (
	"regexp"
	"strings"
	"testing"
)

// versionLine is what smp version prints: a module version, or "(devel)"
// in a clone, and the revision when the build recorded one.
var versionLine = regexp.MustCompile(`^smp (\(devel\)|v[0-9]+\.[0-9]+\.[0-9]+\S*)( [0-9a-f]{40})?\n$`)

func TestVersion(t *testing.T) {
	first, _, _ := runBinary(t, cliCase{args: "version"})
	for _, args := range []string{"version", "--version"} {
		stdout, stderr, exit := runBinary(t, cliCase{args: args})
		if exit != exitOK || stderr != "" || !versionLine.MatchString(stdout) {
			t.Errorf("smp %s: exit %d, stdout %q, stderr %q", args, exit, stdout, stderr)
		}
		if stdout != first {
			t.Errorf("smp %s prints %q, smp version %q", args, stdout, first)
		}
	}
	stdout, stderr, exit := runBinary(t, cliCase{args: "version extra"})
	if exit != exitUsage || stdout != "" || !strings.Contains(stderr, "version takes no arguments") {
		t.Errorf("smp version extra: exit %d, stdout %q, stderr %q", exit, stdout, stderr)
	}
}

// TestOutputFlagForms: pflag's forms of -o all select JSON.
func TestOutputFlagForms(t *testing.T) {
	want, _, _ := runBinary(t, cliCase{args: "diff --output json " + kdOrig + " " + kdMod})
	if !strings.HasPrefix(want, "{\n") {
		t.Fatalf("--output json printed %q", want)
	}
	for _, form := range []string{"-o json", "-ojson", "-o=json", "--output=json"} {
		stdout, stderr, exit := runBinary(t, cliCase{args: "diff " + form + " " + kdOrig + " " + kdMod})
		if exit != exitOK || stderr != "" || stdout != want {
			t.Errorf("diff %s: exit %d, stderr %q, output differs from --output json's:\n%s", form, exit, stderr, stdout)
		}
	}
}
