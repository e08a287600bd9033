package property

import (
	"errors"
	"fmt"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/smp"
)

// The names of the properties, as Properties lists them.
const (
	RoundTrip     = "RoundTrip"
	Identity      = "Identity"
	ThreeWay      = "ThreeWay"
	Idempotence   = "Idempotence"
	Order         = "Order"
	SkewOldClient = "SkewOldClient"
	SkewOldServer = "SkewOldServer"
	SkewSuperset  = "SkewSuperset"
)

// Words of the reports.
const (
	overwriteOption   = "overwrite"
	skewSafeOption    = "skew-safe"
	directivesOption  = "directives"
	orderingNoteOrder = "list order is not compared: the older applier knows no $setElementOrder"
)

// propertyDocs says what each property checks, and its exceptions.
var propertyDocs = map[string]string{
	RoundTrip: `Apply(original, Diff(original, modified)) == modified, as the Go type ` +
		`sees them (decoded and encoded again; for a schema without one, as JSON where absent, ` +
		`null and empty values are alike), with no directive left in the result; ` +
		`with and without skew-safe mode. Documents may repeat merge keys (the differ replaces ` +
		`such lists). With the typed API too, whose patch must be the JSON API's.`,
	Identity: `Diff(original, original) and ThreeWay(original, original, original) are empty, ` +
		`for every directive set; applying an empty patch to original or to another document ` +
		`gives it back unchanged.`,
	ThreeWay: `r = Apply(current, ThreeWay(original, modified, current, overwrite)) follows ` +
		`Kubernetes' three-way rules leaf by leaf (merge-list elements addressed by key): a leaf ` +
		`modified sets is modified's (so a field current changed and modified did not is set ` +
		`back: modified is the desired state); a leaf original had and modified has not is ` +
		`removed; any other leaf is current's. Exceptions, each the engine's documented ` +
		`behaviour: what modified drops is deleted whole where the kubernetes#48164 narrowing ` +
		`does not apply (merge-list elements, lists, unions, atomic and replace objects; objects ` +
		`current added nothing to), and a null in modified deletes current's value; $retainKeys ` +
		`clears union members modified does not set, current's too; an element of modified lacking ` +
		`recommended key fields is current's element that agrees with it, and so is an element of ` +
		`original that modified drops (server-filled key fields, no change of current's); in ` +
		`skew-safe mode a list whose default key is shared, or would be in the result, is ` +
		`replaced by modified's; nil ≡ empty; list order ` +
		`(checked by Order); documents have unique merge keys. Without overwrite, a conflict ` +
		`is reported exactly when current changed a leaf the patch overwrites, compared as ` +
		`Kubernetes does (sets never conflict; lists replaced whole compare as sets of scalars ` +
		`or element by element; whole deletions conflict with any change inside them; union ` +
		`members $retainKeys clears are no conflict; a replace object never conflicts; a field null on ` +
		`one side and absent on the other, as a Go pointer or slice without omitempty renders, ` +
		`is a change unless its object is empty on both), and every path it names is such a leaf ` +
		`or container; with no conflict, the patch is the overwriting one.`,
	Idempotence: `Applying a patch the differ made a second time changes nothing: ` +
		`Diff(original, modified) applied to original and to current, and ` +
		`ThreeWay(original, modified, current, overwrite) applied to current.`,
	Order: `Where a patch carries $setElementOrder for a merge list, the result lists the ` +
		`modified list's items in the modified list's relative order: Diff(original, modified) ` +
		`applied to current, and ThreeWay(original, modified, current, overwrite) applied to ` +
		`current. Items only current has are not constrained.`,
	SkewOldClient: `"Strategic Merge Patch", version skew, old patch on a new server: a patch from a differ limited to an ` +
		`older directive set (two-way, and three-way with overwrite) gives the same result, ` +
		`order included, on the current applier as on the applier of its own generation, on ` +
		`original and on current; and Apply(original, old patch) == modified (order aside for ` +
		`the legacy set, which cannot express it).`,
	SkewOldServer: `"Strategic Merge Patch", version skew, new patch on an old server (an applier limited to an older set ` +
		`drops the directives it lacks): Diff(original, modified) applied to original gives ` +
		`modified, and ThreeWay(original, modified, current, overwrite) applied to current gives ` +
		`what the current applier gives, except where docs/skew.md says an old server differs: ` +
		`list order without $setElementOrder; union members another writer set that ` +
		`$retainKeys would have cleared; and, outside skew-safe mode, merge lists whose default ` +
		`key is shared by two elements (in original, modified, current or the result).`,
	SkewSuperset: `"Strategic Merge Patch", version skew, the superset rule: a current patch with the directives an older ` +
		`set lacks removed (and what only held them) includes the older differ's patch, two-way ` +
		`and three-way: every field, element and directive of the older patch is in it ` +
		`(merge-list elements matched by default key, in any order; a list the current patch ` +
		`replaces whole covers the older patch's list); for types without ` +
		`recommended keys the two are equal, except that the current patch deletes a union ` +
		`member $retainKeys clears whole where the older one may delete its entries, and ` +
		`orders a list whose elements only carry $retainKeys, which the older one may not write. ` +
		`Exception: merge lists with recommended keys where ` +
		`the default key pairs elements differently from the whole key (a shared default key, ` +
		`or a key field other than the default changed, between any two of original, modified ` +
		`and current): the older ` +
		`differ writes another, equivalent patch there (for a new element holding such a list, ` +
		`a deletion of it before it), which SkewOldServer checks by its result.`,
}

