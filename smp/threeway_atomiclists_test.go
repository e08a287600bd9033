package smp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

// roleRules holds a list of objects without a patch strategy, replaced
// whole, whose elements render an unset list as null, as a ClusterRole's
// rules.
type roleRules struct {
	Rules []roleRule `json:"rules,omitempty"`
}

type roleRule struct {
	Verbs []string `json:"verbs"`
}

// TestThreeWayAtomicListKeepsElements: a list replaced whole is modified's
// list, every element as it is, even where the original's and current's
// elements differ in a field an element of modified holds null. The
// kubernetes#48164 narrowing, which rewrites deletions inside merge-list
// elements, once rewrote such an element into nothing and dropped it.
func TestThreeWayAtomicListKeepsElements(t *testing.T) {
	o := `{"rules":[{"verbs":[]}]}`
	m := `{"rules":[{"verbs":[""]},{"verbs":null}]}`
	c := `{"rules":[{"verbs":["a"]}]}`
	p, err := smp.ThreeWayJSON([]byte(o), []byte(m), []byte(c), roleRules{}, smp.WithOverwrite(true))
	require.NoError(t, err)
	assert.JSONEq(t, m, string(p), "the list, whole")
	r, err := smp.ApplyJSON([]byte(c), p, roleRules{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"rules":[{"verbs":[""]},{}]}`, string(r), "both elements; the null of a value the patch sets is dropped")

	var ov, mv, cv roleRules
	for s, v := range map[string]*roleRules{o: &ov, m: &mv, c: &cv} {
		require.NoError(t, json.Unmarshal([]byte(s), v))
	}
	tp, err := smp.ThreeWay(ov, mv, cv, smp.WithOverwrite(true))
	require.NoError(t, err)
	tr, err := smp.Apply(cv, tp)
	require.NoError(t, err)
	assert.Equal(t, mv, tr, "the typed API")
}
