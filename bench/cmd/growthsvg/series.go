package main

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/typedpatch/typedpatch/bench/internal/benchfmt"
)

// point is one measured cost at list length n.
type point struct{ n, cost float64 }

// series is one implementation's points, by increasing n.
type series struct {
	impl   string
	points []point
}

// measured is what the inputs hold for the chosen rows.
type measured struct {
	unit   string
	series []series // in impls' order, then unknown impls by name
}

// impls are the implementations the picture knows, in legend order.
var impls = []struct{ name, label, color, marker string }{
	{"ours", "typedpatch", "#1f5fbf", "circle"},
	{"k8s", "Kubernetes strategicpatch", "#c62828", "square"},
	{"rfc7386", "RFC 7386 (evanphx/json-patch)", "#2e8b3a", "triangle"},
	{"bare", "bare decode + encode (floor)", "#333333", "diamond"},
}

// collect reads every input and keeps the rows <bench>/<op>/n=<N>/<impl>,
// each name's median cost.
func collect(c config, inputs [][]byte) (measured, error) {
	row := regexp.MustCompile(`^` + regexp.QuoteMeta(c.bench+"/"+c.op) + `/n=(\d+)/([^/]+)$`)
	m := measured{}
	costs := map[string][]float64{}
	var names []string
	for i, data := range inputs {
		unit := c.unit
		lines, err := benchfmt.Parse(bytes.NewReader(data))
		if benchfmt.IsInstr(data) {
			unit = benchfmt.Instructions
			lines, err = benchfmt.ParseInstr(bytes.NewReader(data))
		}
		if err != nil {
			return m, fmt.Errorf("input %d: %w", i+1, err)
		}
		if m.unit != "" && m.unit != unit {
			return m, fmt.Errorf("input %d is in %s, an earlier one in %s", i+1, unit, m.unit)
		}
		m.unit = unit
		for _, l := range lines {
			if !row.MatchString(l.Name) {
				continue
			}
			if _, ok := costs[l.Name]; !ok {
				names = append(names, l.Name)
			}
			costs[l.Name] = append(costs[l.Name], l.Value(unit))
		}
	}
	byImpl := map[string][]point{}
	for _, name := range names {
		sub := row.FindStringSubmatch(name)
		n, _ := strconv.ParseFloat(sub[1], 64) // digits only
		cost := benchfmt.Median(costs[name])
		if !(cost > 0) {
			return m, fmt.Errorf("%s: no positive cost in %s to draw on a log scale", name, m.unit)
		}
		byImpl[sub[2]] = append(byImpl[sub[2]], point{n, cost})
	}
	if len(byImpl) == 0 {
		return m, fmt.Errorf("no rows %s/%s/n=<N>/<impl> in the input", c.bench, c.op)
	}
	for _, name := range implOrder(byImpl) {
		ps := byImpl[name]
		slices.SortFunc(ps, func(a, b point) int { return cmpFloat(a.n, b.n) })
		m.series = append(m.series, series{impl: name, points: ps})
	}
	return m, nil
}

// implOrder lists the implementations measured: the known ones in
// legend order, then the others by name.
func implOrder(byImpl map[string][]point) []string {
	var known, other []string
	for _, im := range impls {
		if _, ok := byImpl[im.name]; ok {
			known = append(known, im.name)
		}
	}
	for name := range byImpl {
		if !slices.Contains(known, name) {
			other = append(other, name)
		}
	}
	slices.Sort(other)
	return append(known, other...)
}

// cmpFloat orders two numbers.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// style returns an implementation's label, colour and marker; one the
// picture does not know gets its name and a grey.
func style(impl string) (label, color, marker string) {
	for _, im := range impls {
		if im.name == impl {
			return im.label, im.color, im.marker
		}
	}
	return impl, "#8e6c8a", "circle"
}
