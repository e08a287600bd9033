package smp_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

// A stack overflow kills the process, so the cycle cases run in a child
// process (this test binary, re-run with cycleChildEnv set): the parent
// asserts that the child lived and that each case failed with the
// *smp.Error expected. encoding/json reports "encountered a cycle" for
// every one of these values.

const cycleChildEnv = "SMP_CYCLE_CHILD"

type cycDoc struct {
	Name  string            `json:"name,omitempty"`
	Any   any               `json:"any,omitempty"`
	Map   map[string]any    `json:"map,omitempty"`
	List  []any             `json:"list,omitempty"`
	Next  *cycDoc           `json:"next,omitempty"`
	Kids  map[string]cycDoc `json:"kids,omitempty"`
	Items []cycItem         `json:"items,omitempty" patchStrategy:"merge" patchMergeKey:"id"`
}

type cycItem struct {
	ID   string  `json:"id"`
	Back *cycDoc `json:"back,omitempty"`
	Val  any     `json:"val,omitempty"`
}

// cycleCase is a value that contains itself and the error it must give:
// its kind and path.
type cycleCase struct {
	name string
	make func() *cycDoc
	kind smp.ErrorKind
	path string
}

func selfMap() map[string]any {
	m := map[string]any{"a": "x"}
	m["self"] = m
	return m
}

func selfList() []any {
	l := make([]any, 2)
	l[0] = "x"
	l[1] = l
	return l
}

var cycleCases = []cycleCase{
	{name: "any holds a map of itself", make: func() *cycDoc {
		return &cycDoc{Any: selfMap()}
	}, kind: smp.ErrInvalidValue, path: "any.self"},
	{name: "map field holds itself", make: func() *cycDoc {
		return &cycDoc{Map: selfMap()}
	}, kind: smp.ErrInvalidValue, path: "map.self"},
	{name: "list field holds itself", make: func() *cycDoc {
		return &cycDoc{List: selfList()}
	}, kind: smp.ErrInvalidValue, path: "list[1]"},
	{name: "three levels, three types", make: func() *cycDoc {
		m := map[string]any{}
		m["l"] = []any{"y", map[string]any{"back": m}}
		return &cycDoc{Any: map[string]any{"top": m}}
	}, kind: smp.ErrInvalidValue, path: "any.top.l[1].back"},
	{name: "any holds the document", make: func() *cycDoc {
		d := &cycDoc{Name: "root"}
		d.Any = d
		return d
	}, kind: smp.ErrInvalidValue, path: "any"},
	{name: "list element points back through a typed struct", make: func() *cycDoc {
		d := &cycDoc{Name: "root"}
		d.Items = []cycItem{{ID: "a"}, {ID: "b", Val: []any{map[string]any{"doc": d}}}}
		return d
	}, kind: smp.ErrInvalidValue, path: "items[1].val[0].doc"},
	{name: "struct points to itself", make: func() *cycDoc {
		d := &cycDoc{Name: "n"}
		d.Next = d
		return d
	}, kind: smp.ErrInvalidValue, path: "next"},
	{name: "map value points back", make: func() *cycDoc {
		d := &cycDoc{Name: "n"}
		d.Kids = map[string]cycDoc{"k": {Name: "k", Next: d}}
		return d
	}, kind: smp.ErrInvalidValue, path: "kids.k.next"},
	{name: "list item points back", make: func() *cycDoc {
		d := &cycDoc{Name: "n"}
		d.Items = []cycItem{{ID: "a", Back: d}}
		return d
	}, kind: smp.ErrInvalidValue, path: "items[0].back"},
}