// propertyOrder is the order Properties lists them in.
var propertyOrder = []string{RoundTrip, Identity, ThreeWay, Idempotence, Order, SkewOldClient, SkewOldServer, SkewSuperset}

func (s *suite) property(name string) func(*rapid.T) {
	switch name {
	case RoundTrip:
		return s.roundTrip
	case Identity:
		return s.identity
	case ThreeWay:
		return s.threeWay
	case Idempotence:
		return s.idempotence
	case Order:
		return s.order
	case SkewOldClient:
		return s.skewOldClient
	case SkewOldServer:
		return s.skewOldServer
	case SkewSuperset:
		return s.skewSuperset
	}
	return nil
}

func (s *suite) roundTrip(t *rapid.T) {
	tr := s.draw(t, s.dups, false)
	skewSafe := chance(t, "options: skew-safe", 3)
	opts := s.opts(smp.WithSkewSafe(skewSafe))
	var first []byte
	for _, e := range s.engines {
		rep := report{property: RoundTrip, engine: e.name(), options: fmt.Sprintf("%s=%v", skewSafeOption, skewSafe),
			original: tr.o.b, modified: tr.m.b}
		p, err := e.diff(tr.o, tr.m, opts...)
		if err != nil {
			rep.claim, rep.err = "Diff(original, modified) succeeds", err
			s.fail(t, rep)
		}
		rep.patch = p
		r, err := e.apply(tr.o, p, opts...)
		if err != nil {
			rep.claim, rep.err = "Apply(original, Diff(original, modified)) succeeds", err
			s.fail(t, rep)
		}
		if ms := s.compareDocs(r.b, tr.m.b, true); len(ms) > 0 {
			rep.claim, rep.got, rep.want, rep.mismatches = "Apply(original, Diff(original, modified)) == modified", r.b, tr.m.b, ms
			s.fail(t, rep)
		}
		if first == nil {
			first = p
		} else if !samePatch(first, p) {
			rep.claim = "the typed API's patch is the JSON API's"
			rep.got, rep.want = p, first
			s.fail(t, rep)
		}
	}
}

func (s *suite) identity(t *rapid.T) {
	tr := s.draw(t, s.dups, true)
	set := allSets[rapid.IntRange(0, len(allSets)-1).Draw(t, "options: directives")]
	skewSafe := chance(t, "options: skew-safe", 3)
	opts := s.opts(smp.WithDirectives(set), smp.WithSkewSafe(skewSafe))
	for _, e := range s.engines {
		rep := report{property: Identity, engine: e.name(), options: fmt.Sprintf("%s=%v, %s=%v", directivesOption, set, skewSafeOption, skewSafe),
			original: tr.o.b, current: tr.c.b}
		p, err := e.diff(tr.o, tr.o, opts...)
		if err != nil || !emptyPatch(p) {
			rep.claim, rep.err, rep.patch = "Diff(original, original) is empty", err, p
			s.fail(t, rep)
		}
		p, err = e.threeWay(tr.o, tr.o, tr.o, opts...)
		if err != nil || !emptyPatch(p) {
			rep.claim, rep.err, rep.patch = "ThreeWay(original, original, original) is empty", err, p
			s.fail(t, rep)
		}
		rep.patch = []byte("{}")
		for _, x := range []struct {
			name string
			d    doc
		}{{"original", tr.o}, {"current", tr.c}} {
			r, err := e.apply(x.d, []byte("{}"), opts...)
			if err != nil {
				rep.claim, rep.err = "Apply("+x.name+", {}) succeeds", err
				s.fail(t, rep)
			}
			if ms := s.compareDocs(r.b, x.d.b, true); len(ms) > 0 || !sameJSON(r.b, x.d.b) {
				if len(ms) == 0 {
					ms = []string{"the JSON differs (null members included)"}
				}
				rep.claim, rep.got, rep.want, rep.mismatches = "Apply("+x.name+", {}) == "+x.name, r.b, x.d.b, ms
				s.fail(t, rep)
			}
		}
	}
}

