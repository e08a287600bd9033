package main

import (
	"fmt"
	"strings"
)

// patchFlagsHelp describes the flags of diff, apply and three-way.
const patchFlagsHelp = `  --schema FILE        a CustomResourceDefinition manifest or an OpenAPI v2
                       or v3 document giving the schemas of more kinds;
                       repeatable, searched in order before the built-ins
  --type T             patch by one of the example types below instead of
                       the documents' kind; an error if a document's kind
                       is another
  -o, --output FORMAT  yaml (default) or json (indented, keys sorted)
  --directives SET     the directives written and obeyed, by generation:
                       legacy, setElementOrder, retainKeys (default: what
                       Kubernetes servers understand today) or all (adds
                       $patchMergeKey, this project's extension)
  --merge-unknown      merge a change under a field the schema lacks as
                       plain JSON, with a warning, instead of failing
  --ordering ORDER     where a merge puts live list items the patch does
                       not name: kubernetes (default: next to their
                       neighbours) or seed (before the patch's items)
  --skew-safe=false    with --directives all, patch item by item the
                       lists whose default merge key several items share:
                       unsafe toward servers (default: such lists whole)
`

// commandFlagsHelp describes the flags of one command only.
var commandFlagsHelp = map[string]string{
	"diff": `  --exit-code          exit 1 when the files differ, as git diff does
` + fmt.Sprintf(patchTypeHelp, "ORIGINAL"),
	"apply": `  -p, --patch PATCH    the patch itself, in YAML or JSON; ORIGINAL is then
                       the only file
`,
	"three-way": `  --conflicts          fail on a field CURRENT changed since ORIGINAL that
                       the patch changes too: print it, exit 1
  --overwrite          take MODIFIED's side on such a field (the default,
                       as kubectl apply does)
` + fmt.Sprintf(patchTypeHelp, "CURRENT"),
}

// explainFlagsHelp describes the flag of explain and vet.
const explainFlagsHelp = `  --type T             the type to describe or vet (required); see Types
`

// filesHelp says how documents are read, paired and printed.
const filesHelp = `Files are YAML or JSON; "-" reads one of them from standard input. Flags
may come before or after the files. Each document's schema comes from its
apiVersion and kind: every built-in kind of Kubernetes 1.37, or a kind of a
--schema file. A kind found in neither is an error, and so is a change under
a field the schema lacks (see --merge-unknown).

A file may hold several documents separated by "---". Objects are then
paired by apiVersion, kind, namespace and name; each output document follows
a comment naming its object ("# apps/v1 Deployment default/web"), or with
-o json the output is a list of {"object", "patch"} entries ("result" for
apply); an object found in some files only is named with the files it is
not in ("missingFrom" in JSON). apply prints unchanged the objects no patch
names; its patch documents must then name their objects.
`

// usage returns smp's help.
func usage() string {
	var b strings.Builder
	b.WriteString(`Usage: smp COMMAND [FLAGS] ARGUMENTS

smp computes and applies Kubernetes strategic merge patches on local
manifests, as kubectl does.

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
		fmt.Fprintf(&b, "  %-10s   smp %s %s\n", "", c.name, c.synopsis())
	}
	fmt.Fprintf(&b, "  %-10s %s\n", "help", "print this help, or a command's: smp help COMMAND")
	b.WriteString("\n" + filesHelp + `
Flags of diff, apply and three-way:
` + patchFlagsHelp + `
Flag of diff:
` + commandFlagsHelp["diff"] + `
Flag of apply:
` + commandFlagsHelp["apply"] + `
Flags of three-way:
` + commandFlagsHelp["three-way"] + `
Types (--type, explain and vet):
` + wrap(typeNames(), "  ", 76) + `
Exit status: 0 on success, 1 on a conflict, a difference with --exit-code,
or an invalid document, schema or patch, 2 on bad usage (unknown command or
flag, wrong arguments, unknown type, unreadable file).
`)
	return b.String()
}

// synopsis returns the flags and operands of the command's usage line.
func (c *command) synopsis() string {
	if c.patch {
		return "[FLAGS] " + c.operands
	}
	return strings.TrimSpace("--type T " + c.operands)
}

// usage returns the help of one command.
func (c *command) usage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: smp %s %s\n\n%s\n\n", c.name, c.synopsis(), c.detail)
	if c.patch {
		b.WriteString(filesHelp + "\nFlags:\n" + patchFlagsHelp + commandFlagsHelp[c.name])
	} else {
		b.WriteString("Flags:\n" + explainFlagsHelp)
	}
	b.WriteString("\nTypes:\n" + wrap(typeNames(), "  ", 76))
	return b.String()
}

// wrap joins words with spaces into indented lines of at most width
// characters.
func wrap(words []string, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, w := range words {
		if line != indent && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}
