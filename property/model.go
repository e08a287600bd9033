package property

import (
	"encoding/json"
	"reflect"
	"sort"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// threeWayModel says, leaf by leaf, what applying ThreeWay(o, m, c) to c
// must give, and which changes current made that the patch overwrites
// (the conflicts). A leaf is a scalar, a list that is replaced whole, an
// atomic or replace-strategy object, or one value of a merge list of
// scalars; its path addresses merge-list elements by their whole key.
//
// The rules (Kubernetes' three-way patch, docs/compat.md):
//
//  1. A leaf modified declares (non-null) is modified's: modified is the
//     desired state, so a field current changed and modified did not is
//     set back, and the patch conflicts with current's change.
//  2. A leaf original had and modified does not is removed.
//  3. A leaf neither original nor modified has is current's: another
//     writer's field is kept.
//
// With these exceptions, each the engine's documented behaviour:
//
//   - Whole deletions: what modified drops is deleted whole, with what
//     current added under it, when it is a merge-list element, a list, or
//     an object the narrowing of kubernetes#48164 does not cover (a
//     struct, a union, an atomic or replace-strategy object). A map or
//     untyped object current added entries to, at any depth, is narrowed:
//     only the entries original had are deleted (rule 2 for each leaf),
//     the others are kept. A field
//     modified sets to null (a nil pointer, map or slice without
//     omitempty) where original had none is deleted from current, as in
//     Kubernetes; where original had one, it is modified dropping it.
//   - Unions: in a retainKeys object modified sets, $retainKeys clears
//     every member modified does not set, including one current added, and
//     that is no conflict (Kubernetes does not compare directives).
//   - Server-filled key fields: an element of modified lacking recommended
//     key fields is current's element that agrees with it, when the
//     original never held that element (fillServerKeys); so is an element
//     of the original that modified drops and current does not hold
//     (fillDeleted, fillDropped): its filled-in key fields are no change.
//   - Lists written whole: a merge list where an element of current or
//     modified lacks its default key, or, in skew-safe mode, whose default
//     key two elements share (in current, in modified, or in the result:
//     survivorShares), is replaced whole by modified's list.
//   - nil ≡ empty: an absent value and an empty collection are alike (an
//     empty object and an empty list are not).
//   - Untyped JSON, where a path may hold an object in one document and
//     another value in the next: a value modified sets replaces current's
//     object there, with all below it.
//   - Order: list order is not a leaf; the Order property checks it.
//   - Conflicts compare as Kubernetes' MergingMapsHaveConflicts does:
//     values of merge lists of scalars never conflict; lists replaced whole
//     conflict when their lengths differ, as sets for scalars, and element
//     by element on the fields both sides have for objects; and a whole
//     container one side deletes conflicts with any change the other makes
//     inside it (object granularity). The model requires a conflict for
//     every leaf current changed that the patch overwrites, and accepts a
//     reported conflict only at such a leaf or such a container.
type threeWayModel struct {
	root    node
	o, m, c index
	// whole maps the paths the patch deletes whole to the reason.
	whole map[string]string
	// unions maps each non-empty union in modified to its members.
	unions map[string]map[string]bool
	// nulls holds the paths where current changed a field from absent to
	// null or back, as Kubernetes' conflict check sees it (nullChanges).
	nulls map[string]bool
	// replaced holds the merge lists the delta half writes whole: in
	// skew-safe mode those whose default key is shared, and those with an
	// element lacking its default key.
	replaced map[string]bool
}

func newThreeWayModel(o, m, c any, root node, skewSafe bool) *threeWayModel {
	// Server-filled key fields (docs/compat.md): modified's elements, and
	// original's of the same key, as the delta half pairs them with
	// current's.
	o, m = fillServerKeys(o, m, c, root, skewSafe)
	md := &threeWayModel{root: root, o: indexDoc(o, root), m: indexDoc(m, root), c: indexDoc(c, root),
		whole: map[string]string{}, unions: map[string]map[string]bool{}, replaced: map[string]bool{}, nulls: map[string]bool{}}
	nullChanges(o, c, root, "", md.nulls)
	md.deletions(o, m, c, root, "")
	md.findUnions(m, root, "")
	for p, e := range md.c {
		me, ok := md.m[p]
		if !ok || e.kind != entKeyed || len(e.v.([]any)) == 0 {
			continue
		}
		cl, ml, def := e.v.([]any), me.v.([]any), e.n.defaultKey()
		if !keyable(cl, def) || !keyable(ml, def) ||
			skewSafe && e.n.hasRecommended() && (repeatsKey(cl, def) || repeatsKey(ml, def) || survivorShares(md.o[p].v, cl, ml, e.n)) {
			md.replaced[p] = true
		}
	}
	return md
}

// othersAdded reports whether the element of list a on the path whose
// chain (the path, then its ancestors) is given is one another writer
// added: current holds it, with every field of its default key, and
// neither the original's list nor modified's holds an element of that
// default key. A list written whole keeps it.
func (md *threeWayModel) othersAdded(a string, chain []string) bool {
	for i := 1; i < len(chain); i++ {
		if chain[i] != a {
			continue
		}
		ce, ok := md.c[chain[i-1]]
		em, isObj := ce.v.(map[string]any)
		if !ok || ce.field != "" || !isObj {
			return false
		}
		def := md.c[a].n.defaultKey()
		if !keyable([]any{em}, def) {
			return false
		}
		id := elementID(def, em)
		for _, ix := range []index{md.o, md.m} {
			l, _ := ix[a].v.([]any)
			for _, e := range l {
				if elementID(def, e) == id {
					return false
				}
			}
		}
		return true
	}
	return false
}

// addedUnder reports whether current holds, below the object at path, a
// value the original lacks (or holds as null), reached from path through
// objects the narrowing descends into: narrowable, and objects in both
// documents. It reads the documents' indexes, not their trees.
func (md *threeWayModel) addedUnder(path string) bool {
	for q, e := range md.c {
		if q == path || e.v == nil || !md.narrowsTo(q, path) {
			continue
		}
		if oe, ok := md.o[q]; !ok || oe.v == nil {
			return true
		}
	}
	return false
}

// narrowsTo reports whether current's position q lies below path by
// field steps only, every object between them (path included, q not)
// narrowable and an object in both documents.
func (md *threeWayModel) narrowsTo(q, path string) bool {
	for {
		e, ok := md.c[q]
		if !ok || e.field == "" {
			return false // a list element, or the root
		}
		a := e.parent
		ae, ok := md.c[a]
		if !ok || ae.kind != entObject || !ae.n.narrowable() {
			return false
		}
		if oe, ok := md.o[a]; !ok || oe.kind != entObject {
			return false
		}
		if a == path {
			return true
		}
		q = a
	}
}

func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// elementsByPath maps the elements of a merge list of objects to their
// paths.
func elementsByPath(l any, path string, keys []string) map[string]any {
	out := map[string]any{}
	list, _ := l.([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			p := path + keyStep(keys, m)
			if _, dup := out[p]; !dup {
				out[p] = e
			}
		}
	}
	return out
}

// findUnions records the unions modified sets and their members.
func (md *threeWayModel) findUnions(m any, n node, path string) {
	switch mv := m.(type) {
	case map[string]any:
		if n.wholeObject() {
			return
		}
		if n.isUnion() {
			members := map[string]bool{}
			for k, v := range mv {
				if v != nil {
					members[k] = true
				}
			}
			if len(members) > 0 {
				md.unions[path] = members
			}
		}
		for k, e := range mv {
			md.findUnions(e, n.child(k), joinField(path, k))
		}
	case []any:
		if n.keyedList() {
			for p, e := range elementsByPath(mv, path, n.fullKey()) {
				md.findUnions(e, n.elem(), p)
			}
		}
	}
}

// expectation is what the result must hold at a leaf.
type expectation struct {
	v       any
	present bool
	rule    string
	// unionCleared marks a value of current's that only $retainKeys
	// clears: no conflict.
	unionCleared bool
}

// entryOf returns the entry at path in the first index holding it.
func entryOf(path string, ixs ...index) (entry, index, bool) {
	for _, ix := range ixs {
		if e, ok := ix[path]; ok {
			return e, ix, true
		}
	}
	return entry{}, nil, false
}

// want returns the expectation at a leaf path; r is the result's index,
// for leaves only the result has.
func (md *threeWayModel) want(path string, r index) expectation {
	_, ix, _ := entryOf(path, md.m, md.o, md.c, r)
	chain := append([]string{path}, ix.ancestors(path)...)
	for _, a := range chain {
		if why, ok := md.whole[a]; ok {
			return expectation{rule: "deleted whole (" + why + ")"}
		}
		if md.replaced[a] {
			if md.othersAdded(a, chain) {
				cv := md.c[path].v
				return expectation{v: cv, present: cv != nil, rule: "the patch replaces " + a + " and keeps the element another writer added"}
			}
			mv := md.m[path].v
			return expectation{v: mv, present: mv != nil, rule: "the patch replaces " + a + " with modified's list"}
		}
		if e, ok := md.m[a]; ok && a != path && e.kind.leaf() {
			// Untyped JSON: modified sets a value where the others hold an
			// object, which it replaces.
			return expectation{rule: "modified sets " + a + " to a value that is no object"}
		}
	}
	var exp expectation
	switch {
	case md.m[path].v != nil:
		exp = expectation{v: md.m[path].v, present: true, rule: "modified sets it"}
	case !isEmpty(md.o[path].v):
		exp = expectation{rule: "modified removes it"}
	default:
		cv := md.c[path].v
		exp = expectation{v: cv, present: cv != nil, rule: "current's, which neither original nor modified has"}
	}
	// The union rule: the member of the nearest union above the leaf.
	below := path
	for _, a := range chain[1:] {
		if members, ok := md.unions[a]; ok {
			field := ix[below].field
			if !members[field] {
				kept := exp.present && exp.rule != "modified sets it"
				return expectation{rule: "cleared by $retainKeys: modified's union " + a + " does not set " + field, unionCleared: kept}
			}
			break
		}
		below = a
	}
	return exp
}

// mismatch is one leaf where a result differs from what was expected.
type mismatch struct {
	path      string
	got, want any
	gotOK     bool
	wantOK    bool
	rule      string
}

// check compares a result with the model.
func (md *threeWayModel) check(r index) []mismatch {
	var out []mismatch
	for _, p := range allLeaves(md.o, md.m, md.c, r) {
		if me, ok := md.m[p]; ok && !me.kind.leaf() {
			if re, ok := r[p]; ok && !re.kind.leaf() {
				// A leaf of original or current only, where modified and
				// the result hold objects: their members are leaves of
				// their own, each with its rule.
				continue
			}
		}
		exp := md.want(p, r)
		got := r.get(p)
		if exp.present && same(got, exp.v) || !exp.present && (isEmpty(got) || typedZero(r, p, got)) {
			continue
		}
		out = append(out, mismatch{path: p, got: got, gotOK: got != nil, want: exp.v, wantOK: exp.present, rule: exp.rule})
	}
	return out
}

// typedZero reports whether got, at path p of the result r, is the zero
// value of a struct field its type always encodes (no omitzero, and no
// omitempty but on a struct, which encoding/json writes regardless): what
// a typed result holds where a patch deleted the field.
func typedZero(r index, p string, got any) bool {
	e, ok := r[p]
	if !ok || e.field == "" {
		return false
	}
	parent := r[e.parent].n.t
	if parent == nil || parent.Kind != reflectschema.Struct {
		return false
	}
	f := parent.Field(e.field)
	if f == nil || f.GoType == nil || f.OmitEmpty && f.GoType.Kind() != reflect.Struct || f.OmitZero || f.GoType.Kind() == reflect.Pointer {
		return false
	}
	zero, err := json.Marshal(reflect.Zero(f.GoType).Interface())
	if err != nil {
		return false
	}
	z, err := decode(zero)
	return err == nil && same(got, z)
}

// allLeaves returns the leaf paths of all the indexes, sorted.
func allLeaves(ixs ...index) []string {
	seen := map[string]bool{}
	var out []string
	for _, ix := range ixs {
		for p, e := range ix {
			if e.kind.leaf() && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}
