package engine

import "github.com/typedpatch/typedpatch/smp/internal/format"

// withOthersAdded is the list the delta half of a three-way patch writes
// whole: modified's list ml, and the elements another writer added to
// current's list cl, whose default key neither the original nor modified
// holds, each after the element it followed in current. Without them,
// replacing the list would drop what the configuration never named. (An
// element sharing a default key with one of the configuration's may be
// that element with key fields the server filled in: it is not kept.)
func (x *ObjList) withOthersAdded(ml, cl []any) []any {
	full := x.def
	held := make(map[string]int, len(ml)) // identity → modified's position
	for i := len(ml) - 1; i >= 0; i-- {
		held[x.m.KeyID(i, full)] = i
	}
	inOriginal := map[string]bool{}
	if x.b != nil {
		for p := range x.b.Count() {
			inOriginal[x.b.KeyID(p, full)] = true
		}
	}
	var after map[int][]any // modified's position (-1: the front) → others after it
	anchor := -1
	for p := range x.o.Count() {
		id := x.o.KeyID(p, full)
		if i, ok := held[id]; ok {
			anchor = i
			continue
		}
		if inOriginal[id] || !keyedBy(x.o, p, full) {
			continue
		}
		if after == nil {
			after = map[int][]any{}
		}
		after[anchor] = append(after[anchor], cl[p])
	}
	if after == nil {
		return ml
	}
	out := make([]any, 0, len(ml)+len(cl))
	out = append(out, after[-1]...)
	for i, e := range ml {
		out = append(out, e)
		out = append(out, after[i]...)
	}
	return out
}

// keyedBy reports whether element p of s is an object holding every field
// of ks.
func keyedBy(s DiffSide, p int, ks format.KeySet) bool {
	if !s.IsObject(p) {
		return false
	}
	for _, f := range ks.Fields {
		if !s.HasKeyField(p, f) {
			return false
		}
	}
	return true
}
