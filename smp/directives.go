package smp

import "strings"

// The directive keys of the patch format (docs/format.md).
const (
	keyPatch             = "$patch"
	keyRetainKeys        = "$retainKeys"
	keyPatchMergeKey     = "$patchMergeKey"
	prefixSetOrder       = "$setElementOrder/"
	prefixDeleteFromList = "$deleteFromPrimitiveList/"

	patchReplace = "replace"
	patchDelete  = "delete"
	patchMerge   = "merge"
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
	// DirectivesAll adds $patchMergeKey (seed 000): this project's format.
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

// directiveKind classifies an object key.
type directiveKind uint8

const (
	notDirective directiveKind = iota
	dirPatch
	dirRetainKeys
	dirPatchMergeKey
	dirSetOrder
	dirDeleteFromList
	dirUnknown
)

// classify says which directive key k is, and for the parallel lists the
// name of the list it applies to.
func classify(k string) (directiveKind, string) {
	if len(k) == 0 || k[0] != '$' {
		return notDirective, ""
	}
	switch {
	case k == keyPatch:
		return dirPatch, ""
	case k == keyRetainKeys:
		return dirRetainKeys, ""
	case k == keyPatchMergeKey:
		return dirPatchMergeKey, ""
	case strings.HasPrefix(k, prefixSetOrder):
		return dirSetOrder, k[len(prefixSetOrder):]
	case strings.HasPrefix(k, prefixDeleteFromList):
		return dirDeleteFromList, k[len(prefixDeleteFromList):]
	}
	return dirUnknown, ""
}

// understood reports whether an applier of set d acts on directive kind k.
func (d DirectiveSet) understood(k directiveKind) bool {
	switch k {
	case dirSetOrder:
		return d >= DirectivesSetElementOrder
	case dirRetainKeys:
		return d >= DirectivesRetainKeys
	case dirPatchMergeKey:
		return d >= DirectivesAll
	}
	return true
}

// patchDirective reads the $patch value raw of the object at (a list
// element when inList): delete or replace, which are the only ones an
// object takes.
func patchDirective(raw any, inList bool, at *pathNode) (string, error) {
	d, _ := raw.(string)
	switch d {
	case patchDelete, patchReplace:
		return d, nil
	case patchMerge:
		return "", newError(ErrInvalidDirective, at.Field(keyPatch), "%s: merge is a strategy of struct tags, not a patch directive", keyPatch)
	}
	where := ""
	if inList {
		where = " in a list"
	}
	return "", newError(ErrInvalidDirective, at.Field(keyPatch), "unknown %s value %s%s (want replace or delete)", keyPatch, describe(raw), where)
}