func emptyPatch(p []byte) bool {
	m, err := decodeObject(p)
	return err == nil && len(m) == 0
}

func sameJSON(a, b []byte) bool {
	return samePatch(a, b)
}

func (s *suite) threeWay(t *rapid.T) {
	tr := s.draw(t, s.unique, true)
	skewSafe := chance(t, "options: skew-safe", 3)
	var first []byte
	for _, e := range s.engines {
		rep := report{property: ThreeWay, engine: e.name(), options: fmt.Sprintf("%s=true, %s=%v", overwriteOption, skewSafeOption, skewSafe),
			original: tr.o.b, modified: tr.m.b, current: tr.c.b}
		pw, err := e.threeWay(tr.o, tr.m, tr.c, s.opts(smp.WithOverwrite(true), smp.WithSkewSafe(skewSafe))...)
		if err != nil {
			rep.claim, rep.err = "ThreeWay(original, modified, current, overwrite) succeeds", err
			s.fail(t, rep)
		}
		rep.patch = pw
		if first == nil {
			first = pw
		} else if !samePatch(first, pw) {
			rep.claim = "the typed API's patch is the JSON API's"
			rep.got, rep.want = pw, first
			s.fail(t, rep)
		}
		r, err := e.apply(tr.c, pw, s.opts()...)
		if err != nil {
			rep.claim, rep.err = "Apply(current, ThreeWay(original, modified, current, overwrite)) succeeds", err
			s.fail(t, rep)
		}
		rep.got = r.b
		md := newThreeWayModel(mustDecode(tr.o.b), mustDecode(tr.m.b), mustDecode(tr.c.b), s.root, skewSafe)
		rv, err := decode(r.b)
		if err != nil {
			rep.claim, rep.err = "the result is JSON", err
			s.fail(t, rep)
		}
		if ms := md.check(indexDoc(rv, s.root)); len(ms) > 0 {
			rep.claim = "Apply(current, ThreeWay(original, modified, current, overwrite)) follows the three-way rules"
			for _, m := range ms {
				rep.mismatches = append(rep.mismatches, describeMismatch(m))
			}
			s.fail(t, rep)
		}
		if k := directiveIn(r.b); k != "" {
			rep.claim, rep.mismatches = "the result holds no directive", []string{k}
			s.fail(t, rep)
		}

		s.threeWayNoOverwrite(t, e, tr, md, skewSafe, rep)
	}
}

// threeWayNoOverwrite checks the three-way patch of tr without overwrite
// against rep.patch, the one with it: the same patch, or a conflict
// naming exactly the paths where the patch overwrites current's changes.
func (s *suite) threeWayNoOverwrite(t *rapid.T, e engine, tr trio, md *threeWayModel, skewSafe bool, rep report) {
	pw := rep.patch
	over := md.overwritten()
	pn, errn := e.threeWay(tr.o, tr.m, tr.c, s.opts(smp.WithSkewSafe(skewSafe))...)
	rep.options = fmt.Sprintf("%s=false, %s=%v", overwriteOption, skewSafeOption, skewSafe)
	rep.got = nil
	switch {
	case errn != nil && !smp.IsConflict(errn):
		rep.claim, rep.err = "ThreeWay(original, modified, current) succeeds or reports a conflict", errn
		s.fail(t, rep)
	case errn == nil && len(over) > 0:
		rep.claim = "a conflict is reported when current changed a field that the patch overwrites"
		rep.patch = pn
		for _, p := range over {
			rep.mismatches = append(rep.mismatches, fmt.Sprintf("%s: original %s, current %s, modified %s", p,
				show(md.o.get(p), md.o.get(p) != nil), show(md.c.get(p), md.c.get(p) != nil), show(md.m.get(p), md.m.get(p) != nil)))
		}
		s.fail(t, rep)
	case errn != nil:
		var se *smp.Error
		errors.As(errn, &se)
		if len(se.Conflicts) == 0 {
			rep.claim, rep.err = "a conflict names its paths", errn
			s.fail(t, rep)
		}
		for _, p := range se.Conflicts {
			if md.justified(p.String(), over) == "" {
				rep.claim, rep.err = "a conflict is reported only where current changed a field that the patch overwrites", errn
				rep.mismatches = append(rep.mismatches, p.String()+": no change of current's is overwritten there")
				for _, o := range over {
					rep.notes = append(rep.notes, "overwritten: "+o)
				}
			}
		}
		if len(rep.mismatches) > 0 {
			s.fail(t, rep)
		}
	case !samePatch(pn, pw):
		rep.claim = "without a conflict, the patch is the same with and without overwrite"
		rep.got, rep.want = pn, pw
		s.fail(t, rep)
	}
}

