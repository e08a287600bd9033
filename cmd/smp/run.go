package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/typedpatch/typedpatch/smp"
)

// Exit statuses, as kubectl diff's and diff's.
const (
	exitOK    = 0 // success, and no difference
	exitFail  = 1 // differences found (--exit-code) or conflicts (--conflicts)
	exitUsage = 2 // any error: bad usage, unreadable or invalid input, a patch that cannot apply
)

// env is what a command runs with: the process's standard streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// command is one subcommand of smp.
type command struct {
	name      string
	operands  string // the operands as the usage line shows them
	summary   string // one line for the command list
	detail    string // the paragraph `smp help NAME` prints
	patch     bool   // takes the flags of the patch commands
	overwrite bool   // takes --overwrite
	min, max  int    // how many operands it takes; max -1 for any number
	run       func(e *env, o *options, operands []string) error
}

// commands lists smp's commands in the order the usage shows them.
var commands = []*command{diffCommand, applyCommand, threeWayCommand, explainCommand, vetCommand, fnCommand}

// lookupCommand returns the command with that name, or nil.
func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run runs smp with the arguments after the program name and returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "--help":
		return e.help(args[1:])
	case "version", "--version":
		return e.version(args[1:])
	}
	c := lookupCommand(args[0])
	if c == nil {
		return e.report(usageErrorf("unknown command %s", quote(args[0])))
	}
	o, operands, err := parseFlags(c, args[1:])
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, c.usage())
		return exitOK
	}
	if err == nil {
		operands, err = checkOperands(c, o, operands)
	}
	if err == nil {
		err = c.run(e, o, operands)
	}
	var ue *usageError
	if errors.As(err, &ue) {
		ue.cmd = c // point to the command's help
	}
	return e.report(err)
}

// help prints the usage of smp or of one command to standard output.
func (e *env) help(args []string) int {
	switch len(args) {
	case 0:
		fmt.Fprint(e.stdout, usage())
		return exitOK
	case 1:
		if c := lookupCommand(args[0]); c != nil {
			fmt.Fprint(e.stdout, c.usage())
			return exitOK
		}
		return e.report(usageErrorf("unknown command %s", quote(args[0])))
	}
	return e.report(usageErrorf("help takes at most one command, got %d arguments", len(args)))
}

// checkOperands checks the operands' number and the use of standard
// input. It returns the operands with the inline patch of -p among them.
func checkOperands(c *command, o *options, operands []string) ([]string, error) {
	if o.inlineSet {
		if len(operands) != 1 {
			return nil, usageErrorf("%s -p takes 1 argument (ORIGINAL), got %d", c.name, len(operands))
		}
		operands = append(operands, inlineName)
	}
	switch {
	case len(operands) < c.min || c.max >= 0 && len(operands) > c.max:
		return nil, usageErrorf("%s takes %s, got %d argument%s", c.name, describeCount(c), len(operands), plural(len(operands)))
	case !c.patch && o.typeName == "" && len(operands) == 0:
		return nil, usageErrorf("%s takes a RESOURCE (a kind, resource or short name such as deploy), or --type T, one of: %s", c.name, strings.Join(typeNames(), ", "))
	}
	stdins := 0
	for _, op := range operands {
		if op == stdinName {
			stdins++
		}
	}
	if stdins > 1 {
		return nil, usageErrorf("at most one argument may be %q (standard input), got %d", stdinName, stdins)
	}
	return operands, nil
}

// describeCount says how many operands c takes, for an error message.
func describeCount(c *command) string {
	switch {
	case c.max == 0:
		return "no arguments"
	case c.max < 0:
		return fmt.Sprintf("at least %d arguments (%s)", c.min, c.operands)
	case c.min == c.max:
		return fmt.Sprintf("%d argument%s (%s)", c.min, plural(c.min), c.operands)
	case c.min == 0:
		return fmt.Sprintf("at most %d argument%s (%s)", c.max, plural(c.max), c.operands)
	}
	return fmt.Sprintf("%d to %d arguments (%s)", c.min, c.max, c.operands)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// usageError is bad usage: exit status 2, with a pointer to the help.
type usageError struct {
	msg string
	cmd *command // the command whose help to point to, if known
}

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// report prints err, if any, to standard error and returns the exit status
// it calls for.
func (e *env) report(err error) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errChanged) || errors.Is(err, errFnFailed) {
		return exitFail
	}
	var (
		ue *usageError
		ie *inputError
		ve *validationError
		se *smp.Error
	)
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "smp: %s\n", clean(ue.msg))
		if ue.cmd != nil {
			fmt.Fprintf(e.stderr, "Run 'smp help %s' for usage.\n", ue.cmd.name)
		} else {
			fmt.Fprintln(e.stderr, "Run 'smp help' for usage.")
		}
		return exitUsage
	case errors.As(err, &ve):
		fmt.Fprintf(e.stderr, "smp: %s\n", err.Error()) // with the object it is about, if several
		return exitUsage
	case errors.As(err, &ie):
		fmt.Fprintf(e.stderr, "smp: %s\n", ie.Error())
		return exitUsage
	case errors.As(err, &se):
		fmt.Fprintf(e.stderr, "smp: %s\n", err.Error()) // with the object it is about, if several
		if se.Kind == smp.ErrConflict {
			for _, p := range se.Conflicts {
				fmt.Fprintf(e.stderr, "conflict: %s\n", p)
			}
			fmt.Fprintln(e.stderr, "smp: CURRENT changed these fields since ORIGINAL; without --conflicts MODIFIED's side is taken")
			return exitFail
		}
		return exitUsage
	}
	fmt.Fprintf(e.stderr, "smp: %s\n", clean(bounded(err.Error())))
	return exitUsage
}
