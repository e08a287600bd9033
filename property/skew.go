package property

import (
	"fmt"
	"maps"
	"sort"

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
				// (docs/compat.md), and a list whose elements only carry
				// $retainKeys keeps its order: the check above covers both.
				skip := maps.Clone(c.skip)
				unionDeletions(mustDecode(pn), s.root, "", skip)
				retainKeysOrders(mustDecode(pn), d, s.root, "", skip)
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