// cycleChild runs every entry point on every cycle case and prints one
// line per call: "name|call|kind|path", or "...|ok" or "...|not an *smp.Error".
func cycleChild() {
	plain := &cycDoc{Name: "other", Map: map[string]any{"a": "b"}}
	patch, err := smp.ParsePatch([]byte(`{"name":"patched","map":{"z":1}}`))
	if err != nil {
		panic(err)
	}
	limits := map[string][]smp.Option{"default": nil, "zero": {smp.WithLimits(smp.Limits{})}}
	for _, c := range cycleCases {
		for lname, opts := range limits {
			calls := map[string]func() error{
				"Diff(cyc, plain)": func() error { _, err := smp.Diff(c.make(), plain, opts...); return err },
				"Diff(plain, cyc)": func() error { _, err := smp.Diff(plain, c.make(), opts...); return err },
				"Apply":            func() error { _, err := smp.Apply(c.make(), patch, opts...); return err },
				"ThreeWay(c,p,p)":  func() error { _, err := smp.ThreeWay(c.make(), plain, plain, opts...); return err },
				"ThreeWay(p,c,p)":  func() error { _, err := smp.ThreeWay(plain, c.make(), plain, opts...); return err },
				"ThreeWay(p,p,c)":  func() error { _, err := smp.ThreeWay(plain, plain, c.make(), opts...); return err },
			}
			for cname, call := range calls {
				fmt.Printf("%s|%s %s|%s\n", c.name, cname, lname, describeErr(call()))
			}
		}
	}
	mapCycles := map[string]func() smp.JSONMap{
		"map api: map holds itself": func() smp.JSONMap {
			return smp.JSONMap{"name": "x", "map": selfMap()}
		},
		"map api: list holds itself": func() smp.JSONMap {
			return smp.JSONMap{"list": selfList()}
		},
		"map api: root holds itself": func() smp.JSONMap {
			m := smp.JSONMap{"name": "x"}
			m["any"] = map[string]any(m)
			return m
		},
	}
	ok := smp.JSONMap{"name": "y"}
	for name, mk := range mapCycles {
		calls := map[string]func() error{
			"ApplyMap(cyc, p)": func() error { _, err := smp.ApplyMap(mk(), ok, cycDoc{}); return err },
			"ApplyMap(o, cyc)": func() error { _, err := smp.ApplyMap(ok, mk(), cycDoc{}); return err },
			"DiffMap(cyc, m)": func() error {
				_, err := smp.DiffMap(mk(), ok, cycDoc{})
				return err
			},
			"DiffMap(o, cyc)": func() error {
				_, err := smp.DiffMap(ok, mk(), cycDoc{})
				return err
			},
			"ThreeWayMap(cyc, m, c)":  func() error { _, err := smp.ThreeWayMap(mk(), ok, ok, cycDoc{}); return err },
			"ThreeWayMap(o, cyc, c)":  func() error { _, err := smp.ThreeWayMap(ok, mk(), ok, cycDoc{}); return err },
			"ThreeWayMap(o, m, cyc)":  func() error { _, err := smp.ThreeWayMap(ok, ok, mk(), cycDoc{}); return err },
			"PatchesConflict(cyc, r)": func() error { _, err := smp.PatchesConflict(mk(), ok, cycDoc{}); return err },
			"PatchesConflict(l, cyc)": func() error { _, err := smp.PatchesConflict(ok, mk(), cycDoc{}); return err },
		}
		for cname, call := range calls {
			fmt.Printf("%s|%s|%s\n", name, cname, describeErr(call()))
		}
	}
	deepChild()
	fmt.Println("child done")
}

// deepChild runs values nested far deeper than any limit, without a cycle,
// under zero limits.
func deepChild() {
	zero := smp.WithLimits(smp.Limits{})
	list := &cycDoc{}
	for cur, i := list, 0; i < 20_000; i++ {
		cur.Next = &cycDoc{Name: "n"}
		cur = cur.Next
	}
	_, err := smp.Diff(list, &cycDoc{}, zero)
	fmt.Printf("deep struct|Diff zero|%s\n", kindOnly(err))
	_, err = smp.Apply(list, smp.Patch{}, zero)
	fmt.Printf("deep struct|Apply zero|%s\n", kindOnly(err))
	var deep any = "leaf"
	for range 20_000 {
		deep = map[string]any{"a": deep}
	}
	_, err = smp.Diff(&cycDoc{Any: deep}, &cycDoc{}, zero)
	fmt.Printf("deep any|Diff zero|%s\n", kindOnly(err))
	_, err = smp.ApplyMap(smp.JSONMap{"any": deep}, smp.JSONMap{}, cycDoc{})
	fmt.Printf("deep any|ApplyMap|%s\n", kindOnly(err))
}

