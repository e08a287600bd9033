package property

import (
	"github.com/typedpatch/typedpatch/reflectschema"
)

// node is what the schema says of one position in a document: the type
// found there (nil for untyped JSON or a field the type does not declare)
// and the patch metadata of the field holding it. It follows the engine's
// reading of the schema (docs/format.md).
type node struct {
	t    *reflectschema.Type
	meta reflectschema.PatchMeta
}

// The rules of navigation are reflectschema.Slot's, the engine's own;
// node only converts.

func (n node) pos() reflectschema.Slot { return reflectschema.Slot{Type: n.t, Patch: n.meta} }

func nodeAt(p reflectschema.Slot) node { return node{t: p.Type, meta: p.Patch} }

func (n node) kind() reflectschema.Kind { return n.pos().Kind() }

// child returns the node of a struct field or a map value.
func (n node) child(name string) node { return nodeAt(n.pos().Child(name)) }

// elem returns the node of a list element. Elements of a merge list with
// retainKeys are unions themselves (the retainKeys proposal's Volume).
func (n node) elem() node { return nodeAt(n.pos().Elem()) }

func (n node) isMergeList() bool { return n.pos().IsMergeList() }

// isObjectList reports whether a merge list holds objects, merged by key.
func (n node) isObjectList() bool { return n.pos().IsObjectList() }

// keyedList reports whether the node is a merge list of objects.
func (n node) keyedList() bool { return n.isMergeList() && n.isObjectList() }

// fullKey is every key the differ names: the recommended keys when the
// field has them, else the merge key.
func (n node) fullKey() []string {
	if len(n.meta.RecommendedMergeKey) > 0 {
		return n.meta.RecommendedMergeKey
	}
	return n.meta.MergeKey
}

// defaultKey is the patchMergeKey.
func (n node) defaultKey() []string { return n.meta.MergeKey }

// hasRecommended reports whether $patchMergeKey can name more keys than
// the default one.
func (n node) hasRecommended() bool {
	return len(n.meta.RecommendedMergeKey) > len(n.meta.MergeKey)
}

// isUnion reports whether an object is a union whose unlisted members
// $retainKeys clears.
func (n node) isUnion() bool {
	switch n.kind() {
	case reflectschema.Struct, reflectschema.Map, reflectschema.Untyped:
		return n.meta.RetainKeys
	}
	return false
}

// wholeObject reports whether an object is one value, replaced whole.
func (n node) wholeObject() bool {
	return n.kind() == reflectschema.Atomic || n.meta.Strategy == reflectschema.Replace
}

// narrowable reports whether the three-way narrowing of kubernetes#48164
// applies to an object (docs/compat.md): maps and untyped objects, whose
// keys are free, that are not atomic, replaced whole, or unions.
func (n node) narrowable() bool {
	switch n.kind() {
	case reflectschema.Map, reflectschema.Untyped:
		return n.meta.Strategy != reflectschema.Replace && !n.meta.RetainKeys
	}
	return false
}

// hasRecommendedKeys reports whether any merge list reachable from t has
// recommended keys.
func hasRecommendedKeys(t *reflectschema.Type) bool {
	seen := map[*reflectschema.Type]bool{}
	var walk func(t *reflectschema.Type) bool
	walk = func(t *reflectschema.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		for _, f := range t.Fields {
			if len(f.Patch.RecommendedMergeKey) > len(f.Patch.MergeKey) || walk(f.Type) {
				return true
			}
		}
		return walk(t.Elem)
	}
	return walk(t)
}
