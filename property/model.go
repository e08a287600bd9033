package property

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"

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
//     an object the narrowing of kubernetes#48164 does not cover (a union,
//     an atomic or replace-strategy object). An object current added
//     entries to, at any depth, is narrowed: only the entries original had
//     are deleted (rule 2 for each leaf), the others are kept. A field
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
//   - Conflicts compare as Kubernetes' mergingMapsHaveConflicts does:
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
		whole: map[string]string{}, unions: map[string]map[string]bool{}, replaced: map[string]bool{}}
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

// survivorShares reports whether current's list cl keeps an element
// (one neither the original's list ov nor modified's ml holds) whose
// default key an element of modified new to current has: the result
// would hold both, and skew-safe mode writes such a list whole.
func survivorShares(ov any, cl, ml []any, n node) bool {
	full, def := n.fullKey(), n.defaultKey()
	ol, _ := ov.([]any)
	inO, inC, inM := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, e := range ol {
		inO[elementID(full, e)] = true
	}
	for _, e := range cl {
		inC[elementID(full, e)] = true
	}
	fresh := map[string]bool{}
	for _, e := range ml {
		inM[elementID(full, e)] = true
		if !inC[elementID(full, e)] {
			fresh[elementID(def, e)] = true
		}
	}
	for _, e := range cl {
		if id := elementID(full, e); !inO[id] && !inM[id] && fresh[elementID(def, e)] {
			return true
		}
	}
	return false
}

// keyable reports whether every element of a merge list carries its
// default key; the differ replaces a list where one does not.
func keyable(l []any, def []string) bool {
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		for _, k := range def {
			if _, ok := m[k]; !ok {
				return false
			}
		}
	}
	return true
}

// fillServerKeys returns original and modified as the delta half of a
// three-way patch pairs modified's elements with current's: an element of
// a merge list with recommended keys that lacks some key fields, and has
// no element of current with its whole key, is the one element of current
// that has its default key and agrees on every key field it has, provided
// the original never held that element and no other element of modified
// is paired with it. The element then takes current's key fields, and so
// does original's element with modified's key: one element in all three.
// Neither argument is changed.
func fillServerKeys(o, m, c any, n node, skewSafe bool) (any, any) {
	switch mv := m.(type) {
	case map[string]any:
		om, _ := o.(map[string]any)
		cm, _ := c.(map[string]any)
		if n.wholeObject() || cm == nil {
			return o, m
		}
		mout := make(map[string]any, len(mv))
		var oout map[string]any
		if om != nil {
			oout = make(map[string]any, len(om))
			for k, e := range om {
				oout[k] = e
			}
		}
		for k, e := range mv {
			ok, mk := fillServerKeys(om[k], e, cm[k], n.child(k), skewSafe)
			mout[k] = mk
			if _, has := om[k]; has {
				oout[k] = ok
			}
		}
		for k, e := range om {
			if mv[k] == nil && oout != nil {
				oout[k] = fillDropped(e, cm[k], n.child(k))
			}
		}
		if oout == nil {
			return o, mout
		}
		return oout, mout
	case []any:
		cl, ok := c.([]any)
		if !ok || !n.keyedList() {
			return o, m
		}
		full, def := n.fullKey(), n.defaultKey()
		ol, _ := o.([]any)
		oByID := map[string]int{}
		for i, e := range ol {
			oByID[elementID(full, e)] = i
		}
		cByID := map[string]int{}
		for i, e := range cl {
			cByID[elementID(full, e)] = i
		}
		pairs := make([]int, len(mv))
		taken := make([]bool, len(cl))
		for i, e := range mv {
			p, ok := cByID[elementID(full, e)]
			if !ok {
				pairs[i] = -1
				continue
			}
			pairs[i] = p
			taken[p] = true
		}
		// Skew-safe mode writes a list whose default key is shared whole,
		// unpaired.
		shared := skewSafe && n.hasRecommended() && (repeatsKey(cl, def) || repeatsKey(mv, def))
		if len(n.meta.RecommendedMergeKey) > 0 && !shared {
			claims := map[int]int{}
			for i, e := range mv {
				em, ok := e.(map[string]any)
				if pairs[i] >= 0 || !ok {
					continue
				}
				cand, count := -1, 0
				for p, ce := range cl {
					cem, ok := ce.(map[string]any)
					if !ok || taken[p] || elementID(def, ce) != elementID(def, e) {
						continue
					}
					if _, had := oByID[elementID(full, ce)]; had || !keysAgree(em, cem, full) {
						continue
					}
					cand, count = p, count+1
				}
				if count != 1 {
					continue
				}
				if _, dup := claims[cand]; dup {
					claims[cand] = -1
				} else {
					claims[cand] = i
				}
			}
			for p, i := range claims {
				if i >= 0 {
					pairs[i] = p
				}
			}
		}
		mout := make([]any, len(mv))
		oout := append([]any(nil), ol...)
		if len(n.meta.RecommendedMergeKey) > 0 {
			// Even where skew-safe mode writes the list whole: the
			// conflict check pairs these all the same.
			fillDeleted(oout, mv, cl, taken, oByID, cByID, n)
		}
		for i, e := range mv {
			em, ok := e.(map[string]any)
			oi, inO := oByID[elementID(full, e)]
			if !ok || pairs[i] < 0 {
				mout[i] = e
				continue
			}
			ce := cl[pairs[i]].(map[string]any)
			var oe any
			if inO {
				oe = withKeysOf(ol[oi], ce, full)
			}
			oe, mout[i] = fillServerKeys(oe, withKeysOf(em, ce, full), ce, n.elem(), skewSafe)
			if inO {
				oout[oi] = oe
			}
		}
		if o == nil {
			return o, mout
		}
		return oout, mout
	}
	return o, m
}

