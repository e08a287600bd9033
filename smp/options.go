package smp

import (
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/format"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// Ordering chooses where a merge places the live list's items that the
// patch does not mention.
type Ordering uint8

const (
	// KubernetesOrder keeps server-only items near their live neighbours,
	// interleaving them by their live order, as Kubernetes does. Default.
	KubernetesOrder Ordering = iota
	// SeedOrder puts all server-only items first, in live order, then the
	// patch's items, as "Preserve Order in Strategic Merge Patch" describes.
	SeedOrder
)

// Option configures an operation. Options are made by the With functions.
type Option interface {
	apply(*config)
}

// config is the resolved set of options, as the walkers read it.
type config = engine.Config

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// newConfig is the configuration of an applier: it understands every
// directive unless WithDirectives says otherwise.
func newConfig(opts []Option) *config { return configFrom(DirectivesAll, opts) }

// newDiffConfig is the configuration of a differ: it writes only the
// directives today's servers understand unless WithDirectives says
// otherwise.
func newDiffConfig(opts []Option) *config { return configFrom(DirectivesRetainKeys, opts) }

func configFrom(d DirectiveSet, opts []Option) *config {
	c := &config{Directives: format.DirectiveSet(d), SkewSafe: true, Limits: jsonval.DefaultLimits()}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	c.Limits = c.Limits.Bounded()
	return c
}

// WithOrdering sets the list ordering rule.
func WithOrdering(o Ordering) Option {
	return optionFunc(func(c *config) { c.Ordering = format.Ordering(o) })
}

// WithDirectives limits the directives the differ writes and the applier
// acts on to a generation of the format, to behave as an older client or
// server. By default the differ writes DirectivesRetainKeys, what today's
// Kubernetes servers understand, and the applier acts on DirectivesAll,
// so that a patch written with DirectivesAll on request applies as meant.
func WithDirectives(d DirectiveSet) Option {
	return optionFunc(func(c *config) {
		if d >= DirectivesLegacy && d <= DirectivesAll {
			c.Directives = format.DirectiveSet(d)
		}
	})
}

// WithOverwrite makes a three-way patch take modified's side of every
// conflict instead of failing.
func WithOverwrite(overwrite bool) Option {
	return optionFunc(func(c *config) { c.Overwrite = overwrite })
}

// WithSkewSafe(false) lets a differ that writes $patchMergeKey
// (DirectivesAll) patch a list whose default merge key is shared by
// several elements (ports 53/TCP and 53/UDP) element by element. That is
// unsafe toward servers: one that does not know $patchMergeKey matches
// such elements by the default key alone, merging two into one or
// deleting both (docs/skew.md). By default such a list is written whole
// ($patch: replace), which every server applies correctly. Without
// $patchMergeKey the option has no effect.
func WithSkewSafe(skewSafe bool) Option {
	return optionFunc(func(c *config) { c.SkewSafe = skewSafe })
}

// Limits bounds the input an operation accepts. Zero fields mean no limit,
// except that no value may nest deeper than 10,000 levels, the ceiling
// encoding/json's decoder has too: MaxDepth zero or above it means
// 10,000; and MaxNodes zero means 33,554,432.
type Limits struct {
	// MaxDepth is the deepest nesting of objects and lists.
	MaxDepth int
	// MaxBytes is the largest document or patch, in bytes. It does not
	// apply to values in memory, which MaxNodes bounds.
	MaxBytes int
	// MaxListLength is the longest list.
	MaxListLength int
	// MaxNodes bounds the Go values in memory one operation takes (typed
	// values, and the objects of the map API): their size as the JSON
	// they stand for, one unit for each object, array, member and
	// element, where a value reached along several paths counts once per
	// path. A struct counts a member for each of its fields, also those
	// its JSON leaves out (omitempty, nil pointers), so the size is an
	// upper bound for structs. It is measured first, in time linear in
	// the distinct values in memory, so that values sharing subtrees
	// cost no more than their JSON would. Zero or less means 33,554,432.
	MaxNodes int
}

// DefaultLimits returns the limits used unless WithLimits says otherwise.
func DefaultLimits() Limits { return Limits(jsonval.DefaultLimits()) }

// WithLimits replaces the default limits.
func WithLimits(l Limits) Option {
	return optionFunc(func(c *config) { c.Limits = jsonval.Limits(l) })
}

// WithPreconditions adds checks every created patch must pass.
func WithPreconditions(fns ...PreconditionFunc) Option {
	return optionFunc(func(c *config) {
		for _, fn := range fns {
			c.Preconditions = append(c.Preconditions, fn)
		}
	})
}

// WithTypeChecks(false) makes the applier accept patch values that do not
// fit their Go fields (a number for a string, an object for a list), as
// Kubernetes does; the default rejects them (docs/compat.md).
func WithTypeChecks(check bool) Option {
	return optionFunc(func(c *config) { c.NoTypeChecks = !check })
}

// WithMergeUnknown(true) merges objects and lists that meet under a field
// the schema does not declare as plain JSON: objects key by key, lists
// replaced whole. By default such a change is an ErrUnknownField error,
// as in Kubernetes ("unable to find api field"), since a wrong or partial
// schema would otherwise replace lists it should merge by key. Adding or
// removing an undeclared field whole, and fields of a struct whose schema
// preserves unknown fields (reflectschema.Type.PreserveUnknown), never
// fail.
func WithMergeUnknown(merge bool) Option {
	return optionFunc(func(c *config) { c.MergeUnknown = merge })
}

// WithRepeatedReplaceFields(true) makes the differ write a field whose
// patchStrategy is replace whenever both documents hold it as an object,
// changed or not, as Kubernetes' differ does (policy/v1
// PodDisruptionBudget's spec.selector; lists are written when changed).
// The result of applying the patch is the same; the default writes it
// only when it changed. The kube module sets it (docs/compat.md).
func WithRepeatedReplaceFields(repeat bool) Option {
	return optionFunc(func(c *config) { c.RepeatReplaced = repeat })
}

// WithKubernetesDirectiveScope(true) makes the applier take $retainKeys on
// any object and $setElementOrder on any list of scalars, as Kubernetes
// does, instead of only where the schema gives the field that strategy:
// $retainKeys clears the fields it does not list; $setElementOrder on a
// list that does not merge reorders the live list, or checks the patch's
// list against the order and takes it as it is. $deleteFromPrimitiveList
// stays limited to merge lists of scalars, and $setElementOrder on a list
// of objects that does not merge is still refused (Kubernetes panics
// there). The kube module sets it (docs/compat.md).
func WithKubernetesDirectiveScope(on bool) Option {
	return optionFunc(func(c *config) { c.KubeDirectiveScope = on })
}
