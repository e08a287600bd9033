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
  -n, --namespace NS   the namespace of objects of namespaced kinds written
                       without one (default: default), as kubectl's; with
                       it, an object in another namespace is an error
  --directives SET     the directives written and obeyed, by generation:
                       legacy, setElementOrder, retainKeys (default: what
                       Kubernetes servers understand today) or all (adds
                       $patchMergeKey, this project's extension)
  --validate MODE      a field the schema does not declare (outside
                       x-kubernetes-preserve-unknown-fields) is an error
                       (strict, the default), a warning (warn) or accepted
                       (ignore); in three-way's CURRENT, from a server that
                       may be newer, it is at most a warning. A string
                       field given a boolean or number, or a map key on
                       or yes read as true (YAML 1.1 reads unquoted y, n,
                       on, off, 1.0 so), is always an error
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
	"three-way": `  --exit-code          exit 1 when the patch is not empty or an object is in
                       some files only
  --conflicts          fail on a field CURRENT changed since ORIGINAL that
                       the patch changes too: print it, exit 1
  --overwrite          take MODIFIED's side on such a field (the default,
                       as kubectl apply does)
` + fmt.Sprintf(patchTypeHelp, "CURRENT"),
}

// explainFlagsHelp describes the flag of explain and vet.
const explainFlagsHelp = `  --api-version V      the apiVersion (or group) of RESOURCE, where several
                       serve it
  --schema FILE        a CustomResourceDefinition manifest or an OpenAPI v2
                       or v3 document giving more kinds; repeatable
  --type T             describe or vet one of the example types below
                       instead of a kind
`

// filesHelp says how documents are read, paired and printed.
const filesHelp = `Files are YAML or JSON; "-" reads one of them from standard input. Flags
may come before or after the files. Each document's schema comes from its
apiVersion and kind: every built-in kind of Kubernetes 1.37, a kind of a
--schema file, or of a CustomResourceDefinition among the documents. A kind
found in none is an error, and so are a field the schema lacks (see
--validate) and a change under it (see --merge-unknown).

A file may hold several documents separated by "---", and a List ("v1
List", as kubectl get prints several objects, or a typed one such as
RoleList) holds its items as objects; apply writes them back into it.
Objects are then paired by apiVersion, kind, namespace and name; an object
of a namespaced kind (from the built-in kinds, or a CustomResourceDefinition's
spec.scope) without metadata.namespace is in -n's namespace, or "default".
Each output document follows a comment naming its object ("# apps/v1
Deployment default/web"), or with -o json the output is a list of
{"object", "patch"} entries ("result" for apply). An object found in some
files only is named there ("missingFrom" in JSON) and on standard error,
and is a difference for --exit-code. apply prints unchanged the objects no
patch names; its patch documents must then name their objects, and one
that names no object is an error.
`

// exitHelp describes the exit statuses.
const exitHelp = `Exit status (as kubectl diff's and diff's):
  0  success, and no difference
  1  differences found (--exit-code) or conflicts (--conflicts)
  2  any error: bad usage (unknown command or flag, wrong arguments, unknown
     type), an unreadable or invalid file, schema or patch, a patch that
     cannot apply
smp fn exits 1 when the ResourceList it writes holds an error result, as
KRM functions do, and 2 when it cannot read a ResourceList.
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
	fmt.Fprintf(&b, "  %-10s %s\n", "version", "print smp's module version")
	fmt.Fprintf(&b, "  %-10s %s\n", "help", "print this help, or a command's: smp help COMMAND")
	b.WriteString("\n" + filesHelp + `
Flags of diff, apply, three-way and fn:
` + patchFlagsHelp + `
Flag of diff:
` + commandFlagsHelp["diff"] + `
Flag of apply:
` + commandFlagsHelp["apply"] + `
Flags of three-way:
` + commandFlagsHelp["three-way"] + `
Flags of explain and vet:
` + explainFlagsHelp + `
Types (--type, explain and vet):
` + wrap(typeNames(), "  ", 76) + `
Flags take pflag's forms: --output json, --output=json, -o json, -ojson.
'smp version' (or --version) prints the module version.

` + exitHelp)
	return b.String()
}

// synopsis returns the flags and operands of the command's usage line.
func (c *command) synopsis() string {
	return strings.TrimSpace("[FLAGS] " + c.operands)
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
	b.WriteString("\n" + exitHelp)
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