// withKeysOf returns a copy of the element e with the key fields of from.
func withKeysOf(e any, from map[string]any, keys []string) any {
	em, ok := e.(map[string]any)
	if !ok {
		return e
	}
	out := make(map[string]any, len(em)+len(keys))
	for k, v := range em {
		out[k] = v
	}
	for _, f := range keys {
		if v, ok := from[f]; ok {
			out[f] = v
		}
	}
	return out
}

// keysAgree reports whether every key field m has, o has with the same
// value.
func keysAgree(m, o map[string]any, fields []string) bool {
	for _, f := range fields {
		mv, inM := m[f]
		if !inM {
			continue
		}
		ov, inO := o[f]
		if !inO || scalarID(mv) != scalarID(ov) {
			return false
		}
	}
	return true
}

// deletions finds the whole deletions under m (present at path).
func (md *threeWayModel) deletions(o, m, c any, n node, path string) {
	switch mv := m.(type) {
	case map[string]any:
		if n.wholeObject() {
			return
		}
		om, _ := o.(map[string]any)
		cm, _ := c.(map[string]any)
		for _, k := range unionKeys(om, mv) {
			ov, cv := om[k], cm[k]
			mk, inM := mv[k]
			p := joinField(path, k)
			if mk == nil {
				switch {
				case !isEmpty(ov) && n.isUnion() && setsMember(mv):
					// $retainKeys clears it; the patch deletes it whole.
					md.whole[p] = "modified drops a union member"
				case ov != nil:
					md.deletionPoint(ov, cv, n.child(k), p, "modified drops it")
				case inM && cv != nil:
					md.whole[p] = "modified sets it to null"
				}
				continue
			}
			md.deletions(ov, mk, cv, n.child(k), p)
		}
	case []any:
		if !n.keyedList() {
			return
		}
		keys := n.fullKey()
		oe, me, ce := elementsByPath(o, path, keys), elementsByPath(mv, path, keys), elementsByPath(c, path, keys)
		for p := range oe {
			if _, ok := me[p]; !ok {
				md.whole[p] = "modified removes the element"
			}
		}
		for p, e := range me {
			md.deletions(oe[p], e, ce[p], n.elem(), p)
		}
	}
}

// fillDropped is fillServerKeys' fillDeleted for a value of the original
// that modified drops whole: at any depth, each element of a merge list
// with recommended keys takes the key fields of the element of current it
// became. It returns o, or a changed copy.
func fillDropped(o, c any, n node) any {
	switch ov := o.(type) {
	case map[string]any:
		cm, ok := c.(map[string]any)
		if !ok || n.wholeObject() {
			return o
		}
		out := make(map[string]any, len(ov))
		for k, e := range ov {
			out[k] = fillDropped(e, cm[k], n.child(k))
		}
		return out
	case []any:
		cl, ok := c.([]any)
		if !ok || !n.keyedList() || len(n.meta.RecommendedMergeKey) == 0 {
			return o
		}
		full := n.fullKey()
		oByID, cByID := map[string]int{}, map[string]int{}
		for i, e := range ov {
			oByID[elementID(full, e)] = i
		}
		for i, e := range cl {
			cByID[elementID(full, e)] = i
		}
		out := append([]any(nil), ov...)
		fillDeleted(out, nil, cl, make([]bool, len(cl)), oByID, cByID, n)
		return out
	}
	return o
}

