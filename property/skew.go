package property

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

func (s *suite) skewOldClient(t *rapid.T) {
	tr := s.draw(t, s.unique, true)
	d := olderSets[rapid.IntRange(0, len(olderSets)-1).Draw(t, "options: older directive set")]
	old := s.opts(smp.WithDirectives(d))
	for _, e := range s.engines {
		rep := report{property: SkewOldClient, engine: e.name(), options: fmt.Sprintf("%s=%v", directivesOption, d),
			original: tr.o.b, modified: tr.m.b, current: tr.c.b}
		p, err := e.diff(tr.o, tr.m, old...)
		if err != nil {
			rep.claim, rep.err = "the older differ's Diff(original, modified) succeeds", err
			s.fail(t, rep)
		}
		p3, err := e.threeWay(tr.o, tr.m, tr.c, append(old, smp.WithOverwrite(true))...)
		if err != nil {
			rep.claim, rep.err = "the older differ's ThreeWay(original, modified, current, overwrite) succeeds", err
			s.fail(t, rep)
		}
		for _, c := range []struct {
			what  string
			x     doc
			patch []byte
		}{{"the older Diff(original, modified) on original", tr.o, p}, {"the older Diff(original, modified) on current", tr.c, p},
			{"the older ThreeWay(original, modified, current, overwrite) on current", tr.c, p3}} {
			rep.patch = c.patch
			rn, errn := e.apply(c.x, c.patch, s.opts()...)
			ro, erro := e.apply(c.x, c.patch, old...)
			if errn != nil || erro != nil {
				if smp.KindOf(errn) != smp.KindOf(erro) || errn == nil || erro == nil {
					rep.claim = "applying " + c.what + " fails alike on the current and the older applier"
					rep.err = fmt.Errorf("current applier: %v; older applier: %v", errn, erro)
					s.fail(t, rep)
				}
				continue
			}
			if ms := s.compareDocs(rn.b, ro.b, true); len(ms) > 0 {
				rep.claim, rep.got, rep.want, rep.mismatches = "applying "+c.what+" gives the same on the current applier (got) as on the older one (want)", rn.b, ro.b, ms
				s.fail(t, rep)
			}
		}
		rep.patch = p
		r, err := e.apply(tr.o, p, s.opts()...)
		if err != nil {
			rep.claim, rep.err = "Apply(original, the older Diff(original, modified)) succeeds", err
			s.fail(t, rep)
		}
		withOrder := d >= smp.DirectivesSetElementOrder
		if ms := s.compareDocs(r.b, tr.m.b, withOrder); len(ms) > 0 {
			rep.claim, rep.got, rep.want, rep.mismatches = "Apply(original, the older Diff(original, modified)) == modified", r.b, tr.m.b, ms
			if !withOrder {
				rep.notes = append(rep.notes, orderingNoteOrder)
			}
			s.fail(t, rep)
		}
	}
}

