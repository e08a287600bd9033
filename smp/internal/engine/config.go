package engine

import (
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Config is the resolved set of options.
type Config struct {
	Ordering   format.Ordering
	Directives format.DirectiveSet
	Overwrite  bool
	SkewSafe   bool
	Limits     jsonval.Limits

	Preconditions []func(any) bool
	NoTypeChecks  bool
	MergeUnknown  bool
	// RepeatReplaced writes replace-strategy objects even when unchanged.
	RepeatReplaced bool
	// KubeDirectiveScope takes $retainKeys and $setElementOrder where
	// Kubernetes takes them.
	KubeDirectiveScope bool
	// NoResourceVersion leaves the live resourceVersion out of merge
	// patches and JSON patches.
	NoResourceVersion bool
}
