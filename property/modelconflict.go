package property

import (
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// Which changes the model expects to conflict, as Kubernetes' conflict
// check sees them.

// overwritten returns the leaves current changed since original that the
// patch sets to something else: where a conflict must be reported.
func (md *threeWayModel) overwritten() []string {
	var out []string
	for _, p := range allLeaves(md.o, md.m, md.c) {
		if me, ok := md.m[p]; ok && !me.kind.leaf() {
			if ce, ok := md.c[p]; ok && !ce.kind.leaf() {
				// A leaf of original only: the patch's object and
				// current's are compared member by member, as
				// Kubernetes compares two maps.
				continue
			}
		}
		exp := md.want(p, nil)
		if exp.unionCleared {
			continue
		}
		ov, cv := md.o.get(p), md.c.get(p)
		if same(ov, cv) || isEmpty(ov) && isEmpty(cv) {
			continue // current did not change it (an empty collection reshaped is none)
		}
		if exp.present && same(cv, exp.v) || !exp.present && isEmpty(cv) {
			continue // the patch leaves current's value
		}
		e, _, _ := entryOf(p, md.m, md.o, md.c)
		if e.kind == entMember {
			continue // sets never conflict
		}
		if (e.kind == entList || e.kind == entWhole) && exp.present && !k8sValuesConflict(exp.v, cv, e.n) {
			continue
		}
		out = append(out, p)
	}
	// A field current wrote null where original had none (or the
	// reverse) and that modified sets, if only to an empty collection:
	// the patch sets it.
	for _, p := range sortedSet(md.nulls) {
		if _, set := md.m[p]; set && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// justified says why a conflict reported at path is right, or "".
func (md *threeWayModel) justified(path string, overwritten []string) string {
	for _, p := range overwritten {
		if p == path {
			return "current changed " + p + ", which the patch overwrites"
		}
		_, ix, _ := entryOf(p, md.m, md.o, md.c)
		if slices.Contains(ix.ancestors(p), path) {
			return "current changed " + p + ", which the patch overwrites"
		}
		if e, _, _ := entryOf(p, md.m, md.o, md.c); e.kind == entList && strings.HasPrefix(path, p+"[") {
			return "current changed the list " + p + ", which the patch replaces"
		}
	}
	ov, cv, mv := md.o.get(path), md.c.get(path), md.m.get(path)
	if md.replaced[path] && !reflect.DeepEqual(dropNulls(ov), dropNulls(cv)) {
		return "the patch replaces " + path + " whole and current changed it"
	}
	if why, ok := md.whole[path]; ok && cv != nil && !reflect.DeepEqual(dropNulls(ov), dropNulls(cv)) {
		return "the patch deletes " + path + " whole (" + why + ") and current changed it"
	}
	if cv == nil && !isEmpty(ov) && mv != nil {
		return "current deleted " + path + ", which the patch sets"
	}
	return ""
}

// k8sListsConflict compares two lists as Kubernetes' conflict check does.
func k8sListsConflict(l, r []any, n node) bool {
	if n.isMergeList() {
		if !n.isObjectList() {
			return false
		}
		keys := n.fullKey()
		right := map[string]any{}
		for _, e := range r {
			right[elementID(keys, e)] = e
		}
		en := node{t: n.elem().t}
		for _, e := range l {
			if re, ok := right[elementID(keys, e)]; ok && k8sValuesConflict(e, re, en) {
				return true
			}
		}
		return false
	}
	if len(l) != len(r) {
		return true
	}
	if len(l) > 0 {
		if _, obj := l[0].(map[string]any); !obj {
			li, ri := scalarIDs(l), scalarIDs(r)
			return !slices.Equal(li, ri)
		}
	}
	en := node{t: n.elem().t}
	for i := range l {
		if k8sValuesConflict(l[i], r[i], en) {
			return true
		}
	}
	return false
}

func scalarIDs(l []any) []string {
	ids := make([]string, len(l))
	for i, v := range l {
		ids[i] = scalarID(v)
	}
	sort.Strings(ids)
	return slices.Compact(ids)
}

func k8sValuesConflict(l, r any, n node) bool {
	switch lv := l.(type) {
	case map[string]any:
		rv, ok := r.(map[string]any)
		if !ok {
			return true
		}
		lp, lok := lv["$patch"]
		rp, rok := rv["$patch"]
		if (lok || rok) && (lok != rok || !reflect.DeepEqual(lp, rp)) {
			return true
		}
		if n.meta.Strategy == reflectschema.Replace {
			return false
		}
		for k, e := range lv {
			if re, ok := rv[k]; ok && !strings.HasPrefix(k, "$") && k8sValuesConflict(e, re, n.child(k)) {
				return true
			}
		}
		return false
	case []any:
		rv, ok := r.([]any)
		if !ok {
			return true
		}
		return k8sListsConflict(lv, rv, n)
	}
	return !reflect.DeepEqual(l, r)
}