func (s *suite) skewOldServer(t *rapid.T) {
	tr := s.draw(t, s.unique, true)
	d := olderSets[rapid.IntRange(0, len(olderSets)-1).Draw(t, "options: older directive set")]
	skewSafe := chance(t, "options: skew-safe", 2)
	older := s.opts(smp.WithDirectives(d))
	ov, mv, cv := mustDecode(tr.o.b), mustDecode(tr.m.b), mustDecode(tr.c.b)
	withOrder := d >= smp.DirectivesSetElementOrder
	for _, e := range s.engines {
		rep := report{property: SkewOldServer, engine: e.name(),
			options:  fmt.Sprintf("%s=%v (applier), %s=%v", directivesOption, d, skewSafeOption, skewSafe),
			original: tr.o.b, modified: tr.m.b, current: tr.c.b}
		if !withOrder {
			rep.notes = append(rep.notes, orderingNoteOrder)
		}

		// Two-way: the current differ's patch on an older applier.
		p, err := e.diff(tr.o, tr.m, s.opts(smp.WithSkewSafe(skewSafe))...)
		if err != nil {
			rep.claim, rep.err = "Diff(original, modified) succeeds", err
			s.fail(t, rep)
		}
		rep.patch = p
		r, err := e.apply(tr.o, p, older...)
		if err != nil {
			rep.claim, rep.err = "the older applier applies Diff(original, modified) to original", err
			s.fail(t, rep)
		}
		var excluded map[string]bool
		if !skewSafe {
			excluded = sharedDefaultKeys(s.root, ov, mv)
		}
		if ms := compareSkew(mustDecode(r.b), mv, s.root, excluded, nil, withOrder); len(ms) > 0 {
			rep.claim, rep.got, rep.want, rep.mismatches = "the older applier's Apply(original, Diff(original, modified)) == modified", r.b, tr.m.b, ms
			s.noteExclusions(&rep, excluded)
			s.fail(t, rep)
		}

		// Three-way: the older applier against the current one.
		p3, err := e.threeWay(tr.o, tr.m, tr.c, s.opts(smp.WithOverwrite(true), smp.WithSkewSafe(skewSafe))...)
		if err != nil {
			rep.claim, rep.err = "ThreeWay(original, modified, current, overwrite) succeeds", err
			s.fail(t, rep)
		}
		rep.patch = p3
		rn, err := e.apply(tr.c, p3, s.opts()...)
		if err != nil {
			rep.claim, rep.err = "Apply(current, ThreeWay(original, modified, current, overwrite)) succeeds", err
			s.fail(t, rep)
		}
		ro, err := e.apply(tr.c, p3, older...)
		if err != nil {
			rep.claim, rep.err = "the older applier applies ThreeWay(original, modified, current, overwrite) to current", err
			s.fail(t, rep)
		}
		if !skewSafe {
			// The result too: current keeps an element whose default key
			// one that modified adds shares.
			excluded = sharedDefaultKeys(s.root, ov, mv, cv, mustDecode(rn.b))
		}
		var unions map[string]map[string]bool
		if d < smp.DirectivesRetainKeys {
			md := &threeWayModel{unions: map[string]map[string]bool{}}
			md.findUnions(mv, s.root, "")
			unions = md.unions
		}
		if ms := compareSkew(mustDecode(ro.b), mustDecode(rn.b), s.root, excluded, unions, withOrder); len(ms) > 0 {
			rep.claim = "the older applier's Apply(current, ThreeWay(original, modified, current, overwrite)) (got) is the current applier's (want)"
			rep.got, rep.want, rep.mismatches = ro.b, rn.b, ms
			s.noteExclusions(&rep, excluded)
			s.fail(t, rep)
		}
	}
}

