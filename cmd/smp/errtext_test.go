package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// TestHostileArgumentsInMessages: command-line arguments, file names and
// file contents reach standard error escaped and bounded, and each error
// names its input so that two different inputs print differently.
func TestHostileArgumentsInMessages(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Skipf("cannot create %q here: %v", name, err)
		}
		return p
	}
	esc, nl := "\x1b[31mred", "a\nb"
	huge := strings.Repeat("9", 100_000)
	okFile := write("ok.json", `{}`)
	cases := [][]string{
		{esc},
		{nl},
		{huge},
		{"diff", "--type", esc, "a", "b"},
		{"diff", "--type", huge, "a", "b"},
		{"diff", "--" + esc, "a", "b"},
		{"diff", "--type", "Pod", "-o", esc, "a", "b"},
		{"explain", "--type", "Pod", "spec." + esc},
		{"explain", "--type", "Pod", "spec." + huge},
		{"explain", "--type", "Pod", "spec.nodeSelector.x." + nl},
		{"explain", "--type", "Pod", "spec.[" + esc},
		{"diff", "--type", "Pod", filepath.Join(dir, "no\x1b[2Jfile"), okFile},
		{"apply", "--type", "Pod", okFile, write("bad\x07name.json", "{\"a\x1b\":")},
		{"apply", "--type", "Pod", okFile, write("deep.json", `{"spec":{"containers":[{"name":"`+esc+`","image":5}]}}`)},
		{"apply", "--type", "Pod", okFile, write("num.json", `{"spec":{"terminationGracePeriodSeconds":`+huge+`}}`)},
		{"explain", esc},
		{"explain", huge + ".spec"},
		{"explain", "pod." + esc},
		{"explain", "deploy", "--api-version", esc},
		{"apply", write("pod.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"x"}}`), write("field.json", `{"spec":{"`+esc+`":1}}`)},
		{"apply", write("cm.json", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`), write("str.json", `{"data":{"`+nl+`":true}}`)},
		{"apply", "-n", esc, write("pods.yaml", "{apiVersion: v1, kind: Pod, metadata: {name: a, namespace: b}}\n---\n{apiVersion: v1, kind: Pod, metadata: {name: c}}\n"), okFile},
		{"apply", filepath.Join(dir, "pods.yaml"), write("typo.yaml", "{apiVersion: v1, kind: Pod, metadata: {name: \""+esc+"\"}}\n")},
	}
	seen := map[string][]string{}
	for _, args := range cases {
		_, stderr, exit := runInProcess(args, "")
		if exit == exitOK {
			t.Errorf("smp %q succeeded", args)
			continue
		}
		for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if i := strings.IndexFunc(line, func(r rune) bool { return r == unicode.ReplacementChar || !unicode.IsPrint(r) && r != ' ' }); i >= 0 {
				t.Errorf("smp %q: control character at %d of %q", args, i, line)
			}
		}
		if len(stderr) > 4096 {
			t.Errorf("smp %q: %d bytes of standard error", args, len(stderr))
		}
		if prev, dup := seen[stderr]; dup {
			t.Errorf("smp %q and %q print the same error:\n%s", prev, args, stderr)
		}
		seen[stderr] = args
	}
}
