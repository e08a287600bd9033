package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/smp"
)

// liveOnly says, for each custom resource, what its CURRENT file has that
// neither configuration has (it must survive the three-way patch) and what
// MODIFIED removed (it must be gone), as JSON fragments of the result.
var liveOnly = map[string]struct{ keep, gone []string }{
	"rollout": {
		keep: []string{`{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"OTEL_ENDPOINT"}]},{"name":"istio-proxy"}]}}}}`},
		gone: []string{`"MODE"`},
	},
	"certificate": {
		keep: []string{`{"spec":{"dnsNames":["legacy.example.com","api.example.com"],"secretTemplate":{"labels":{"backup":"daily"}}}}`},
		gone: []string{`"example.com"`},
	},
	"gameserver": {
		keep: []string{`{"spec":{"ports":[{"name":"metrics","port":9100},{"name":"rcon","protocol":"TCP"}],"players":["dave","carol"]}}`},
		gone: []string{`"bob"`, `"query"`},
	},
	"httproute": {
		keep: []string{`{"metadata":{"labels":{"gateway.example.com/managed":"true","tier":"frontend"},"annotations":{"gateway.example.com/last-sync":"2026-11-23T10:00:00Z"}}}`},
	},
}

// TestCustomResourcesThreeWay checks the three-way patch printed for each
// custom resource: applied to CURRENT it keeps what only CURRENT has and
// removes what MODIFIED removed, and it round-trips: applied again it
// changes nothing, nor does the next three-way patch from the result.
func TestCustomResourcesThreeWay(t *testing.T) {
	for _, cr := range customResources {
		t.Run(cr[0], func(t *testing.T) {
			var c cliCase
			for _, k := range cliCases {
				if k.name == "three-way-cr-"+cr[0] {
					c = k
				}
			}
			args := strings.Fields(c.args)
			o, operands, err := parseFlags(threeWayCommand, args[1:])
			if err != nil {
				t.Fatal(err)
			}
			groups, sc := testGroups(t, o, []string{"ORIGINAL", "MODIFIED", "CURRENT"}, operands)
			g := groups[0]
			ds, _, err := sc.forGroup(g)
			if err != nil {
				t.Fatal(err)
			}
			stdout, stderr, exit := runBinary(t, cliCase{args: c.args + " -o json"})
			if exit != 0 {
				t.Fatalf("exit %d: %s", exit, stderr)
			}
			result, err := smp.ApplyJSON(g.objs[2].json, []byte(stdout), ds, o.smpOptions()...)
			if err != nil {
				t.Fatalf("applying the printed patch to CURRENT: %v", err)
			}
			have := decodeJSON(t, result)
			if !subset(decodeJSON(t, g.objs[1].json), have) {
				t.Errorf("the result lacks some of MODIFIED:\n%s", result)
			}
			for _, k := range liveOnly[cr[0]].keep {
				if !subset(decodeJSON(t, []byte(k)), have) {
					t.Errorf("the result lacks %s:\n%s", k, result)
				}
			}
			for _, s := range liveOnly[cr[0]].gone {
				if strings.Contains(string(result), s) {
					t.Errorf("the result still has %s:\n%s", s, result)
				}
			}
			for what, p := range map[string][]byte{"the printed patch": []byte(stdout), "the next three-way patch": nil} {
				if p == nil {
					if p, err = smp.ThreeWayJSON(g.objs[0].json, g.objs[1].json, result, ds, o.smpOptions()...); err != nil {
						t.Fatal(err)
					}
				}
				again, err := smp.ApplyJSON(result, p, ds, o.smpOptions()...)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(have, decodeJSON(t, again)); diff != "" {
					t.Errorf("%s changes the result again (-result +again):\n%s", what, diff)
				}
			}
		})
	}
}

// subset reports whether every field of want is in have with a value
// subset of have's, and every element of a list in want is a subset of
// some element of have's list.
func subset(want, have any) bool {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !subset(v, h[k]) {
				return false
			}
		}
		return true
	case []any:
		h, ok := have.([]any)
		if !ok {
			return false
		}
		for _, e := range w {
			found := false
			for _, x := range h {
				found = found || subset(e, x)
			}
			if !found {
				return false
			}
		}
		return true
	}
	wj, _ := json.Marshal(want)
	hj, _ := json.Marshal(have)
	return string(wj) == string(hj)
}