func describeErr(err error) string {
	if err == nil {
		return "ok"
	}
	var e *smp.Error
	if !errors.As(err, &e) {
		return "not an *smp.Error: " + err.Error()
	}
	return string(e.Kind) + "|" + e.Path.String()
}

func kindOnly(err error) string {
	var e *smp.Error
	if errors.As(err, &e) {
		return string(e.Kind)
	}
	return fmt.Sprint(err)
}

func TestCycleChild(t *testing.T) {
	if os.Getenv(cycleChildEnv) == "" {
		t.Skip("run by TestCyclesAreErrors in a child process")
	}
	cycleChild()
}

func TestCyclesAreErrors(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCycleChild$", "-test.v")
	cmd.Env = append(os.Environ(), cycleChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	text := string(out)
	if strings.Contains(text, "fatal error") {
		t.Fatalf("the child crashed:\n%.3000s", text)
	}
	require.NoError(t, err, "the child failed:\n%s", tail(text))
	require.Contains(t, text, "child done")

	lines := map[string]string{} // "case|call" -> "kind|path"
	for _, l := range strings.Split(text, "\n") {
		parts := strings.SplitN(l, "|", 3)
		if len(parts) == 3 {
			lines[parts[0]+"|"+parts[1]] = parts[2]
		}
	}
	calls := []string{"Diff(cyc, plain)", "Diff(plain, cyc)", "Apply", "ThreeWay(c,p,p)", "ThreeWay(p,c,p)", "ThreeWay(p,p,c)"}
	for _, c := range cycleCases {
		for _, lname := range []string{"default", "zero"} {
			for _, call := range calls {
				got, ok := lines[c.name+"|"+call+" "+lname]
				if !assert.True(t, ok, "%s / %s %s: no result", c.name, call, lname) {
					continue
				}
				doc := "original document"
				switch {
				case strings.HasPrefix(call, "Diff(plain") || call == "ThreeWay(p,c,p)":
					doc = "modified document"
				case call == "ThreeWay(p,p,c)":
					doc = "current document"
				}
				assert.Equal(t, string(c.kind)+"|"+c.path, got, "%s / %s %s (%s)", c.name, call, lname, doc)
			}
		}
	}
	mapCalls := map[string]string{
		"ApplyMap(cyc, p)": "", "ApplyMap(o, cyc)": "",
		"DiffMap(cyc, m)": "", "DiffMap(o, cyc)": "",
		"ThreeWayMap(cyc, m, c)": "", "ThreeWayMap(o, cyc, c)": "", "ThreeWayMap(o, m, cyc)": "",
		"PatchesConflict(cyc, r)": "", "PatchesConflict(l, cyc)": "",
	}
	mapPaths := map[string]string{
		"map api: map holds itself":  "map.self",
		"map api: list holds itself": "list[1]",
		"map api: root holds itself": "any",
	}
	for name, path := range mapPaths {
		for call := range mapCalls {
			assert.Equal(t, "InvalidValue|"+path, lines[name+"|"+call], "%s / %s", name, call)
		}
	}
	for _, k := range []string{"deep struct|Diff zero", "deep struct|Apply zero", "deep any|Diff zero", "deep any|ApplyMap"} {
		assert.Equal(t, "Limit", lines[k], k)
	}
}

func tail(s string) string {
	if len(s) > 4000 {
		return s[len(s)-4000:]
	}
	return s
}
