package jsonwalk

// Config is the resolved set of options.
type Config struct {
	Ordering   Ordering
	Directives DirectiveSet
	Overwrite  bool
	SkewSafe   bool
	Limits     Limits

	Preconditions []func(any) bool
	NoTypeChecks  bool
	MergeUnknown  bool
	// RepeatReplaced writes replace-strategy objects even when unchanged.
	RepeatReplaced bool
	// KubeDirectiveScope takes $retainKeys and $setElementOrder where
	// Kubernetes takes them.
	KubeDirectiveScope bool
}
