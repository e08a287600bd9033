package main

import (
	"fmt"
	"strings"
)

// patchFlagsHelp describes the flags of diff, apply and three-way.
const patchFlagsHelp = `  --type T             the type of the documents (required); see Types
  -o, --output FORMAT  yaml (default) or json (indented, keys sorted)
  --ordering ORDER     where a merge puts live list items the patch does
                       not name: kubernetes (default: next to their
                       neighbours) or seed (before the patch's items)
  --directives SET     the directives written and obeyed, by generation:
                       legacy, setElementOrder, retainKeys (Kubernetes
                       today) or all (default: adds $patchMergeKey)
  --skew-safe          write whole the lists whose default merge key is
                       shared by several items, for older servers
`

// overwriteFlagHelp describes three-way's extra flag.
const overwriteFlagHelp = `  --overwrite          on a conflict, take MODIFIED's side; do not fail
`

// explainFlagsHelp describes explain's flag.
const explainFlagsHelp = `  --type T             the type to describe (required); see Types
`

// usage returns smp's help.
func usage() string {
	var b strings.Builder
	b.WriteString(`Usage: smp COMMAND --type T [FLAGS] ARGUMENTS

smp computes and applies Kubernetes strategic merge patches on local files,
for the Go types of typedpatch's fixtures.

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
		fmt.Fprintf(&b, "  %-10s   smp %s --type T %s\n", "", c.name, c.operands)
	}
	fmt.Fprintf(&b, "  %-10s %s\n", "help", "print this help, or a command's: smp help COMMAND")
	b.WriteString(`
Files are YAML or JSON; "-" reads one of them from standard input. Flags
may come before or after the files.

Flags of diff, apply and three-way:
` + patchFlagsHelp + `
Flag of three-way:
` + overwriteFlagHelp + `
Types:
` + wrap(typeNames(), "  ", 76) + `
Exit status: 0 on success, 1 on a conflict or an invalid document or
patch, 2 on bad usage (unknown command or flag, wrong arguments, unknown
type, unreadable file).
`)
	return b.String()
}

// usage returns the help of one command.
func (c *command) usage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: smp %s --type T [FLAGS] %s\n\n%s\n\nFlags:\n", c.name, c.operands, c.detail)
	if c.patch {
		b.WriteString(patchFlagsHelp)
	} else {
		b.WriteString(explainFlagsHelp)
	}
	if c.overwrite {
		b.WriteString(overwriteFlagHelp)
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
