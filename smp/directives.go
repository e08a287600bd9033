package smp

import "github.com/typedpatch/typedpatch/smp/internal/format"

// DirectiveSet is a generation of the patch format: the directives a client
// of that generation writes and a server of that generation understands.
// Later sets include earlier ones. An applier drops the directives its set
// does not include, as an old server does.
type DirectiveSet uint8

const (
	// DirectivesLegacy has $patch and $deleteFromPrimitiveList only.
	DirectivesLegacy DirectiveSet = iota + 1
	// DirectivesSetElementOrder adds $setElementOrder.
	DirectivesSetElementOrder
	// DirectivesRetainKeys adds $retainKeys: what Kubernetes ships today,
	// and what the differ writes by default.
	DirectivesRetainKeys
	// DirectivesAll adds $patchMergeKey: this project's format, which
	// today's servers do not know; the differ writes it only on request.
	DirectivesAll
)

// String names the set: "legacy", "setElementOrder", "retainKeys" or
// "all"; any other value is "unknown".
func (d DirectiveSet) String() string { return format.DirectiveSet(d).String() }

// ParseDirectiveSet reads a set's name as String prints it.
func ParseDirectiveSet(s string) (DirectiveSet, bool) {
	d, ok := format.ParseDirectiveSet(s)
	return DirectiveSet(d), ok
}
