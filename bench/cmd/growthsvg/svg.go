package main

import (
	"fmt"
	"io"
	"strings"
)

// writeSVG writes the chart as a standalone SVG document. Every number
// is printed with one decimal, so the same chart gives the same bytes.
func writeSVG(w io.Writer, ch chart) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`, width, height, width, height)
	p(`<rect width="%.0f" height="%.0f" fill="#ffffff"/>`, width, height)
	mid := (plotLeft + plotRight) / 2
	p(`<text x="%.1f" y="26" text-anchor="middle" font-size="15" font-weight="bold">%s</text>`, mid, esc(ch.title))
	p(`<text x="%.1f" y="45" text-anchor="middle" fill="#444444">%s, log-log axes; dashed lines grow as n and as n²</text>`, mid, esc(ch.unit))
	if ch.note != "" {
		p(`<text x="%.1f" y="62" text-anchor="middle" fill="#444444" font-size="11">%s</text>`, mid, esc(ch.note))
	}
	writeAxes(p, ch)
	for _, s := range ch.slopes {
		x0, y0, x1, y1 := ch.x.pos(s.n0), ch.y.pos(s.c0), ch.x.pos(s.n1), ch.y.pos(s.c1)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888888" stroke-width="1" stroke-dasharray="%s"/>`, x0, y0, x1, y1, referenceDashPattern)
		// The label sits inside the plot: right of a line that leaves
		// through the top, above one that leaves through the right.
		if y1 <= plotTop+0.05 {
			p(`<text x="%.1f" y="%.1f" fill="#666666">%s</text>`, x1+6, y1+14, esc(s.label))
		} else {
			p(`<text x="%.1f" y="%.1f" fill="#666666" text-anchor="end">%s</text>`, x1-6, y1-6, esc(s.label))
		}
	}
	for _, s := range ch.series {
		_, color, marker := style(s.impl)
		var pts []string
		for _, pt := range s.points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", ch.x.pos(pt.n), ch.y.pos(pt.cost)))
		}
		p(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(pts, " "), color)
		for _, pt := range s.points {
			p("%s", markerSVG(marker, color, ch.x.pos(pt.n), ch.y.pos(pt.cost)))
		}
	}
	writeLegend(p, ch)
	p(`</svg>`)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeAxes writes the grid, the decade ticks and their labels, the
// plot's frame and the axis titles.
func writeAxes(p func(string, ...any), ch chart) {
	for _, v := range ch.x.decades() {
		x := ch.x.pos(v)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e2e2e2"/>`, x, plotTop, x, plotBottom)
		p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x, plotBottom+18, decadeLabel(v))
	}
	for _, v := range ch.y.decades() {
		y := ch.y.pos(v)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e2e2e2"/>`, plotLeft, y, plotRight, y)
		p(`<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, plotLeft-8, y+4, decadeLabel(v))
	}
	p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#888888"/>`, plotLeft, plotTop, plotRight-plotLeft, plotBottom-plotTop)
	p(`<text x="%.1f" y="%.1f" text-anchor="middle">list length n (elements)</text>`, (plotLeft+plotRight)/2, plotBottom+44)
	p(`<text x="%.1f" y="%.1f" text-anchor="middle" transform="rotate(-90 %.1f %.1f)">%s</text>`, 24.0, (plotTop+plotBottom)/2, 24.0, (plotTop+plotBottom)/2, esc(ch.unit))
}

// writeLegend names each series beside its marker, then the reference
// lines.
func writeLegend(p func(string, ...any), ch chart) {
	y := legendY
	for _, s := range ch.series {
		label, color, marker := style(s.impl)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, legendX, y, legendX+28, y, color)
		p("%s", markerSVG(marker, color, legendX+14, y))
		p(`<text x="%.1f" y="%.1f">%s</text>`, legendX+36, y+4, esc(label))
		y += legendStep
	}
	p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888888" stroke-dasharray="%s"/>`, legendX, y, legendX+28, y, referenceDashPattern)
	p(`<text x="%.1f" y="%.1f">reference slopes</text>`, legendX+36, y+4)
}

// markerSVG draws a marker centred on (x, y).
func markerSVG(kind, color string, x, y float64) string {
	switch kind {
	case "square":
		return fmt.Sprintf(`<rect x="%.1f" y="%.1f" width="8.0" height="8.0" fill="%s"/>`, x-4, y-4, color)
	case "triangle":
		return fmt.Sprintf(`<path d="M%.1f %.1fL%.1f %.1fL%.1f %.1fZ" fill="%s"/>`, x, y-5, x+5, y+4, x-5, y+4, color)
	case "diamond":
		return fmt.Sprintf(`<path d="M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ" fill="%s"/>`, x, y-5, x+5, y, x, y+5, x-5, y, color)
	}
	return fmt.Sprintf(`<circle cx="%.1f" cy="%.1f" r="4.0" fill="%s"/>`, x, y, color)
}

// esc escapes text for XML.
var esc = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace
