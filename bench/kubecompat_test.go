package bench

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kubeCase runs one input through the kube module and Kubernetes with the
// same data struct. kubeWant "" means the kube module must give
// Kubernetes' result (the same JSON, or an error with the same text);
// anything else pins a difference docs/compat.md keeps, with its reason.
type kubeCase struct {
	section                  string // docs/compat.md heading, dashed
	op                       string // apply, diff, 3way, 3way-overwrite
	schema, k8sSchema        any
	original, patch, current string // patch: the patch, or modified for a diff
	k8sWant, kubeWant        string // JSON, or "error: substring"
}

// kubeSame and kubeLikeSmp are the kube module's outcomes of compatCases
// entries: Kubernetes' result, or smp's (oursWant).
const (
	kubeSame    = "="
	kubeLikeSmp = "smp"
)

// kubeOutcomes gives, for each compatCases entry by id in order, the kube
// module's outcome: kubeSame, kubeLikeSmp or a pinned result. A new
// compatCases entry without one fails TestKubeCompat.
var kubeOutcomes = map[string][]string{
	"delete-directive-on-a-map":                        {kubeLikeSmp},
	"null-live-list-with-setelementorder":              {kubeSame},
	"directives-in-added-values":                       {kubeLikeSmp},
	"replace-directive-on-an-absent-map":               {kubeLikeSmp},
	"directives-on-fields-without-their-strategy":      {"error: invalid patch format of primitive list", kubeSame},
	"values-of-the-wrong-type":                         {kubeSame},
	"objects-under-unknown-fields-and-maps-of-structs": {kubeSame, kubeSame},
	"self-marshalling-types-are-atomic":                {kubeSame},
	"merge-keys-compare-numbers-by-value":              {`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80.0,"name":"y"}]}]}}`},
	"integers-stay-exact":                              {kubeLikeSmp},
	"duplicated-merge-keys":                            {kubeLikeSmp, kubeSame},
	"reordering-a-set":                                 {kubeLikeSmp, kubeLikeSmp},
	"a-pointer-to-a-struct-holding-a-list":             {kubeSame},
	"replace-strategy-objects-in-two-way-patches":      {kubeSame, kubeSame},
	"merge-keys-left-out-by-omitempty":                 {kubeSame, kubeSame},
	"a-recreated-element-keeps-its-place":              {kubeLikeSmp},
	"an-empty-setelementorder-keeps-the-patch-order":   {kubeLikeSmp},
}

// kubeCompatCases is compatCases with the kube module's outcomes, and
// kubeExtraCases.
func kubeCompatCases(t *testing.T) []kubeCase {
	var out []kubeCase
	seen := map[string]int{}
	for _, c := range compatCases {
		outcomes := kubeOutcomes[c.id]
		n := seen[c.id]
		seen[c.id]++
		require.Less(t, n, len(outcomes), "kubeOutcomes has no outcome for compatCases entry %s #%d", c.id, n+1)
		k := kubeCase{section: c.id, op: "apply", schema: c.schema, k8sSchema: c.k8sSchema,
			original: c.original, patch: c.patch, k8sWant: c.k8sWant}
		if c.diff {
			k.op = "diff"
		}
		switch o := outcomes[n]; o {
		case kubeSame:
		case kubeLikeSmp:
			k.kubeWant = c.oursWant
		default:
			k.kubeWant = o
		}
		out = append(out, k)
	}
	for id, o := range kubeOutcomes {
		require.Equal(t, len(o), seen[id], "kubeOutcomes[%s] has one outcome per compatCases entry", id)
	}
	return append(out, kubeExtraCases...)
}

