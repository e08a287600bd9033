package main

import (
	"math"
	"strconv"
)

// logAxis maps values in [lo, hi] to pixels in [p0, p1] on a log scale.
type logAxis struct {
	lo, hi, p0, p1 float64
}

// pos returns the pixel of v.
func (a logAxis) pos(v float64) float64 {
	f := (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	return a.p0 + f*(a.p1-a.p0)
}

// perDecade returns how many pixels one decade spans (negative when
// pixels run against the values, as on a y axis).
func (a logAxis) perDecade() float64 {
	return (a.p1 - a.p0) / (math.Log10(a.hi) - math.Log10(a.lo))
}

// decades returns the powers of ten within [lo, hi], ascending.
func (a logAxis) decades() []float64 {
	var out []float64
	for e := math.Ceil(math.Log10(a.lo) - 1e-9); e <= math.Log10(a.hi)+1e-9; e++ {
		out = append(out, math.Pow(10, e))
	}
	return out
}

// span returns the range of a log axis around values from min to max:
// padded by pad decades on each side, and reaching at least one power
// of ten so that the axis has a tick.
func span(min, max, pad float64) (lo, hi float64) {
	l, h := math.Log10(min)-pad, math.Log10(max)+pad
	if math.Floor(h) < math.Ceil(l) { // no power of ten inside
		l = math.Floor(l)
	}
	return math.Pow(10, l), math.Pow(10, h)
}

// decadeLabel writes a power of ten with a metric prefix: 1, 10, 100,
// 1k, ..., 100G, 1T; beyond, 1e15.
func decadeLabel(v float64) string {
	e := int(math.Round(math.Log10(v)))
	if e < 0 || e > 12 {
		return "1e" + strconv.Itoa(e)
	}
	return []string{"1", "10", "100"}[e%3] + []string{"", "k", "M", "G", "T"}[e/3]
}
