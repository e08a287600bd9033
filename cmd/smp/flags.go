package main

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"strings"

	"github.com/typedpatch/typedpatch/fixtures"
	"github.com/typedpatch/typedpatch/smp"
)

// options holds the flags of a command.
type options struct {
	typeName   string
	output     string // "yaml" or "json"
	ordering   smp.Ordering
	directives smp.DirectiveSet
	skewSafe   bool
	overwrite  bool

	schemaFiles  []string // --schema, in order
	mergeUnknown bool     // --merge-unknown
	exitCode     bool     // diff --exit-code
	patchType    string   // diff and three-way --patch-type
	inline       string   // apply -p
	inlineSet    bool
}

// inlineName stands, among the operands, for the patch given with -p.
const inlineName = "\x00--patch"

// smpOptions returns the engine options the flags ask for.
func (o *options) smpOptions() []smp.Option {
	return []smp.Option{
		smp.WithOrdering(o.ordering),
		smp.WithDirectives(o.directives),
		smp.WithSkewSafe(o.skewSafe),
		smp.WithOverwrite(o.overwrite),
	}
}

// goType returns the chosen type.
func (o *options) goType() (reflect.Type, error) {
	t, ok := fixtures.TypeOf(o.typeName)
	if !ok {
		return nil, unknownType(o.typeName)
	}
	return t, nil
}

func unknownType(name string) error {
	return usageErrorf("unknown type %s; --type is one of: %s", quote(name), strings.Join(typeNames(), ", "))
}

// typeNames returns the names --type accepts.
func typeNames() []string { return fixtures.Names() }

// errHelp reports that -h or --help was given.
var errHelp = errors.New("help requested")

// orderings maps the values of --ordering to settings.
var orderings = map[string]smp.Ordering{"kubernetes": smp.KubernetesOrder, "seed": smp.SeedOrder}

// parseFlags parses a command's flags, which may come before, between or
// after its operands; "--" ends the flags. It returns the operands.
func parseFlags(c *command, args []string) (*options, []string, error) {
	o := &options{output: "yaml", ordering: smp.KubernetesOrder, directives: smp.DirectivesRetainKeys, overwrite: true}
	fs := newFlagSet(c, o)
	var operands []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, errHelp
		}
		if err != nil {
			return nil, nil, &usageError{msg: bounded(fixFlagError(err))}
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" && !isFlagValue(fs, args[:consumed-1]) {
			return o, append(operands, rest...), nil
		}
		if len(rest) == 0 {
			return o, operands, nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// newFlagSet returns the flags of command c, set in o. It prints nothing:
// parseFlags reports its errors.
func newFlagSet(c *command, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&o.typeName, "type", "", "")
	if !c.patch {
		return fs
	}
	output := func(v string) error {
		if v != "yaml" && v != "json" {
			return errors.New("must be yaml or json")
		}
		o.output = v
		return nil
	}
	fs.Func("o", "", output)
	fs.Func("output", "", output)
	fs.Func("ordering", "", func(v string) error {
		ord, ok := orderings[v]
		if !ok {
			return errors.New("must be kubernetes or seed")
		}
		o.ordering = ord
		return nil
	})
	fs.Func("directives", "", func(v string) error {
		d, ok := smp.ParseDirectiveSet(v)
		if !ok {
			return errors.New("must be legacy, setElementOrder, retainKeys or all")
		}
		o.directives = d
		return nil
	})
	fs.BoolVar(&o.skewSafe, "skew-safe", true, "")
	fs.Func("schema", "", func(v string) error {
		o.schemaFiles = append(o.schemaFiles, v)
		return nil
	})
	fs.BoolVar(&o.mergeUnknown, "merge-unknown", false, "")
	addCommandFlags(c, fs, o)
	return fs
}

// addCommandFlags adds the flags of one patch command.
func addCommandFlags(c *command, fs *flag.FlagSet, o *options) {
	switch c.name {
	case "diff":
		fs.BoolVar(&o.exitCode, "exit-code", false, "")
		fs.Func("patch-type", "", o.setPatchType)
	case "three-way":
		fs.Func("patch-type", "", o.setPatchType)
	case "apply":
		inline := func(v string) error {
			o.inline, o.inlineSet = v, true
			return nil
		}
		fs.Func("p", "", inline)
		fs.Func("patch", "", inline)
	}
	if c.overwrite {
		fs.BoolVar(&o.overwrite, "overwrite", true, "")
		fs.BoolFunc("conflicts", "", func(string) error {
			o.overwrite = false
			return nil
		})
	}
}

// isFlagValue reports whether the argument after args is the value of a
// flag given as "-name value": true when the last of args is such a flag.
func isFlagValue(fs *flag.FlagSet, args []string) bool {
	if len(args) == 0 {
		return false
	}
	last := args[len(args)-1]
	name := strings.TrimLeft(last, "-")
	if !strings.HasPrefix(last, "-") || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	bf, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !bf.IsBoolFlag()
}

// fixFlagError rewords the flag package's messages to name flags as the
// usage does: with two dashes, but -o with one.
func fixFlagError(err error) string {
	msg := err.Error()
	for _, prefix := range []string{"flag provided but not defined: -", "flag needs an argument: -"} {
		if name, ok := strings.CutPrefix(msg, prefix); ok {
			return prefix[:len(prefix)-1] + dashes(name) + name
		}
	}
	for _, sep := range []string{" for flag -", " for -"} {
		if before, after, ok := strings.Cut(msg, sep); ok {
			name, _, _ := strings.Cut(after, ":")
			return before + sep[:len(sep)-1] + dashes(name) + after
		}
	}
	return msg
}

// dashes returns the dashes the usage writes before a flag name.
func dashes(name string) string {
	if len(name) == 1 {
		return "-"
	}
	return "--"
}