// setsMember reports whether a union object sets any member (not null):
// the differ then writes $retainKeys for it.
func setsMember(m map[string]any) bool {
	for _, v := range m {
		if v != nil {
			return true
		}
	}
	return false
}

// fillDeleted gives each element of the original's list ol that current
// (cl) does not hold the key fields of current's element it became when
// the server filled them in: the one element of current, held by neither
// the original nor modified (ml) and not paired with one of modified's
// (taken), with its default key that agrees on every key field it has.
// The deletions half deletes that element where modified drops it, and
// for the conflict check (which pairs them so: pairFilled) its filled-in
// key fields are no change of current's.
func fillDeleted(ol, ml, cl []any, taken []bool, oByID, cByID map[string]int, n node) {
	full, def := n.fullKey(), n.defaultKey()
	inM := map[string]bool{}
	for _, e := range ml {
		inM[elementID(full, e)] = true
	}
	for i, e := range ol {
		em, ok := e.(map[string]any)
		id := elementID(full, e)
		if _, held := cByID[id]; !ok || held {
			continue
		}
		found := -1
		for p, ce := range cl {
			cem, ok := ce.(map[string]any)
			cid := elementID(full, ce)
			if _, inO := oByID[cid]; !ok || taken[p] || inO || inM[cid] ||
				elementID(def, ce) != elementID(def, e) || !keysAgree(em, cem, full) {
				continue
			}
			if found >= 0 {
				found = -2
				break
			}
			found = p
		}
		if found >= 0 {
			ol[i] = withKeysOf(e, cl[found].(map[string]any), full)
		}
	}
}

// deletionPoint records the deletion of original's value ov at path,
// narrowed (kubernetes#48164) to original's entries where current added
// entries to the object, at any depth: only what the original had is
// deleted, and what another writer added below is kept.
func (md *threeWayModel) deletionPoint(ov, cv any, n node, path, why string) {
	if isEmpty(ov) {
		return // an empty collection turning absent is no change
	}
	om, ok1 := ov.(map[string]any)
	cm, ok2 := cv.(map[string]any)
	if ok1 && ok2 && n.narrowable() && addedBelow(cm, om, n) {
		for k, e := range om {
			md.deletionPoint(e, cm[k], n.child(k), joinField(path, k), why+", narrowed to original's entries")
		}
		return
	}
	md.whole[path] = why
}

// addedBelow reports whether current's object holds a value where the
// original's has none, directly or in objects the narrowing reaches.
func addedBelow(cm, om map[string]any, n node) bool {
	for k, cv := range cm {
		if cv == nil {
			continue
		}
		ov := om[k]
		if ov == nil {
			return true
		}
		c := n.child(k)
		cvm, ok1 := cv.(map[string]any)
		ovm, ok2 := ov.(map[string]any)
		if ok1 && ok2 && c.narrowable() && addedBelow(cvm, ovm, c) {
			return true
		}
	}
	return false
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
// value of a struct field its type always encodes (no omitempty or
// omitzero): what a typed result holds where a patch deleted the field.
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
	if f == nil || f.GoType == nil || f.OmitEmpty || f.OmitZero || f.GoType.Kind() == reflect.Pointer {
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

// overwritten returns the leaves current changed since original that the
// patch sets to something else: where a conflict must be reported.
func (md *threeWayModel) overwritten() []string {
	var out []string
	for _, p := range allLeaves(md.o, md.m, md.c) {
		exp := md.want(p, nil)
		if exp.unionCleared {
			continue
		}
		ov, cv := md.o.get(p), md.c.get(p)
		if same(ov, cv) {
			continue // current did not change it
		}
		if exp.present && same(cv, exp.v) || !exp.present && isEmpty(cv) {
			continue // the patch leaves current's value
		}
		e, _, _ := entryOf(p, md.m, md.o, md.c)
		if e.kind == entMember {
			continue // sets never conflict
		}
		if e.kind == entList && exp.present {
			if cl, ok := cv.([]any); ok {
				if !k8sListsConflict(exp.v.([]any), cl, e.n) {
					continue
				}
			}
		}
		out = append(out, p)
	}
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
