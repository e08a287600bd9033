package format

import (
	"strings"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// The directive keys of the patch format (docs/format.md).
const (
	KeyPatch             = "$patch"
	KeyRetainKeys        = "$retainKeys"
	KeyPatchMergeKey     = "$patchMergeKey"
	PrefixSetOrder       = "$setElementOrder/"
	PrefixDeleteFromList = "$deleteFromPrimitiveList/"

	PatchReplace = "replace"
	PatchDelete  = "delete"
	PatchMerge   = "merge"
)

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
	// DirectivesRetainKeys adds $retainKeys: what Kubernetes ships today.
	DirectivesRetainKeys
	// DirectivesAll adds $patchMergeKey (the multi-field merge key proposal): this project's format.
	DirectivesAll
)

// String names the set.
func (d DirectiveSet) String() string {
	switch d {
	case DirectivesLegacy:
		return "legacy"
	case DirectivesSetElementOrder:
		return "setElementOrder"
	case DirectivesRetainKeys:
		return "retainKeys"
	case DirectivesAll:
		return "all"
	}
	return "unknown"
}

// ParseDirectiveSet reads a set's name as String prints it.
func ParseDirectiveSet(s string) (DirectiveSet, bool) {
	for d := DirectivesLegacy; d <= DirectivesAll; d++ {
		if d.String() == s {
			return d, true
		}
	}
	return 0, false
}

// DirectiveKind classifies an object key.
type DirectiveKind uint8

const (
	NotDirective DirectiveKind = iota
	DirPatch
	DirRetainKeys
	DirPatchMergeKey
	DirSetOrder
	DirDeleteFromList
	DirUnknown
)

// Classify says which directive key k is, and for the parallel lists the
// name of the list it applies to.
func Classify(k string) (DirectiveKind, string) {
	if len(k) == 0 || k[0] != '$' {
		return NotDirective, ""
	}
	switch {
	case k == KeyPatch:
		return DirPatch, ""
	case k == KeyRetainKeys:
		return DirRetainKeys, ""
	case k == KeyPatchMergeKey:
		return DirPatchMergeKey, ""
	case strings.HasPrefix(k, PrefixSetOrder):
		return DirSetOrder, k[len(PrefixSetOrder):]
	case strings.HasPrefix(k, PrefixDeleteFromList):
		return DirDeleteFromList, k[len(PrefixDeleteFromList):]
	}
	return DirUnknown, ""
}

// Understood reports whether an applier of set d acts on directive kind k.
func (d DirectiveSet) Understood(k DirectiveKind) bool {
	switch k {
	case DirSetOrder:
		return d >= DirectivesSetElementOrder
	case DirRetainKeys:
		return d >= DirectivesRetainKeys
	case DirPatchMergeKey:
		return d >= DirectivesAll
	}
	return true
}

// PatchDirective reads the $patch value raw of the object at (a list
// element when inList): delete or replace, which are the only ones an
// object takes.
func PatchDirective(raw any, inList bool, at *errpath.Node) (string, error) {
	d, _ := raw.(string)
	switch d {
	case PatchDelete, PatchReplace:
		return d, nil
	case PatchMerge:
		return "", errpath.New(errpath.ErrInvalidDirective, at.Field(KeyPatch), "%s: merge is a strategy of struct tags, not a patch directive", KeyPatch)
	}
	where := ""
	if inList {
		where = " in a list"
	}
	return "", errpath.New(errpath.ErrInvalidDirective, at.Field(KeyPatch), "unknown %s value %s%s (want replace or delete)", KeyPatch, jsonval.Describe(raw), where)
}