func (s *suite) noteExclusions(rep *report, excluded map[string]bool) {
	for _, p := range sortedSet(excluded) {
		rep.notes = append(rep.notes, "not compared: "+p+" (a default merge key shared by two elements)")
	}
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sharedDefaultKeys returns the merge lists with recommended keys whose
// default key two elements share, in any of the documents.
func sharedDefaultKeys(root node, docs ...any) map[string]bool {
	out := map[string]bool{}
	for _, d := range docs {
		for p, e := range indexDoc(d, root) {
			if e.kind != entKeyed || !e.n.hasRecommended() {
				continue
			}
			seen := map[string]bool{}
			for _, el := range e.v.([]any) {
				id := elementID(e.n.defaultKey(), el)
				if seen[id] {
					out[p] = true
					break
				}
				seen[id] = true
			}
		}
	}
	return out
}

// compareSkew compares an older applier's result (got) with what it
// should be (want), leaf by leaf and, with order, list by list; it skips
// the excluded lists, and with unions accepts union members of got that
// want's $retainKeys cleared.
func compareSkew(got, want any, root node, excluded map[string]bool, unions map[string]map[string]bool, order bool) []string {
	gi, wi := indexDoc(got, root), indexDoc(want, root)
	skip := func(p string, ix index) bool {
		if excluded[p] {
			return true
		}
		for _, a := range ix.ancestors(p) {
			if excluded[a] {
				return true
			}
		}
		return false
	}
	var out []string
	for _, p := range allLeaves(gi, wi) {
		_, ix, _ := entryOf(p, gi, wi)
		if skip(p, ix) {
			continue
		}
		g, w := gi.get(p), wi.get(p)
		if same(g, w) {
			continue
		}
		if unions != nil && w == nil && clearedMember(p, gi, unions) {
			continue
		}
		out = append(out, fmt.Sprintf("%s: got %s, want %s", p, show(g, g != nil), show(w, w != nil)))
	}
	if order {
		for p, e := range wi {
			if (e.kind != entKeyed && e.kind != entSet) || skip(p, wi) {
				continue
			}
			if ge, ok := gi[p]; ok && orderMismatch(listOrder(ge.v, e.n), listOrder(e.v, e.n)) {
				out = append(out, p+": order differs")
			}
		}
	}
	sort.Strings(out)
	return out
}

// clearedMember reports whether the leaf at p (in ix) lies under a union
// member that the union in modified does not set.
func clearedMember(p string, ix index, unions map[string]map[string]bool) bool {
	below := p
	for _, a := range ix.ancestors(p) {
		if members, ok := unions[a]; ok {
			return !members[ix[below].field]
		}
		below = a
	}
	return false
}

func (s *suite) skewSuperset(t *rapid.T) {
	tr := s.draw(t, s.unique, true)
	d := olderSets[rapid.IntRange(0, len(olderSets)-1).Draw(t, "options: older directive set")]
	skewSafe := chance(t, "options: skew-safe", 2)
	ov, mv, cv := mustDecode(tr.o.b), mustDecode(tr.m.b), mustDecode(tr.c.b)
	for _, e := range s.engines {
		rep := report{property: SkewSuperset, engine: e.name(),
			options:  fmt.Sprintf("%s=%v (older differ), %s=%v", directivesOption, d, skewSafeOption, skewSafe),
			original: tr.o.b, modified: tr.m.b, current: tr.c.b}
		for _, c := range []struct {
			what string
			make func(opts ...smp.Option) ([]byte, error)
			skip map[string]bool
		}{
			{"Diff(original, modified)", func(opts ...smp.Option) ([]byte, error) { return e.diff(tr.o, tr.m, opts...) },
				disagreements(s.root, skewSafe, [2]any{ov, mv})},
			{"ThreeWay(original, modified, current, overwrite)", func(opts ...smp.Option) ([]byte, error) {
				return e.threeWay(tr.o, tr.m, tr.c, append(opts, smp.WithOverwrite(true))...)
			}, // A three-way patch's deletions half names elements of the
				// original, which skew-safe mode does not write whole, and
				// leaves out deletions of what current holds under another
				// identity: the pair (current, original) covers both.
				disagreements(s.root, false, [2]any{ov, mv}, [2]any{cv, mv}, [2]any{cv, ov})},
		} {
			pn, err := c.make(s.opts(smp.WithSkewSafe(skewSafe))...)
			if err != nil {
				rep.claim, rep.err = c.what+" succeeds", err
				s.fail(t, rep)
			}
			po, err := c.make(s.opts(smp.WithDirectives(d), smp.WithSkewSafe(skewSafe))...)
			if err != nil {
				rep.claim, rep.err = "the older differ's "+c.what+" succeeds", err
				s.fail(t, rep)
			}
			stripped, _ := strip(mustDecode(pn), d, s.root, nil)
			if stripped == nil {
				stripped = map[string]any{}
			}
			sb := mustMarshal(stripped)
			rep.patch, rep.got, rep.want = pn, sb, po
			ms := contains(mustDecode(po), stripped, s.root, "", c.skip)
			if !s.recommended && len(ms) == 0 {
				// A union member $retainKeys clears is deleted whole, where
				// the older differ may delete only the original's entries
				// (docs/compat.md): the check above covers it.
				skip := maps.Clone(c.skip)
				unionDeletions(mustDecode(pn), s.root, "", skip)
				for _, m := range contains(stripped, mustDecode(po), s.root, "", skip) {
					ms = append(ms, "extra in the stripped patch: "+m)
				}
			}
			if len(ms) > 0 {
				rep.claim = c.what + " without the directives " + d.String() + " lacks (got) includes the older differ's patch (want)"
				if !s.recommended {
					rep.claim = c.what + " without the directives " + d.String() + " lacks (got) is the older differ's patch (want)"
				}
				rep.mismatches = ms
				for _, p := range sortedSet(c.skip) {
					rep.notes = append(rep.notes, "not compared: "+p+" (the default key pairs elements differently)")
				}
				s.fail(t, rep)
			}
		}
	}
}

// strip removes from a patch the directives set d lacks, and what held
// nothing else once they are gone: objects left empty, merge-list
// elements left with their key fields only, lists left empty. keys are
// the key fields when v is a merge-list element. drop says the caller
// should leave the value out.
func strip(v any, d smp.DirectiveSet, n node, keys []string) (out any, drop bool) {
	switch x := v.(type) {
	case map[string]any:
		res := make(map[string]any, len(x))
		emptied := false
		for k, e := range x {
			switch {
			case strings.HasPrefix(k, "$setElementOrder/") && d < smp.DirectivesSetElementOrder,
				k == "$retainKeys" && d < smp.DirectivesRetainKeys:
				emptied = true
				continue
			case k == "$patchMergeKey" && d < smp.DirectivesAll:
				continue
			}
			var c node
			if !strings.HasPrefix(k, "$") {
				c = n.child(k)
			}
			se, dropped := strip(e, d, c, nil)
			if dropped {
				emptied = true
				continue
			}
			res[k] = se
		}
		if emptied {
			only := true
			for k := range res {
				if !contains1(keys, k) {
					only = false
				}
			}
			if only {
				return nil, true
			}
		}
		return res, false
	case []any:
		res := make([]any, 0, len(x))
		var ekeys []string
		if n.keyedList() {
			ekeys = n.fullKey()
		}
		emptied := false
		for _, e := range x {
			se, dropped := strip(e, d, n.elem(), ekeys)
			if dropped {
				emptied = true
				continue
			}
			res = append(res, se)
		}
		if emptied && len(res) == 0 {
			return nil, true
		}
		return res, false
	}
	return v, false
}

func contains1(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

// contains lists what of the older patch old the newer patch nw lacks.
// Merge-list elements are matched by default key and directive, in any
// order; the lists at skip paths (rendered with default keys) are not
// compared.
func contains(old, nw any, n node, path string, skip map[string]bool) []string {
	if nw == nil && onlyDeletions(old) {
		return nil // deleting the whole object covers deleting its entries
	}
	switch ov := old.(type) {
	case map[string]any:
		nm, ok := nw.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %s, want an object", orRoot(path), show(nw, true))}
		}
		var out []string
		for _, k := range sortedMapKeys(ov) {
			oe := ov[k]
			ne, ok := nm[k]
			kp := joinField(path, k)
			if skip[kp] {
				continue
			}
			if name, isOrder := cutPrefix(k, "$setElementOrder/"); isOrder {
				if nl, ok := nm[name].([]any); skip[joinField(path, name)] || ok && hasMarker(nl) {
					continue // a list replaced whole carries its order
				}
				if _, ok := nm[k]; !ok && nm[name] == nil && ov[name] != nil &&
					len(contains(ov[name], []any{}, n.child(name), joinField(path, name), skip)) == 0 {
					continue // the older patch orders a list whose changes are all skipped
				}
			}
			if !ok {
				_, isMap := oe.(map[string]any)
				_, isList := oe.([]any)
				switch {
				case strings.HasPrefix(k, "$") || !isMap && !(isList && n.child(k).keyedList()):
					out = append(out, fmt.Sprintf("%s: absent, want %s", kp, show(oe, true)))
					continue
				case isMap:
					ne = map[string]any{} // what lies below may be skipped
				default:
					ne = []any{}
				}
			}
			switch name, isOrder := cutPrefix(k, "$setElementOrder/"); {
			case isOrder:
				lp := joinField(path, name)
				ln := n.child(name)
				if skip[lp] {
					continue
				}
				if ln.isObjectList() {
					if !reflect.DeepEqual(idsOf(oe, ln.defaultKey()), idsOf(ne, ln.defaultKey())) {
						out = append(out, fmt.Sprintf("%s: %s, want %s", kp, show(ne, true), show(oe, true)))
					}
				} else if !reflect.DeepEqual(oe, ne) {
					out = append(out, fmt.Sprintf("%s: %s, want %s", kp, show(ne, true), show(oe, true)))
				}
			case strings.HasPrefix(k, "$deleteFromPrimitiveList/"):
				if !sameSet(oe, ne) {
					out = append(out, fmt.Sprintf("%s: %s, want %s", kp, show(ne, true), show(oe, true)))
				}
			case strings.HasPrefix(k, "$"):
				if !reflect.DeepEqual(oe, ne) {
					out = append(out, fmt.Sprintf("%s: %s, want %s", kp, show(ne, true), show(oe, true)))
				}
			default:
				out = append(out, contains(oe, ne, n.child(k), kp, skip)...)
			}
		}
		return out
	case []any:
		nl, ok := nw.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %s, want a list", orRoot(path), show(nw, true))}
		}
		switch {
		case n.keyedList():
			if skip[path] || hasMarker(nl) {
				return nil // a list the newer patch replaces whole covers the older one's
			}
			def := n.defaultKey()
			var out []string
			for _, oe := range ov {
				om, _ := oe.(map[string]any)
				dir := om["$patch"]
				if dir == "replace" && len(om) == 1 {
					if !hasMarker(nl) {
						out = append(out, path+": no {$patch: replace}, want one")
					}
					continue
				}
				ep := path + keyStep(def, om)
				var best []string
				found := false
				for _, ne := range nl {
					nm, _ := ne.(map[string]any)
					if nm == nil || nm["$patch"] != dir || elementID(def, nm) != elementID(def, om) {
						continue
					}
					ms := contains(om, nm, n.elem(), ep, skip)
					if len(ms) == 0 {
						found = true
						break
					}
					if best == nil {
						best = ms
					}
				}
				if !found && dir == nil {
					// An element whose every change lies in skipped lists.
					keys := map[string]any{}
					for _, k := range def {
						if v, ok := om[k]; ok {
							keys[k] = v
						}
					}
					found = len(contains(om, keys, n.elem(), ep, skip)) == 0
				}
				if !found {
					if best == nil {
						best = []string{fmt.Sprintf("%s: no such element, want %s", ep, show(oe, true))}
					}
					out = append(out, best...)
				}
			}
			return out
		case n.isMergeList():
			var out []string
			have := map[string]bool{}
			for _, e := range nl {
				have[scalarID(e)] = true
			}
			for _, e := range ov {
				if !have[scalarID(e)] {
					out = append(out, fmt.Sprintf("%s: lacks %s", path, show(e, true)))
				}
			}
			return out
		}
		if !reflect.DeepEqual(ov, nl) {
			return []string{fmt.Sprintf("%s: %s, want %s", path, show(nl, true), show(ov, true))}
		}
		return nil
	}
	if !reflect.DeepEqual(old, nw) {
		return []string{fmt.Sprintf("%s: %s, want %s", orRoot(path), show(nw, nw != nil), show(old, true))}
	}
	return nil
}