// TestKubeCompat runs every case through the kube module and Kubernetes,
// and checks docs/compat.md against the outcome: a section where the kube
// module differs says why the difference stays; one where it matches says
// it applies to smp only; every section has a case.
func TestKubeCompat(t *testing.T) {
	sections := compatSections(t)
	differs, covered := map[string]bool{}, map[string]bool{}
	cases, ran := kubeCompatCases(t), 0
	for i, c := range cases {
		_, ok := sections[c.section]
		require.True(t, ok, "docs/compat.md has a section %q", c.section)
		covered[c.section] = true
		t.Run(fmt.Sprintf("%s#%d", c.section, i), func(t *testing.T) {
			kout, kerr := runK8s(c)
			uout, uerr := runKube(c)
			ran++
			defer func() {
				if t.Failed() {
					t.Logf("Kubernetes: %s %v\nkube module: %s %v", kout, kerr, uout, uerr)
				}
			}()
			check(t, "Kubernetes", c.k8sWant, kout, kerr)
			if c.kubeWant == "" {
				sameAsK8s(t, c.k8sWant, uout, uerr)
				return
			}
			differs[c.section] = true
			check(t, "kube module", c.kubeWant, uout, uerr)
			require.NotEqual(t, c.k8sWant, c.kubeWant, "a pinned difference differs")
		})
	}
	if ran < len(cases) {
		t.Logf("%d of %d cases ran: docs/compat.md is checked only when all run", ran, len(cases))
		return
	}
	var names []string
	for name := range sections {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		text := sections[name]
		if !covered[name] {
			t.Errorf("docs/compat.md section %q has no case in compatCases or kubeExtraCases", name)
			continue
		}
		t.Logf("%-50s kube module differs from Kubernetes: %v", name, differs[name])
		switch {
		case differs[name] && !strings.Contains(text, "Why it stays:"):
			t.Errorf("section %q: the kube module differs from Kubernetes, but the section gives no \"Why it stays:\"", name)
		case !differs[name] && strings.Contains(text, "Why it stays:"):
			t.Errorf("section %q: the kube module matches Kubernetes, but the section says why a difference stays", name)
		case !differs[name] && !strings.Contains(text, "Applies to `smp` only"):
			t.Errorf("section %q: the kube module matches Kubernetes; the section should say \"Applies to smp only\"", name)
		}
	}
}

// compatSections returns the text of each ### section under docs/compat.md's
// "## Kubernetes" and "## Three-way patches", by dashed heading.
func compatSections(t *testing.T) map[string]string {
	doc, err := os.ReadFile("../docs/compat.md")
	require.NoError(t, err)
	out := map[string]string{}
	part := ""
	var cur string
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			part, cur = line, ""
		case strings.HasPrefix(line, "### ") && (part == "## Kubernetes" || part == "## Three-way patches"):
			cur = dashed(strings.TrimPrefix(line, "### "))
			out[cur] = ""
		case cur != "":
			out[cur] += line + "\n"
		}
	}
	require.NotEmpty(t, out)
	return out
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

func dashed(heading string) string {
	return strings.Trim(nonWord.ReplaceAllString(strings.ToLower(heading), "-"), "-")
}

// runK8s runs the case on Kubernetes' package; a panic (its conflict
// check can panic) is an error.
func runK8s(c kubeCase) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return runCase(consumerK8s, c)
}

// runKube runs the case on the kube module, which must not panic.
func runKube(c kubeCase) ([]byte, error) { return runCase(consumerKube, c) }

// runCase runs the case's operation with one strategicpatch package.
func runCase(e consumerEngine, c kubeCase) ([]byte, error) {
	s := c.schema
	if c.k8sSchema != nil {
		s = c.k8sSchema
	}
	o, p, cur := []byte(c.original), []byte(c.patch), []byte(c.current)
	switch c.op {
	case "apply":
		return e.apply(o, p, s)
	case "diff":
		return e.twoWay(o, p, s)
	}
	return e.threeWay(o, p, cur, s, c.op == "3way-overwrite")
}

// sameAsK8s checks the kube module's outcome against Kubernetes' pinned one:
// an error with the same text, or the same JSON value (numbers compared by
// value: Kubernetes rewrites 1e3 as 1000, the kube module keeps the text).
func sameAsK8s(t *testing.T, k8sWant string, out []byte, err error) {
	t.Helper()
	if strings.HasPrefix(k8sWant, "error: ") {
		check(t, "kube module (as Kubernetes)", k8sWant, out, err)
		return
	}
	require.NoError(t, err, "kube module (as Kubernetes)")
	w, werr := decodeJSON([]byte(k8sWant))
	g, gerr := decodeJSON(out)
	require.NoError(t, werr)
	require.NoError(t, gerr)
	assert.True(t, agreeEqual(w, g, exactNumbers), "kube module (as Kubernetes):\n got  %s\n want %s", out, k8sWant)
}
