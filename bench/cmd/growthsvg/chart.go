package main

import (
	"fmt"
	"math"
)

// Layout of the picture, in pixels.
const (
	width, height        = 780.0, 480.0
	plotLeft, plotRight  = 80.0, 520.0
	plotTop, plotBottom  = 78.0, 420.0
	legendX, legendY     = 540.0, 96.0
	legendStep           = 22.0
	axisPad              = 0.15 // decades of room around the points
	referenceBelow       = 4.0  // the slope lines start this many times below the cheapest first point
	referenceDashPattern = "6 4"
)

// chart is a measured run placed on the picture.
type chart struct {
	title, note, unit string
	x, y              logAxis
	series            []series
	slopes            []slope
}

// slope is a reference line of cost proportional to n^k, from one end to
// the other, in values.
type slope struct {
	k              int
	n0, c0, n1, c1 float64
	label          string
}

// newChart scales the axes to the points and places the reference lines.
func newChart(c config, m measured) chart {
	minN, maxN := math.Inf(1), math.Inf(-1)
	minC, maxC := math.Inf(1), math.Inf(-1)
	for _, s := range m.series {
		for _, p := range s.points {
			minN, maxN = math.Min(minN, p.n), math.Max(maxN, p.n)
			minC, maxC = math.Min(minC, p.cost), math.Max(maxC, p.cost)
		}
	}
	// The reference lines start below the cheapest cost at the
	// shortest list, so that they do not hide a series.
	start := math.Inf(1)
	for _, s := range m.series {
		if s.points[0].n == minN {
			start = math.Min(start, s.points[0].cost)
		}
	}
	start /= referenceBelow
	xlo, xhi := span(minN, maxN, axisPad)
	ylo, yhi := span(math.Min(minC, start), maxC, axisPad)
	ch := chart{
		title: c.title, note: c.note, unit: m.unit,
		x:      logAxis{lo: xlo, hi: xhi, p0: plotLeft, p1: plotRight},
		y:      logAxis{lo: ylo, hi: yhi, p0: plotBottom, p1: plotTop},
		series: m.series,
	}
	if ch.title == "" {
		ch.title = fmt.Sprintf("%s/%s: cost against list length n", c.bench, c.op)
	}
	for _, k := range []int{1, 2} {
		ch.slopes = append(ch.slopes, newSlope(k, minN, start, xhi, yhi))
	}
	return ch
}

// newSlope is the line c = c0 (n/n0)^k from (n0, c0) to where it leaves
// the plot: at n = nMax or at c = cMax, whichever comes first.
func newSlope(k int, n0, c0, nMax, cMax float64) slope {
	n1 := math.Min(nMax, n0*math.Pow(cMax/c0, 1/float64(k)))
	s := slope{k: k, n0: n0, c0: c0, n1: n1, c1: c0 * math.Pow(n1/n0, float64(k))}
	s.label = map[int]string{1: "∝ n", 2: "∝ n²"}[k]
	return s
}