func (s *suite) idempotence(t *rapid.T) {
	tr := s.draw(t, s.dups, true)
	for _, e := range s.engines {
		rep := report{property: Idempotence, engine: e.name(), original: tr.o.b, modified: tr.m.b, current: tr.c.b}
		p, err := e.diff(tr.o, tr.m, s.opts()...)
		if err != nil {
			rep.claim, rep.err = "Diff(original, modified) succeeds", err
			s.fail(t, rep)
		}
		p3, err := e.threeWay(tr.o, tr.m, tr.c, s.opts(smp.WithOverwrite(true))...)
		if err != nil {
			rep.claim, rep.err = "ThreeWay(original, modified, current, overwrite) succeeds", err
			s.fail(t, rep)
		}
		for _, c := range []struct {
			what  string
			x     doc
			patch []byte
		}{{"Diff(original, modified) on original", tr.o, p}, {"Diff(original, modified) on current", tr.c, p},
			{"ThreeWay(original, modified, current, overwrite) on current", tr.c, p3}} {
			rep.patch = c.patch
			once, err := e.apply(c.x, c.patch, s.opts()...)
			if err != nil {
				rep.claim, rep.err = "applying "+c.what+" succeeds", err
				s.fail(t, rep)
			}
			twice, err := e.apply(once, c.patch, s.opts()...)
			if err != nil {
				rep.claim, rep.err = "applying "+c.what+" a second time succeeds", err
				s.fail(t, rep)
			}
			if ms := s.compareDocs(twice.b, once.b, true); len(ms) > 0 {
				rep.claim, rep.got, rep.want, rep.mismatches = "applying "+c.what+" twice gives what applying it once gives", twice.b, once.b, ms
				s.fail(t, rep)
			}
		}
	}
}

func (s *suite) order(t *rapid.T) {
	tr := s.draw(t, s.unique, true)
	mv := mustDecode(tr.m.b)
	for _, e := range s.engines {
		rep := report{property: Order, engine: e.name(), original: tr.o.b, modified: tr.m.b, current: tr.c.b}
		p, err := e.diff(tr.o, tr.m, s.opts()...)
		if err != nil {
			rep.claim, rep.err = "Diff(original, modified) succeeds", err
			s.fail(t, rep)
		}
		p3, err := e.threeWay(tr.o, tr.m, tr.c, s.opts(smp.WithOverwrite(true))...)
		if err != nil {
			rep.claim, rep.err = "ThreeWay(original, modified, current, overwrite) succeeds", err
			s.fail(t, rep)
		}
		for _, c := range []struct {
			what  string
			patch []byte
		}{{"Diff(original, modified)", p}, {"ThreeWay(original, modified, current, overwrite)", p3}} {
			rep.patch = c.patch
			r, err := e.apply(tr.c, c.patch, s.opts()...)
			if err != nil {
				rep.claim, rep.err = "Apply(current, "+c.what+") succeeds", err
				s.fail(t, rep)
			}
			if ms := checkOrder(mustDecode(c.patch), mv, mustDecode(r.b), s.root, ""); len(ms) > 0 {
				rep.claim, rep.got, rep.mismatches = "Apply(current, "+c.what+") orders each merge list as $setElementOrder says", r.b, ms
				s.fail(t, rep)
			}
		}
	}
}
