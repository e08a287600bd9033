package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// object is a decoded JSON object.
type object = map[string]any

func decode(t testing.TB, b []byte) object {
	t.Helper()
	var o object
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return o
}

func encode(t testing.TB, o object) []byte {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// field is the value at a path of object keys, or nil.
func field(o object, path ...string) any {
	var v any = o
	for _, k := range path {
		m, ok := v.(object)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// unstamped is a copy of a stored object without what two writes of the
// same content do not share: the resourceVersion, and the time in each
// managedFields entry (its operation, manager and fields stay). Container
// ports are grouped by number (groupPorts).
func unstamped(t testing.TB, stored []byte) object {
	t.Helper()
	o := decode(t, stored)
	groupPorts(o)
	meta, _ := o["metadata"].(object)
	delete(meta, "resourceVersion")
	if entries, ok := meta["managedFields"].([]any); ok {
		for _, e := range entries {
			delete(e.(object), "time")
		}
	}
	return o
}

// groupPorts orders each list of container ports as a server orders one a
// patch replaces: the ports sharing a number next to the first of them
// (docs/skew.md, "Skew-safe mode"), where a PUT keeps the order it is
// given. Ports of distinct numbers keep their order.
func groupPorts(v any) {
	switch x := v.(type) {
	case object:
		for k, e := range x {
			if l, ok := e.([]any); ok && k == "ports" {

				x[k] = groupedByNumber(l)
			}
			groupPorts(x[k])
		}
	case []any:
		for _, e := range x {
			groupPorts(e)
		}
	}
}

func groupedByNumber(ports []any) []any {
	var numbers []any
	groups := map[any][]any{}
	for _, p := range ports {
		o, ok := p.(object)
		if !ok || o["containerPort"] == nil {
			return ports // not container ports
		}
		n := o["containerPort"]
		if _, ok := groups[n]; !ok {
			numbers = append(numbers, n)
		}
		groups[n] = append(groups[n], p)
	}
	out := make([]any, 0, len(ports))
	for _, n := range numbers {
		out = append(out, groups[n]...)
	}
	return out
}

// sameOutcome fails the test unless two answers of the server agree: both
// store the same object, or both refuse it with the same status and causes.
func sameOutcome(t testing.TB, what string, want, got response) {
	t.Helper()
	if want.status != got.status {
		t.Errorf("%s: status %d, want %d\ngot:  %s\nwant: %s", what, got.status, want.status, got.body, want.body)
		return
	}
	if got.status == http.StatusOK || got.status == http.StatusCreated {
		if d := cmp.Diff(unstamped(t, want.body), unstamped(t, got.body)); d != "" {
			t.Errorf("%s: objects differ (-want +got):\n%s", what, d)
		}
		return
	}
	if d := cmp.Diff(causes(t, want.body), causes(t, got.body)); d != "" {
		t.Errorf("%s: both refused (%d), for other reasons (-want +got):\n%s", what, got.status, d)
	}
}

// causes are a refusal's reason and the field errors of its details.
func causes(t testing.TB, status []byte) any {
	t.Helper()
	s := decode(t, status)
	return []any{s["reason"], field(s, "details", "causes")}
}

// noWarnings fails the test if the server warned of the request, as it does
// for unknown or duplicate fields when fieldValidation is not Strict.
func noWarnings(t testing.TB, what string, r response) {
	t.Helper()
	if len(r.warnings) > 0 {
		t.Errorf("%s: the server warned: %s", what, strings.Join(r.warnings, "; "))
	}
}

// contains reports where sub is not part of sup: objects by their keys,
// lists element by element from the start (sup may have more elements),
// scalars by equality. It is "" when sub is contained.
func contains(sup, sub any, path string) string {
	switch s := sub.(type) {
	case object:
		o, ok := sup.(object)
		if !ok {
			return fmt.Sprintf("%s: %v is not an object", path, sup)
		}
		for k, v := range s {
			if d := contains(o[k], v, path+"."+k); d != "" {
				return d
			}
		}
	case []any:
		l, ok := sup.([]any)
		if !ok || len(l) < len(s) {
			return fmt.Sprintf("%s: %v does not start with %d elements", path, sup, len(s))
		}
		for i, v := range s {
			if d := contains(l[i], v, fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	default:
		if !cmp.Equal(sup, sub) {
			return fmt.Sprintf("%s: %v, want %v", path, sup, sub)
		}
	}
	return ""
}

// leftovers lists where got differs from intended other than by the
// server's defaults that a strategic merge patch rightly leaves: a field
// absent from intended and from the original manifest, which got holds with
// the live object's value (such as a defaulted rollingUpdate under a
// strategy the configuration changed to OnDelete; Kubernetes' patches leave
// it too). Lists compare element by element.
func leftovers(intended, got, live, original any, path string) []string {
	switch w := intended.(type) {
	case object:
		g, ok := got.(object)
		if !ok {
			return []string{fmt.Sprintf("%s: %v, want an object", path, got)}
		}
		l, _ := live.(object)
		o, _ := original.(object)
		var out []string
		for k, v := range w {
			if gv, ok := g[k]; ok {
				out = append(out, leftovers(v, gv, l[k], o[k], path+"."+k)...)
			} else {
				out = append(out, fmt.Sprintf("%s.%s: missing, want %v", path, k, v))
			}
		}
		for k, gv := range g {
			if _, ok := w[k]; ok {
				continue
			}
			if _, configured := o[k]; configured || !cmp.Equal(gv, l[k]) {
				out = append(out, fmt.Sprintf("%s.%s: %v, want none", path, k, gv))
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: %v, want %v", path, got, intended)}
		}
		l, _ := live.([]any)
		o, _ := original.([]any)
		var out []string
		for i := range w {
			out = append(out, leftovers(w[i], g[i], at(l, i), at(o, i), fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	default:
		if !cmp.Equal(intended, got) {
			return []string{fmt.Sprintf("%s: %v, want %v", path, got, intended)}
		}
		return nil
	}
}

func at(l []any, i int) any {
	if i < len(l) {
		return l[i]
	}
	return nil
}
