package smp

import "github.com/typedpatch/typedpatch/smp/internal/format"

// DirectiveSet is a generation of the patch format: the directives a client
// of that generation writes and a server of that generation understands.
// Later sets include earlier ones. An applier drops the directives its set
// does not include, as an old server does. Its String method names it.
type DirectiveSet = format.DirectiveSet

const (
	// DirectivesLegacy has $patch and $deleteFromPrimitiveList only.
	DirectivesLegacy = format.DirectivesLegacy
	// DirectivesSetElementOrder adds $setElementOrder.
	DirectivesSetElementOrder = format.DirectivesSetElementOrder
	// DirectivesRetainKeys adds $retainKeys: what Kubernetes ships today,
	// and what the differ writes by default.
	DirectivesRetainKeys = format.DirectivesRetainKeys
	// DirectivesAll adds $patchMergeKey: this project's format, which
	// today's servers do not know; the differ writes it only on request.
	DirectivesAll = format.DirectivesAll
)

// ParseDirectiveSet reads a set's name as String prints it.
func ParseDirectiveSet(s string) (DirectiveSet, bool) { return format.ParseDirectiveSet(s) }