func orRoot(p string) string {
	if p == "" {
		return "<root>"
	}
	return p
}

func hasMarker(l []any) bool {
	for _, e := range l {
		if m, ok := e.(map[string]any); ok && m["$patch"] == "replace" {
			return true
		}
	}
	return false
}

func idsOf(v any, keys []string) []string {
	l, _ := v.([]any)
	ids := make([]string, len(l))
	for i, e := range l {
		ids[i] = elementID(keys, e)
	}
	return ids
}

func sameSet(a, b any) bool {
	al, _ := a.([]any)
	bl, _ := b.([]any)
	return reflect.DeepEqual(scalarIDs(al), scalarIDs(bl))
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("%q", err.Error()))
	}
	return b
}

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// disagreements returns the merge lists with recommended keys (rendered
// with default keys) where pairing elements by the default key differs
// from pairing them by the whole key, for each pair of documents: the
// default key is shared in a list (unless skew-safe mode writes such
// lists whole, as the older differ does), or an element of the second
// document has a partner in the first by one key and not by the other.
func disagreements(root node, skewSafe bool, pairs ...[2]any) map[string]bool {
	out := map[string]bool{}
	for _, p := range pairs {
		disagree(p[0], p[1], root, "", skewSafe, out)
	}
	return out
}

func disagree(a, b any, n node, path string, skewSafe bool, out map[string]bool) {
	switch bv := b.(type) {
	case map[string]any:
		if n.wholeObject() {
			return
		}
		am, _ := a.(map[string]any)
		for k, e := range bv {
			disagree(am[k], e, n.child(k), joinField(path, k), skewSafe, out)
		}
	case []any:
		if !n.keyedList() {
			return
		}
		al, _ := a.([]any)
		def, full := n.defaultKey(), n.fullKey()
		if n.hasRecommended() {
			if repeatsKey(al, def) || repeatsKey(bv, def) {
				if !skewSafe {
					out[path] = true
				}
				return
			}
			aDef, aFull := map[string]bool{}, map[string]bool{}
			for _, e := range al {
				aDef[elementID(def, e)] = true
				aFull[elementID(full, e)] = true
			}
			for _, e := range bv {
				if aDef[elementID(def, e)] != aFull[elementID(full, e)] {
					out[path] = true
					return
				}
			}
		}
		byDef := map[string]any{}
		for _, e := range al {
			byDef[elementID(def, e)] = e
		}
		for _, e := range bv {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			disagree(byDef[elementID(def, e)], e, n.elem(), path+keyStep(def, m), skewSafe, out)
		}
	}
}

func repeatsKey(l []any, keys []string) bool {
	seen := map[string]bool{}
	for _, e := range l {
		id := elementID(keys, e)
		if seen[id] {
			return true
		}
		seen[id] = true
	}
	return false
}

// onlyDeletions reports whether a patch value is an object that only
// deletes entries, at any depth.
func onlyDeletions(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, e := range m {
		if e != nil && !onlyDeletions(e) {
			return false
		}
	}
	return true
}

// unionDeletions adds to out the paths (merge-list elements by default
// key, as contains names them) of the union members a patch deletes
// whole beside $retainKeys.
func unionDeletions(patch any, n node, path string, out map[string]bool) {
	switch x := patch.(type) {
	case map[string]any:
		_, retain := x["$retainKeys"]
		for k, v := range x {
			if strings.HasPrefix(k, "$") {
				continue
			}
			if v == nil && retain {
				out[joinField(path, k)] = true
			}
			unionDeletions(v, n.child(k), joinField(path, k), out)
		}
	case []any:
		if !n.keyedList() {
			return
		}
		for _, e := range x {
			if em, ok := e.(map[string]any); ok && em["$patch"] == nil {
				unionDeletions(em, n.elem(), path+keyStep(n.defaultKey(), em), out)
			}
		}
	}
}
