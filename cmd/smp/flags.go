package main

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/typedpatch/typedpatch/exampletypes"
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
	exitCode     bool     // diff and three-way --exit-code
	patchType    string   // diff and three-way --patch-type
	inline       string   // apply -p
	inlineSet    bool
	validate     string // --validate: strict, warn or ignore
	apiVersion   string // explain and vet --api-version
	namespace    string // -n: the namespace of objects written without one
	namespaceSet bool
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
	t, ok := exampletypes.TypeOf(o.typeName)
	if !ok {
		return nil, unknownType(o.typeName)
	}
	return t, nil
}

func unknownType(name string) error {
	return usageErrorf("unknown type %s; --type is one of: %s", quote(name), strings.Join(typeNames(), ", "))
}

// typeNames returns the names --type accepts.
func typeNames() []string { return exampletypes.Names() }

// errHelp reports that -h or --help was given.
var errHelp = errors.New("help requested")

// orderings maps the values of --ordering to settings.
var orderings = map[string]smp.Ordering{"kubernetes": smp.KubernetesOrder, "seed": smp.SeedOrder}

// parseFlags parses a command's flags, which may come before, between or
// after its operands, in pflag's forms (--output json, --output=json, -o
// json, -ojson, -o=json); "--" ends the flags. It returns the operands.
func parseFlags(c *command, args []string) (*options, []string, error) {
	o := &options{output: "yaml", namespace: "default", validate: validateStrict, ordering: smp.KubernetesOrder, directives: smp.DirectivesRetainKeys, overwrite: true}
	fs := newFlagSet(c, o)
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return nil, nil, errHelp
	}
	if err != nil {
		return nil, nil, &usageError{msg: bounded(err.Error())}
	}
	return o, fs.Args(), nil
}

// newFlagSet returns the flags of command c, set in o. It prints nothing:
// parseFlags reports its errors.
func newFlagSet(c *command, o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SortFlags = false
	fs.StringVar(&o.typeName, "type", "", "")
	fs.Func("schema", "", func(v string) error {
		o.schemaFiles = append(o.schemaFiles, v)
		return nil
	})
	if !c.patch {
		fs.StringVar(&o.apiVersion, "api-version", "", "")
		return fs
	}
	fs.FuncP("output", "o", "", func(v string) error {
		if v != "yaml" && v != "json" {
			return errors.New("must be yaml or json")
		}
		o.output = v
		return nil
	})
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
	fs.BoolVar(&o.mergeUnknown, "merge-unknown", false, "")
	fs.Func("validate", "", func(v string) error {
		if v != validateStrict && v != validateWarn && v != validateIgnore {
			return errors.New("must be strict, warn or ignore")
		}
		o.validate = v
		return nil
	})
	fs.FuncP("namespace", "n", "", func(v string) error {
		if v == "" {
			return errors.New("must not be empty")
		}
		o.namespace, o.namespaceSet = v, true
		return nil
	})
	addCommandFlags(c, fs, o)
	return fs
}

// addCommandFlags adds the flags of one patch command.
func addCommandFlags(c *command, fs *pflag.FlagSet, o *options) {
	switch c.name {
	case "diff", "three-way":
		fs.BoolVar(&o.exitCode, "exit-code", false, "")
		fs.Func("patch-type", "", o.setPatchType)
	case "apply":
		fs.FuncP("patch", "p", "", func(v string) error {
			o.inline, o.inlineSet = v, true
			return nil
		})
	}
	if c.overwrite {
		fs.BoolVar(&o.overwrite, "overwrite", true, "")
		fs.BoolFunc("conflicts", "", func(v string) error {
			b, err := strconv.ParseBool(v)
			o.overwrite = !b
			return err
		})
	}
}
